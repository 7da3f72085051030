package research

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/retrieve"
)

// Document is what a corpus knows about one source document.
type Document struct {
	URL         string
	Title       string
	Domain      string
	Kind        string
	Credibility float64
	Published   time.Time
}

// IndexCorpus is a Corpus over one scope of a retrieve.Index whose chunk
// refs are "DOC" or "DOC#fragment", with Docs describing each DOC.
type IndexCorpus struct {
	Index retrieve.Index
	Scope string
	Docs  map[string]Document
	// Unread are the documents that could not be indexed, which the
	// research's report names (FailingCorpus).
	Unread []SourceFailure
}

// Failures implements FailingCorpus.
func (c *IndexCorpus) Failures() []SourceFailure { return c.Unread }

// Search implements Corpus.
func (c *IndexCorpus) Search(ctx context.Context, query string, k int) ([]Passage, error) {
	hits, err := c.Index.Search(ctx, c.Scope, query, k)
	if err != nil {
		return nil, err
	}
	out := make([]Passage, 0, len(hits))
	for _, h := range hits {
		doc, frag, _ := strings.Cut(h.Ref, "#")
		d := c.Docs[doc]
		p := Passage{URL: d.URL, Title: d.Title, Text: h.Text, Domain: d.Domain, Credibility: d.Credibility, Published: d.Published, Score: h.Score}
		if p.URL == "" {
			p.URL = "corpus:" + doc
		}
		if frag != "" {
			p.URL += "#" + frag
		}
		if p.Title == "" {
			p.Title = h.Title
		}
		out = append(out, p)
	}
	return out, nil
}

// Kinds of documents, as DescribeDocument tells them, with the
// credibility each earns: a filing made under legal liability first, a
// press release after it, news and other writing below.
// Each kind's pattern runs only on text that holds one of its hints, in
// lower case: most documents hold none, and a folder of 20,000 spent
// most of its description in the patterns.
var documentKinds = []struct {
	kind        string
	hints       []string
	pattern     *regexp.Regexp
	credibility float64
}{
	{"amended filing", []string{"/a", "amended"}, regexp.MustCompile(`(?i)\b(?:10-K/A|10-Q/A|20-F/A|amended (?:annual|quarterly) report)\b`), 0.95},
	{"filing", []string{"10-k", "10-q", "8-k", "20-f", "annual report", "quarterly report", "prospectus"},
		regexp.MustCompile(`(?i)\b(?:form 10-K|form 10-Q|form 8-K|form 20-F|10-K|10-Q|8-K|annual report|quarterly report|prospectus)\b`), 0.9},
	{"press release", []string{"release"}, regexp.MustCompile(`(?i)\bpress release\b|\bfor immediate release\b`), 0.75},
	{"memo", []string{"memo", "minutes"}, regexp.MustCompile(`(?i)\bmemo(?:randum)?\b|\bminutes\b`), 0.7},
	{"news", []string{"reporter", "news", "gazette", "times", "journal"}, regexp.MustCompile(`(?i)\b(?:reporter|newspaper|news|gazette|times|journal)\b`), 0.6},
	{"blog", []string{"blog", "forum", "posted by", "comments"}, regexp.MustCompile(`(?i)\b(?:blog|forum|posted by|comments)\b`), 0.4},
}

var (
	officialRE = regexp.MustCompile(`(?i)\b(?:official|statement|register|registry|minutes|certificate|ministry|regulator|authority|agency|audit|government|council|parliament|treasurer|commission|department)\b`)
	outletRE   = regexp.MustCompile(`(?i)\b(?:news|herald|gazette|times|courier|post|echo|journal|daily|weekly|tribune|chronicle|magazine|monthly|observer|today|desk|sport|sports)\b`)
	informalRE = regexp.MustCompile(`(?i)\b(?:blog|forum|podcast|newsletter|fan|fans|thread|episode|vlog|diary|wiki|leaflet|letters?|column|gossip|rumou?rs?|facebook|reddit|listings?)\b`)
)

// headingOf is how a document names itself: its title, else its first
// heading, with its file name.
func headingOf(name, title, head string) string {
	if title == "" {
		for _, line := range strings.Split(head, "\n") {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") {
				title = strings.TrimLeft(t, "# ")
				break
			}
		}
	}
	// Plain text: its first line.
	if title == "" {
		title, _, _ = strings.Cut(strings.TrimSpace(head), "\n")
	}
	return name + " " + title
}

// dateLineRE finds a document's own date in its heading: "Date: ...",
// "Filed: ...", "Dated ...", "Published ...".
var (
	dateLineRE = regexp.MustCompile(`(?im)^\s*(?:date|dated|filed|filing date|published|release date|posted(?: by)?|updated|issued|last updated)\s*:?\s*(.+)$`)
	dateHints  = []string{"date", "filed", "published", "posted", "updated", "issued"}
)

// DescribeDocument reads a document's kind, credibility and date from its
// name, title and opening text (its own metadata, not a domain map).
func DescribeDocument(name, title, text string) Document {
	head := text
	if len(head) > 600 {
		head = head[:600]
	}
	d := Document{Title: title, Kind: "document", Credibility: 0.5}
	// "03-press-release.md" names a press release as its title would.
	probe := strings.NewReplacer("-", " ", "_", " ").Replace(name) + "\n" + title + "\n" + head
	lower := strings.ToLower(probe)
	heading := headingOf(strings.NewReplacer("-", " ", "_", " ").Replace(name), title, head)
	for _, k := range documentKinds {
		// A filing is one by its name or heading: a news story that
		// cites "its latest quarterly report" is still news.
		p, l := probe, lower
		// Minutes are a document's kind by its heading too: "ten
		// minutes" in a travel blog is no memo.
		if k.credibility >= 0.9 || k.kind == "memo" {
			p, l = heading, strings.ToLower(heading)
		}
		if slices.ContainsFunc(k.hints, func(h string) bool { return strings.Contains(l, h) }) && k.pattern.MatchString(p) {
			d.Kind, d.Credibility = k.kind, k.credibility
			break
		}
	}
	// A body's own publication, named so by its title ("City Council —
	// Transport Committee report", "Official club statement"), unless
	// the title is a newspaper's; a podcast, fan page or newsletter is
	// not official. Neither overrides a filing or a press release.
	if d.Credibility < 0.75 && officialRE.MatchString(heading) && !outletRE.MatchString(heading) && !informalRE.MatchString(heading) {
		d.Kind, d.Credibility = "official", 0.85
	} else if (d.Kind == "document" || d.Kind == "news") && informalRE.MatchString(heading) {
		d.Kind, d.Credibility = "blog", 0.4
	} else if d.Kind == "document" && outletRE.MatchString(heading) {
		d.Kind, d.Credibility = "news", 0.6 // "Dunmore Herald: ..."
	}
	// "**posted by dave, march 18, 2025**": a forum's date, in bold and
	// lower case.
	head = strings.NewReplacer("**", "", "__", "").Replace(head)
	if slices.ContainsFunc(dateHints, func(h string) bool { return strings.Contains(lower, h) }) {
		if m := dateLineRE.FindStringSubmatch(head); m != nil {
			d.Published = dateOf(m[1])
		}
	}
	if d.Published.IsZero() {
		d.Published = datelineOf(head, true)
	}
	return d
}

// datelineRE is a line of a document's head that ends with its date: a
// dateline ("Eastmarch, 2 April 2024", "Hollis, Oregon — April 9,
// 2025"), a title that dates itself ("Minutes of the Board, 12 March
// 2025"), a labelled date ("Decision date: 14 February 2024", "Held on
// 16 May 2024") or a date alone.
var datelineRE = regexp.MustCompile(`(?i)^(?:#+\s*)?(?:(?:.*[,—–-]|.*\bdate:?|.*\bheld on|.*\bmeeting of)\s+)?(\S.{5,30}?)[.)]?$`)

// datelineOf is the date of the first such line among a document's
// first lines, or with mastheads of the first masthead's (mastheadDate),
// zero when there is none.
func datelineOf(head string, mastheads bool) time.Time {
	lines := strings.Split(head, "\n")
	for _, line := range lines[:min(len(lines), 8)] {
		line = strings.TrimSpace(line)
		emphasized := strings.HasPrefix(line, "*") || strings.HasPrefix(line, "_")
		if mastheads {
			line = strings.Trim(line, "*_ ")
		}
		if line == "" || len(line) > 160 {
			continue
		}
		if m := datelineRE.FindStringSubmatch(line); m != nil && len(line) <= 100 {
			vs := Values(m[1])
			if len(vs) == 1 && vs[0].Kind == KindDate && vs[0].Start == 0 && vs[0].End == len(m[1]) {
				if t := dateOf(m[1]); !t.IsZero() {
					return t
				}
			}
		}
		if !mastheads {
			continue
		}
		if t := mastheadDate(line, emphasized || len(line) <= 60); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// mastheadPartRE splits a masthead into its parts: "The Valley Courier —
// Saturday, July 20, 2024", "Evening Courier / By Dan Reyes | October 22,
// 2024".
var mastheadPartRE = regexp.MustCompile(`\s+[—–|/·]\s+|\s+-\s+`)

// mastheadLeadRE is what may come before a masthead's date in its part:
// a weekday, or the word that says what the date is ("Posted", "updated").
var mastheadLeadRE = regexp.MustCompile(`(?i)^(?:.*\b(?:posted|published|updated|issued|tabled|filed|released|held|answered)\s+(?:on\s+)?|.*,\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)`)

// mastheadVerbRE opens a masthead's part with the word that says what its
// date is: "Posted 2 November 2024 on ...", "held on 15 February 2024".
var mastheadVerbRE = regexp.MustCompile(`(?i)^(?:.*\b)?(?:(?:minutes of (?:the )?meeting )?held on|posted|published|updated|page last updated|last updated|issued|tabled|filed|released|recorded|answered)(?: in [a-z ]+)?:?\s+(?:on\s+)?`)

// mastheadDate is the day a masthead line dates its document by, one of
// its parts opening with a full date ("*South Wales Chronicle — Tuesday
// 11 February 2025, 14:05*", "**20 March 2025 — Our Bright Start
// experience**", "**October 2, 2024, 9:00 a.m., County Administration
// Building**", "*Posted 2 November 2024 on ...*"), or, when a part is a
// month alone ("*Riverland Herald — February 2025*", "Published April
// 2025"), that month's last day; zero when none does. A sentence that
// opens with a date is no masthead: its part goes on past the date with
// words and ends with a full stop.
func mastheadDate(line string, commas bool) time.Time {
	for _, part := range mastheadPartRE.Split(line, -1) {
		part = strings.TrimSpace(part)
		candidates := []string{part}
		if lead := mastheadVerbRE.FindString(part); lead != "" {
			candidates = append(candidates, part[len(lead):])
		}
		// "*Andes Regional News, 30 April 2021 (translated)*": a short or
		// emphasized line's parts after its commas.
		if commas {
			for i := strings.Index(part, ", "); i >= 0; i = strings.Index(part, ", ") {
				part = part[i+2:]
				candidates = append(candidates, part)
			}
		}
		for i, c := range candidates {
			said := i > 0
			if lead := mastheadLeadRE.FindString(c); lead != "" {
				c, said = c[len(lead):], true // a weekday before its day
			}
			if t := partDate(c, said); !t.IsZero() {
				return t
			}
		}
	}
	return time.Time{}
}

// monthIssueRE is a month alone, as a masthead dates an issue: "February
// 2025", "August 2024 issue".
var monthIssueRE = regexp.MustCompile(`^(?:` + month + `) \d{4}(?: (?:issue|edition))?\.?$`)

// partDate is the date a masthead's part opens with (said: a word or
// weekday before it says it is the document's).
func partDate(part string, said bool) time.Time {
	vs := Values(part)
	if len(vs) == 0 || vs[0].Kind != KindDate || vs[0].Start != 0 {
		return time.Time{}
	}
	if len(vs[0].Day) == 7 && (said || monthIssueRE.MatchString(part)) {
		if t, err := time.Parse("2006-01", vs[0].Day); err == nil {
			return t.AddDate(0, 1, -1)
		}
	}
	if len(vs[0].Day) != 10 {
		return time.Time{}
	}
	rest := strings.TrimSpace(part[vs[0].End:])
	if !said && rest != "" && rest != "." && (!strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, "(") || strings.HasSuffix(rest, ".")) {
		return time.Time{}
	}
	return dateOf(part[:vs[0].End])
}

// lowerMonthRE is a month's name in lower case before a day: "march 18,
// 2025" in a forum's heading.
var lowerMonthRE = regexp.MustCompile(`\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d`)

// dateOf parses the first full date in s, zero when there is none.
func dateOf(s string) time.Time {
	s = lowerMonthRE.ReplaceAllStringFunc(s, func(m string) string { return strings.ToUpper(m[:1]) + m[1:] })
	for _, v := range Values(s) {
		if v.Kind != KindDate || len(v.Day) != 10 {
			continue
		}
		if t, err := time.Parse("2006-01-02", v.Day); err == nil {
			return t
		}
	}
	return time.Time{}
}

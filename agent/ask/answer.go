package ask

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// Answer is what the offline analyst says to a question: the answer text,
// its type and the citations it rests on.
type Answer struct {
	Text      string
	Type      string // room.AnswerGrounded or room.AnswerInsufficient
	Citations []room.Citation
}

// extractPages is how many of the pages found the answer is looked for
// in, best first.
const extractPages = 10

// quoteLines is how many lines of evidence the answer quotes: the one
// that answers and those that support it.
const quoteLines = 4

// numberRe finds what looks like an amount in a line, to rank the lines
// that state one first; it checks nothing (numbers a model writes are
// checked by agent/evidence, see check).
var numberRe = regexp.MustCompile(`\(?\$?\s?\d[\d,]*(\.\d+)?\)?%?`)

// Extract answers a question from the pages retrieval found, with the
// rarity of its words in the room (nil when not known): first the
// sentence, table row or list item that answers (select.go), then the
// lines that support it, each quoted with its document and page; the
// answer's page is cited first. When the room never uses a word that
// makes it this question, or no passage found has the question's focus,
// it answers insufficient_evidence, saying what was searched and what is
// missing.
func Extract(questionText string, pages []PageHit, documents int, r *Rarity) Answer {
	q := parseQuestion(questionText)
	content := contentWords(q)
	if len(pages) == 0 || len(content) == 0 {
		return insufficient(q, content, nil, nil, documents)
	}
	named := documentWords(pages, markedWords(questionText))
	// A name said as a document's ("the comment package", "the changes
	// manual") asks about that document: another that uses the word
	// ("adds a comment") does not answer, and "package" is part of the
	// name, not what is asked.
	var strict []string
	for _, w := range content {
		if m := documentNounRe(w).FindStringSubmatch(questionText); named[w] && !genericWords[w] && m != nil {
			strict = append(strict, w)
			content = slices.DeleteFunc(content, func(x string) bool { return x == strings.ToLower(m[1]) })
		}
	}
	absent, strong, soft := focus(questionText, content, r, named)
	if len(absent) > 0 {
		return insufficient(q, content, absent, nil, documents)
	}
	// The question's verbs are how it is put: a passage says them in its
	// own words (verbs.go).
	// Unless they are all it asks about: "Who translated the changes
	// manual?" is answered only by a passage that says who translated,
	// and a room that never says it refuses. Who wrote a document its
	// cover says without the verb.
	verbs := questionVerbs(questionText)
	// The words the room uses everywhere are no focus when the question
	// has others; when its only others are how it is put ("come", "give
	// back", not "maintains"), they are its focus: "Where do the atomic
	// masses come from?" in a room about atoms asks about atomic masses,
	// not about coming.
	var subject, actions []string
	for _, w := range content {
		switch {
		case named[w] || genericWords[w]:
		case verbs[w] || wayOfAsking(w):
			actions = append(actions, w)
		case r.common(w):
			subject = append(subject, w)
		}
	}
	if ws := withoutVerbs(soft, verbs); len(ws) > 0 || len(strong) > 0 || authorRe.MatchString(questionText) {
		soft = ws
	} else if len(subject) > 0 && len(actions) > 0 && !slices.ContainsFunc(actions, func(w string) bool { return !lightWord(w) }) {
		soft = subject
	} else {
		for _, w := range content {
			if (verbs[w] || wayOfAsking(w)) && !named[w] && !genericWords[w] && r.absent(w) {
				absent = append(absent, w)
			}
		}
		if len(absent) > 0 {
			return insufficient(q, content, absent, nil, documents)
		}
	}
	type unit struct {
		text, quote string
		told        string // the quote with what follows a short one (told)
		page, chunk int    // indexes in pages and in the page's chunks
		score       float64
		held        bool // it holds the kind of value the question asks for, beside its focus
	}
	kind, asked := wantOf(questionText), asksOf(questionText)
	head := headOf(questionText)
	// The thing asked for ranks the lines that name it first even when
	// the room uses it everywhere ("Which font ...?" in a room about
	// fonts: "fontname Times-Roman", not "nodes are labeled"), though
	// only when it is no document's name is it a word a passage must have.
	asksFor := head
	if named[head] || genericWords[head] || !slices.Contains(content, head) {
		asksFor = ""
	}
	if !slices.Contains(strong, head) {
		head = "" // a word the room uses everywhere, or one that names a document
	}
	// The names and codes a line answers about (IN1, set_voltage: one
	// of the many pins, channels or routines a manual lists): its
	// paragraph, heading or passage's context names them. The thing
	// asked of them it may give as a value ("1 megaohm" for the
	// impedance).
	named_ := slices.DeleteFunc(slices.Clone(strong), func(w string) bool { return w == asksFor || w == head })
	opts := options(questionText)
	modifies := modifiers(questionText)
	things := namedThings(questionText)
	// A question that asks for a value (a number, a size, a date, a
	// name, a version, a default, a list) is answered by a line that
	// gives one.
	valueAsked := kind.any() || asked.any() || kind.size || kind.counted != "" || kind.list
	givesValue := func(s string) bool {
		return kind.fits(s) || asked.any() && asked.held(s) || kind.size && measureRe.MatchString(s) || kind.counts(s) || kind.list && hasList(s)
	}
	var found []unit
	fits := map[int]bool{} // the pages with a passage that answers
	// A name or a code asked about is matched whole: "ConTeXt" is not
	// "contents" nor "context" in "in this context".
	var exact []string
	for w := range markedWords(questionText) {
		if slices.Contains(strong, w) && !yearRe.MatchString(w) {
			exact = append(exact, w)
		}
	}
	// The words by which the question names a document ("the comment
	// package"): a passage of another document answers only if it says
	// them ("Does the comment package support ConTeXt?" is not answered
	// by booktabs' "in this context").
	var names []string
	for _, w := range content {
		if named[w] && !genericWords[w] {
			names = append(names, w)
		}
	}
	// The page that answers may rank below pages that share more of the
	// question's words without its focus: ten are read.
	for pi, p := range pages[:min(extractPages, len(pages))] {
		for ci, c := range p.Chunks[:min(3, len(p.Chunks))] {
			if len(names) > 0 && !aboutAny(names, p, c.Context+"\n"+c.Text) || len(strict) > 0 && !aboutAny(strict, p, "") {
				continue
			}
			if p.PageNumber == 1 && authorRe.MatchString(questionText) && aboutAny(names, p, "") {
				// Who wrote a document is on its cover, which need not
				// say "author": the first line there that names a person.
				if l := coverName(c.Text); l != "" {
					fits[pi] = true
					found = append(found, unit{l, l, l, pi, ci, 3*r.weight("") + p.Score, true})
					continue
				}
			}
			// A document's title is what each of its pages is about: "the
			// Gantry language" is answered by a page of "The Gantry
			// Modelling Language" that says neither word.
			about := p.Title + "\n" + c.Context + "\n" + c.Text
			if !answers(strong, soft, modifies, about) || !hasWords(exact, about) || slices.ContainsFunc(opts, func(o string) bool { return !hasOption(c.Text, o) }) {
				continue // "-k" names the option asked about: a passage without it does not answer
			}
			fits[pi] = true
			prev, itAsked, under := "", "", ""
			var before []string // the lines above it in its paragraph
			para := 0
			for _, u := range units(carriedText(c.Context, c.Text)) {
				if u.para != para {
					before, para = nil, u.para
				}
				if u.heading != under {
					// The sentence before, of another entry or section,
					// sets no scene: what "video" is for is not what
					// "utmp" above it says.
					prev, itAsked, under = "", "", u.heading
				}
				if strings.HasSuffix(u.text, "?") {
					// A question the document asks itself ("Can I make and
					// sell Debian CDs?") is not an answer: the passage
					// after it is, with its words.
					prev, itAsked = u.text, u.text
					continue
				}
				// A line is scored as it is quoted: with what it points
				// back to, what it introduces, the release that dates it.
				quote := u.quote(kind)
				toldAs := told(quote, u.next)
				extended := false
				if at := slices.IndexFunc(u.after, givesValue); valueAsked && at >= 0 && isProse(quote) && !givesValue(quote) && !strings.HasSuffix(u.after[at], "?") {
					// A line about the thing asked for (half the
					// question's words at least, more than the sentence
					// that gives the value, which has one) that gives no value of
					// the kind asked is read up to the sentence after it
					// that does: "The defaultcolor option defines the
					// default color for authors." and "The default color
					// is blue." So long as the two fit in one quote.
					rest := strings.Join(u.after[:at+1], " ")
					focused := slices.Concat(strong, soft)
					if lack, own := len(missing(focused, u.after[at])), len(missing(focused, quote)); lack < len(focused) && own < lack && 2*own <= len(focused) && len(quote)+1+len(rest) <= quoteChars {
						quote += " " + rest
						toldAs, extended = quote, true
					}
				}
				// The sentence before it and those above it in its
				// paragraph set its scene: "That data includes a
				// timestamp (in microseconds)" two sentences after "A
				// handy function is thread_indent" says thread_indent's.
				w := score(content, r, kind, quote+"\n"+itAsked, c.Context+"\n"+u.scene+"\n"+prev+"\n"+strings.Join(before, "\n"))
				if extended {
					w *= 0.8 // a line that answers with the one after it answers less than one that holds both
				}
				if len(missing(soft, about)) > 0 {
					w /= 2 // a passage without one of the question's words answers when none with all of them does
				}
				if asksFor != "" && !kind.fits(quote) && len(missing([]string{asksFor}, quote+"\n"+itAsked)) > 0 {
					w /= 2 // the thing asked for is neither named nor given in the line, only around it
				}
				// A line is about what it says, what the sentence before
				// it says and, a table's row, what its header says.
				own := strings.Join([]string{quote, itAsked, prev, strings.TrimPrefix(u.scene, u.heading)}, "\n")
				held := asked.held(quote) && asked.versionOf(quote, named) && near(strong, soft, own, c.Context+"\n"+u.heading+"\n"+p.Title)
				itAsked = ""
				if !aboutThing(things, head, quote+"\n"+strings.TrimPrefix(u.scene, u.heading), u.heading) {
					w = 0 // a line about another user, group or option of the many a manual lists (things.go)
				}
				need := named_
				if asksFor != "" && len(named_) > 0 && !kind.fits(quote) {
					need = append(slices.Clone(named_), asksFor) // the thing asked of it, or a value of its kind
				}
				if !near(need, nil, own+"\n"+strings.Join(before, "\n"), c.Context+"\n"+u.heading+"\n"+p.Title) {
					// The passage names what the question does, the line
					// and its paragraph not: it is about something else
					// the passage names (A1's impedance asked of IN1).
					w = 0
				}
				for _, o := range opts {
					if hasOption(u.text, o) {
						w += 2 * r.weight("") // the option asked about, in this very line
					}
				}
				if len(u.text) >= 8 && w > 0 {
					found = append(found, unit{u.text, quote, toldAs, pi, ci, w + 0.3*p.Score - 0.1*float64(pi), held})
				}
				prev = u.text
				before = append(before, u.text)
			}
		}
	}
	if len(found) == 0 {
		best := pages[0].Chunks[0]
		return insufficient(q, content, missing(append(strong, soft...), best.Context+"\n"+best.Text), &pages[0], documents)
	}
	if asked.any() {
		// A question that asks for a version, a date, a number, a person
		// or a default is answered by a line that holds one beside its
		// focus; passages about its focus that hold none do not say.
		if found = slices.DeleteFunc(found, func(u unit) bool { return !u.held }); len(found) == 0 {
			best := pages[0].Chunks[0]
			a := insufficient(q, content, missing(append(strong, soft...), best.Context+"\n"+best.Text), &pages[0], documents)
			a.Text += " No passage about it gives " + asked.what() + "."
			return a
		}
	}
	slices.SortStableFunc(found, func(a, b unit) int { return cmp.Compare(b.score, a.score) })
	var b strings.Builder
	quoted := map[string]bool{}
	for _, u := range found {
		if len(quoted) == quoteLines {
			break
		}
		if quoted[u.quote] {
			continue
		}
		quoted[u.quote] = true
		p := pages[u.page]
		fmt.Fprintf(&b, "- %q (%s, page %d)\n", clipAround(u.told, quoteChars, content, r, kind), p.DocumentName, p.PageNumber)
	}
	// The answer comes first; how it was found, last.
	b.WriteString("(Quoted from the room's documents, the passage that answers first; no model was used.)")
	// The answer's page is cited first, by the chunk that answers.
	first := pages[found[0].page]
	first.Chunks = append([]room.ChunkHit{first.Chunks[found[0].chunk]}, slices.Delete(slices.Clone(first.Chunks), found[0].chunk, found[0].chunk+1)...)
	cited := []PageHit{first}
	for pi, p := range pages {
		if fits[pi] && pi != found[0].page {
			cited = append(cited, p)
		}
	}
	cites := Citations(cited, content, r)
	// The answer's citation previews the passage that answers, which the
	// page view highlights.
	cites[0].TextPreview = clipWords(found[0].text, room.PreviewChars)
	return Answer{Text: strings.TrimSpace(b.String()), Type: room.AnswerGrounded, Citations: cites}
}

// isProse reports whether a line is a sentence of prose, not a line of
// code nor a table's row: a few words ending with a full stop.
func isProse(l string) bool {
	return strings.HasSuffix(l, ".") && len(strings.Fields(l)) >= 4
}

// lineNumberRe finds a listing's line number before a line of TeX code:
// "16 \lightrulewidth=.05em" states .05em, not 16.
var lineNumberRe = regexp.MustCompile(`^\d{1,4}\s+\\`)

// hasWords reports whether text has each of the words as a word, or a
// word with its stem.
func hasWords(words []string, text string) bool {
	if len(words) == 0 {
		return true
	}
	tw := textWords(text)
	stems := stemsOf(tw)
	for _, w := range words {
		if !slices.Contains(tw, w) && !stems[stem(w)] && !retrieve.Joined(w, tw) {
			return false
		}
	}
	return true
}

// authorRe finds a question about who wrote something: "Who wrote X?",
// "Who is the author of X?", not "Who does the author thank?".
var authorRe = regexp.MustCompile(`(?i)^\s*who\s+(wrote|authored|created|made)\b|^\s*who\s+(is|are|was|were)\s+the\s+(author|writer|creator)s?\b|\b(name|names) of the (author|writer)s?\b`)

// coverName returns the first of a cover's first lines that is a
// person's name alone ("Simon Fear", "Javier Bezos*", "Patrick R.
// Amestoy* ... Timothy A. Davis", names side by side) or before an
// address ("Andy Buckley, andy@...", "Frank Ch. Eigler <fche@...>"), ""
// when none is. The title above ("AMD User Guide") is no one's name.
func coverName(text string) string {
	for i, l := range strings.Split(text, "\n") {
		if i == 15 {
			break
		}
		l = strings.TrimSpace(l)
		// Authors side by side are apart by runs of spaces: the first.
		name := strings.TrimSpace(cellSplit.Split(l, 2)[0])
		// The name may come with an address: "Andy Buckley,
		// andy@insectnation.org", "Clemens Niederberger: http://...".
		if k := strings.IndexAny(name, ",:<(|"); k > 0 {
			name = strings.TrimSpace(name[:k])
		}
		name = strings.TrimRight(name, "*∗†‡ ")
		bare := initialRe.ReplaceAllString(name, "") // "R.", "Ch." are a name's
		if n := len(strings.Fields(name)); n >= 2 && n <= 6 && !strings.ContainsAny(bare, "0123456789.,:;@/") && hasName(name) && !titleWordRe.MatchString(name) {
			return l
		}
	}
	return ""
}

// initialRe finds an initial or a short abbreviation inside a name: "R."
// of "Patrick R. Amestoy", "Ch." of "Frank Ch. Eigler".
var initialRe = regexp.MustCompile(`\b\p{Lu}\p{Ll}?\.`)

// titleWordRe finds the words of a document's title, which a cover's
// first line may be: "AMD User Guide", "CFITSIO Quick Start Guide".
var titleWordRe = regexp.MustCompile(`(?i)\b(guide|manual|tutorial|handbook|reference|introduction|user'?s|documentation|overview|specification|howto|notes|contents|abstract|chapter|package|library)\b`)

// documentNounRe matches the word w said as a document's name: before
// "package", "manual", "guide" and the like.
func documentNounRe(w string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(w) + `\s+(package|class|manual|guide|documentation|docs|library|program|tool|module|bundle|handbook|reference|paper|report)\b`)
}

// aboutAny reports whether a passage of page p's document is about any
// of the documents the question names: it is one of them (by its file
// name or its title), or it says the name.
func aboutAny(names []string, p PageHit, text string) bool {
	marked := map[string]bool{}
	for _, w := range names {
		marked[w] = true
	}
	own := documentWords([]PageHit{{DocumentName: p.DocumentName, Title: p.Title}}, marked)
	for _, w := range names {
		if own[w] || sharedWords([]string{w}, text) > 0 {
			return true
		}
	}
	return false
}

var (
	bareYearRe = regexp.MustCompile(`^\(?(19|20)\d\d\)?$`)
	dateRe     = regexp.MustCompile(`(?i)\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{4}\b|\b\d{4}-\d\d-\d\d\b`)
)

// refRe finds what points elsewhere by number: a reference ("[1, 2]",
// "[6]"), a section, figure, table or page ("section 4.3", "Figure 9").
// It states no amount and no version.
var refRe = regexp.MustCompile(`\[\d{1,3}(\s*[,–-]\s*\d{1,3})*\]|(?i)\b(sections?|chapters?|figures?|fig\.|tables?|pages?|pp?\.|equations?|eq\.|appendix)\s+[A-Z]?\d+(\.\d+)*`)

// withoutRefs is a line without what points elsewhere by number.
func withoutRefs(l string) string { return refRe.ReplaceAllString(l, " ") }

// noteRe finds a footnote's mark after a word and its stop ("may be
// wrong.7"), which states no amount.
var noteRe = regexp.MustCompile(`(\pL[.,;:])[0-9]{1,2}[*†‡]?(\s|$)`)

// hasAmount reports whether a line states a number other than a year or
// a date: a title's "fiscal year ended December 31, 2023" and "opened on
// 6 November 2023" state no amount.
func hasAmount(l string) bool {
	l = dateRe.ReplaceAllString(lineNumberRe.ReplaceAllString(withoutRefs(l), `\`), " ")
	l = noteRe.ReplaceAllString(l, "$1$2")
	for _, m := range numberRe.FindAllString(l, -1) {
		if m = strings.TrimSpace(m); !bareYearRe.MatchString(m) && len(strings.Trim(m, "()$% ")) > 0 {
			if day := strings.Trim(m, "()$% ,"); len(day) <= 2 && strings.Contains(l, ", 20") {
				continue // the day of a date ("December 31, 2023")
			}
			return true
		}
	}
	return false
}

// Citations cites the best chunk of each of the pages (at most
// room.MaxCitations), in their order, with a preview centred on the words
// it shares with the question. Its relevance is the share of the
// question's words (not the generic ones), weighted by their rarity in
// the room, that the chunk holds: 1 when it has them all.
func Citations(pages []PageHit, content []string, r *Rarity) []room.Citation {
	var out []room.Citation
	var asked []string // the words that say what is asked, not how
	total := 0.0
	for _, w := range content {
		if !genericWords[w] && !r.absent(w) { // a word no passage has counts for none
			asked = append(asked, w)
			total += r.weight(w)
		}
	}
	for i, p := range pages[:min(room.MaxCitations, len(pages))] {
		c := p.Chunks[0]
		rel := 0.0
		for _, w := range asked {
			if sharedWords([]string{w}, c.Context+"\n"+c.Text) > 0 {
				rel += r.weight(w)
			}
		}
		if total > 0 {
			rel /= total
		}
		out = append(out, room.Citation{ChunkID: c.ID, DocumentID: p.DocumentID, DocumentName: p.DocumentName, PageNumber: p.PageNumber,
			RelevanceScore: float64(int(rel*10000)) / 10000, Rank: i + 1, TextPreview: Preview(c.Text, content), Verified: true})
	}
	return out
}

// Preview is about room.PreviewChars characters of text from the line
// that shares most of the words, cut at word boundaries.
func Preview(text string, words []string) string {
	lines := strings.Split(text, "\n")
	bestLine, best := 0, -1
	for i, l := range lines {
		if n := sharedWords(words, l); n > best {
			bestLine, best = i, n
		}
	}
	before := strings.Join(strings.Fields(strings.Join(lines[:bestLine], "\n")), " ")
	flat := strings.Join(strings.Fields(text), " ")
	start := min(len(before), len(flat))
	if start > 0 {
		start++ // the space before the line
	}
	start = min(start, len(flat))
	out := flat[start:]
	if len(out) > room.PreviewChars {
		cut := room.PreviewChars
		for cut > 0 && out[cut] != ' ' {
			cut--
		}
		if cut == 0 {
			cut = room.PreviewChars
		}
		out = strings.ToValidUTF8(out[:cut], "") + "…"
	}
	if start > 0 {
		out = "…" + out
	}
	return out
}

// clipWords cuts s to about n bytes at a word boundary, marking the cut.
func clipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut] != ' ' {
		cut--
	}
	if cut == 0 {
		cut = n
	}
	return strings.ToValidUTF8(s[:cut], "") + "…"
}

// quoteChars is about how long a quoted line may be.
const quoteChars = 300

// clipAround cuts a quote longer than n bytes to the n bytes, from one
// word to another, that hold most of the question's words (weighted by
// their rarity) and, better, the kind of answer it asks for: a long
// passage's fact may be at its end ("... the default is 0.5 em"), which
// a cut from its start would lose. The cuts are marked.
func clipAround(s string, n int, content []string, r *Rarity, k wants) string {
	if len(s) <= n {
		return s
	}
	starts := []int{0}
	for i := 1; i < len(s); i++ {
		if s[i-1] == ' ' && s[i] != ' ' {
			starts = append(starts, i)
		}
	}
	best, bestAt, bestEnd := -1.0, 0, 0
	for _, at := range starts {
		end := min(at+n, len(s))
		if end < len(s) {
			// end at a word's end
			if k := strings.LastIndexByte(s[at:end], ' '); k > 0 {
				end = at + k
			}
		}
		w := s[at:end]
		score := 0.0
		stems := stemsOf(retrieve.Words(w))
		for _, t := range content {
			if stems[stem(t)] {
				score += r.weight(t)
			}
		}
		if k.any() && k.fits(w) {
			score *= 1.5
		}
		if score > best {
			best, bestAt, bestEnd = score, at, end
		}
		if end == len(s) {
			break
		}
	}
	out := strings.ToValidUTF8(s[bestAt:bestEnd], "")
	if bestAt > 0 {
		out = "…" + out
	}
	if bestEnd < len(s) {
		out += "…"
	}
	return out
}

// questionWords are words that frame a question without saying what it is
// about.
var questionWords = map[string]bool{"give": true, "response": true, "question": true, "relying": true, "details": true,
	"shown": true, "answer": true, "based": true, "using": true, "provide": true, "calculate": true, "compute": true,
	"amount": true, "value": true, "numeric": true, "numerical": true, "total": true, "much": true, "many": true, "number": true, "usd": true, "millions": true,
	"billions": true, "thousands": true, "percent": true, "percentage": true, "round": true, "decimal": true, "places": true,
	"company": true, "fy": true, "year": true, "fiscal": true, "reported": true, "report": true, "according": true}

// contentWords are the question's terms that say what it is about: not
// its framing, not the issuer's name or the year (which pick the
// document, not the passage).
func contentWords(q question) []string {
	var out []string
	for _, t := range retrieve.Terms(q.text) {
		if questionWords[t] || yearRe.MatchString(t) || strings.HasPrefix(t, "fy") && len(t) <= 6 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// sharedWords counts the words that appear in text, by stem-free prefix
// match (revenue/revenues, expenditure/expenditures), a word also counting
// when the way filings put it does (capex: capital expenditures).
func sharedWords(words []string, text string) int {
	tw := textWords(text)
	var stems map[string]bool // of the words as American English spells them, when a word of the question is spelled otherwise
	has := func(w string) bool {
		if retrieve.Joined(w, tw) {
			return true // "CONFIG HZ", as a PDF may show CONFIG_HZ
		}
		prefix := w
		if len(prefix) > 5 {
			prefix = prefix[:len(prefix)-2]
		}
		if slices.ContainsFunc(tw, func(x string) bool { return strings.HasPrefix(x, prefix) }) {
			return true
		}
		if stems == nil {
			stems = stemsOf(tw)
		}
		return stems[stem(w)] // "coloured" in "colored"
	}
	n := 0
	for _, w := range words {
		if has(w) {
			n++
			continue
		}
		for _, alt := range financeAlternatives(w) {
			if !slices.ContainsFunc(alt, func(a string) bool { return !has(a) }) {
				n++
				break
			}
		}
	}
	return n
}

var amountRe = regexp.MustCompile(`(?i)\b(how much|how many|what (is|was|were|are) the (total|amount|value|number)|amount|ratio|margin|percentage|rate|revenue|income|expense|expenditure|cash|debt|eps|capex|usd|\$)`)

func asksForAmount(q string) bool { return amountRe.MatchString(q) }

// insufficient says the room does not answer the question: what was
// searched, and which of the question's words the closest passage lacks.
func insufficient(q question, content, lacking []string, closest *PageHit, documents int) Answer {
	var b strings.Builder
	fmt.Fprintf(&b, "Insufficient evidence: the room's %d documents do not say.", documents)
	if len(content) > 0 {
		fmt.Fprintf(&b, " Searched for: %s.", strings.Join(q.terms, ", "))
	} else {
		b.WriteString(" The question has no words to search for.")
	}
	switch {
	case closest != nil && len(lacking) > 0:
		fmt.Fprintf(&b, " The closest passage (%s, page %d) does not mention %s.", closest.DocumentName, closest.PageNumber, strings.Join(lacking, ", "))
	case len(lacking) > 0:
		fmt.Fprintf(&b, " No document in the room mentions %s.", strings.Join(lacking, ", "))
	}
	return Answer{Text: b.String(), Type: room.AnswerInsufficient}
}

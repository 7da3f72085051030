package ask

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
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

// Evidence thresholds: the best passage must hold at least minShared of
// the question's own content words, and at least minCoverage of them
// (whichever is less), or the room is taken not to say.
const (
	minShared   = 2
	minCoverage = 0.5
	// quoteLines is how many lines of evidence the answer quotes.
	quoteLines = 4
)

// numberRe finds what looks like an amount in a line, to rank the lines
// that state one first; it checks nothing (numbers a model writes are
// checked by agent/evidence, see check).
var numberRe = regexp.MustCompile(`\(?\$?\s?\d[\d,]*(\.\d+)?\)?%?`)

// Extract answers a question from the pages retrieval found: the lines
// of the best passages that share most of the question's words, numbers
// first when the question asks for an amount, each quoted with its
// document and page. When the best passage lacks the question's words it
// answers insufficient_evidence, saying what was searched and what is
// missing.
func Extract(questionText string, pages []PageHit, documents int) Answer {
	q := parseQuestion(questionText)
	content := contentWords(q)
	if len(pages) == 0 || len(content) == 0 {
		return insufficient(q, content, nil, documents)
	}
	type line struct {
		text   string
		page   PageHit
		chunk  room.ChunkHit
		shared int
		score  float64
	}
	wantNumber := asksForAmount(questionText)
	var lines []line
	for pi, p := range pages[:min(5, len(pages))] {
		for _, c := range p.Chunks[:min(3, len(p.Chunks))] {
			for _, l := range strings.Split(c.Text, "\n") {
				l = strings.Join(strings.Fields(l), " ")
				if len(l) < 8 {
					continue
				}
				shared := sharedWords(content, l)
				if shared == 0 {
					continue
				}
				s := float64(shared) + p.Score - 0.2*float64(pi)
				if wantNumber && hasAmount(l) {
					s += 1
				}
				lines = append(lines, line{l, p, c, shared, s})
			}
		}
	}
	best := pages[0].Chunks[0]
	bestShared := sharedWords(content, best.Context+"\n"+best.Text)
	need := min(minShared, len(content))
	if bestShared < need || float64(bestShared) < minCoverage*float64(len(content)) && bestShared < 3 {
		return insufficient(q, content, &pages[0], documents)
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].score > lines[j].score })
	var b strings.Builder
	fmt.Fprintf(&b, "From the room's documents (the passages most like the question; no model was used):\n")
	quoted := map[string]bool{}
	for _, l := range lines {
		if len(quoted) == quoteLines {
			break
		}
		if quoted[l.text] {
			continue
		}
		quoted[l.text] = true
		fmt.Fprintf(&b, "- %q (%s, page %d)\n", clip(l.text, 300), l.page.DocumentName, l.page.PageNumber)
	}
	if len(quoted) == 0 {
		return insufficient(q, content, &pages[0], documents)
	}
	return Answer{Text: strings.TrimSpace(b.String()), Type: room.AnswerGrounded, Citations: Citations(pages, content)}
}

var bareYearRe = regexp.MustCompile(`^\(?(19|20)\d\d\)?$`)

// hasAmount reports whether a line states a number other than a year: a
// title's "fiscal year ended December 31, 2023" is not an amount.
func hasAmount(l string) bool {
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

// Citations cites the best chunk of each of the top pages (at most
// room.MaxCitations), with its relevance scaled to the best page and a
// preview centred on the words it shares with the question.
func Citations(pages []PageHit, content []string) []room.Citation {
	var out []room.Citation
	if len(pages) == 0 {
		return nil
	}
	top := pages[0].Score
	for i, p := range pages[:min(room.MaxCitations, len(pages))] {
		c := p.Chunks[0]
		rel := 0.0
		if top > 0 {
			rel = p.Score / top
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

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// questionWords are words that frame a question without saying what it is
// about.
var questionWords = map[string]bool{"give": true, "response": true, "question": true, "relying": true, "details": true,
	"shown": true, "answer": true, "based": true, "using": true, "provide": true, "calculate": true, "compute": true,
	"amount": true, "value": true, "total": true, "much": true, "many": true, "number": true, "usd": true, "millions": true,
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
	tw := retrieve.Words(text)
	has := func(w string) bool {
		stem := w
		if len(stem) > 5 {
			stem = stem[:len(stem)-2]
		}
		return slices.ContainsFunc(tw, func(x string) bool { return strings.HasPrefix(x, stem) })
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
func insufficient(q question, content []string, closest *PageHit, documents int) Answer {
	var b strings.Builder
	fmt.Fprintf(&b, "Insufficient evidence: the room's %d documents do not say.", documents)
	if len(content) > 0 {
		fmt.Fprintf(&b, " Searched for: %s.", strings.Join(q.terms, ", "))
	} else {
		b.WriteString(" The question has no words to search for.")
	}
	if closest != nil && len(closest.Chunks) > 0 {
		text := closest.Chunks[0].Text
		var missing []string
		for _, w := range content {
			if sharedWords([]string{w}, text) == 0 {
				missing = append(missing, w)
			}
		}
		fmt.Fprintf(&b, " The closest passage (%s, page %d) does not mention %s.", closest.DocumentName, closest.PageNumber, strings.Join(missing, ", "))
	}
	return Answer{Text: b.String(), Type: room.AnswerInsufficient}
}

package research

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences cuts text into sentences at ., ! or ? followed by space and
// a capital, digit or quote, and at line breaks between paragraphs; a
// short abbreviation ("Inc.", "St.", "U.S.") does not end a sentence.
// Markdown headings and a web page's chrome (pageChrome) are left out;
// a table's cells are labelled lines (tableSentences).
func Sentences(text string) []string {
	var out []string
	// Headings name a document or a part of it; they make no claim.
	var kept []string
	for _, line := range strings.Split(tableSentences(text), "\n") {
		// A headline that states a figure ("# 41 miners trapped after
		// roof fall") is its document's first claim of it.
		if h := figureHeadline(line); h != "" {
			kept = append(kept, "", h, "")
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") || navigationLine(line) {
			line = ""
		}
		// A list's items are sentences of their own: "- Inpatient beds: 64";
		// so are a plain text's metadata lines ("Published: 30 June 2023",
		// "By Dan Reyes | October 22, 2024"), never joined to its title.
		if listItemRE.MatchString(line) || metaLineRE.MatchString(line) || figureLineRE.MatchString(line) || boldLabelRE.MatchString(line) {
			kept = append(kept, "", line, "")
			continue
		}
		kept = append(kept, line)
	}
	text = strings.Join(kept, "\n")
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		start := 0
		for i := 0; i < len(para); i++ {
			c := para[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			if i+2 >= len(para) || para[i+1] != ' ' {
				continue
			}
			next, _ := utf8.DecodeRuneInString(para[i+2:])
			if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '"' && next != '“' && next != '(' {
				continue
			}
			if c == '.' && abbreviation(para[start:i]) {
				continue
			}
			out = appendSentence(out, para[start:i+1])
			start = i + 2
		}
		out = appendSentence(out, para[start:])
	}
	return out
}

var metaLineRE = regexp.MustCompile(`(?i)^\s*(?:(?:date|dated|filed|published|posted|updated|issued|release date|last updated|from|to|subject|cc)\s*:|posted by\b|by [A-Z][\w.]*(?: [A-Z][\w.]*)*\s*[|,])`)

// figureLineRE is a line of a fact sheet that ends in its figure ("Whole
// museum visitors, 2024: 312,000"): a sentence of its own.
var figureLineRE = regexp.MustCompile(`^\s*\p{Lu}[^:.]{2,80}:\s+[$€£¥]?\d[\d,.]*(?:\s?(?:million|billion|m|bn|k|%))?\s*$`)

// boldLabelRE is a line that opens with a label, in bold or of a few
// words ("**Opening night:** Thursday 17 July 2025", "Units: About
// 84,000"): a fact sheet's, a notice's or a listing's line, a sentence
// of its own however many such lines follow.
var boldLabelRE = regexp.MustCompile(`^\s*(?:(?:\*\*|__)[^*_:]{1,60}(?::\*\*|:__|\*\*:|__:)|\p{Lu}[\p{L}'’()/-]*(?: [\p{L}'’()/-]+){0,4}:)\s*\S`)

var listItemRE = regexp.MustCompile(`^\s*(?:[-*•]|\d{1,2}[.)])\s+\S`)

func appendSentence(out []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" && !pageChrome.MatchString(s) {
		out = append(out, s)
	}
	return out
}

// pageChrome matches what a saved web page says around its text rather
// than in it: menus and edit links, cookie and licence notices, and the
// retrieval and archive lines of its references. None of it is a claim.
var pageChrome = regexp.MustCompile(`(?i)\b(?:jump to (?:content|navigation)|move to sidebar|main menu|edit links|view history|what links here|` +
	`privacy policy|terms of (?:use|service)|cookie (?:policy|statement|settings)|content is available under|this page was last edited|` +
	`archived from the original|retrieved (?:on )?(?:\d{1,2} )?(?:january|february|march|april|may|june|july|august|september|october|november|december)|` +
	`learn how and when to remove this|from wikipedia, the free encyclopedia|all rights reserved)\b`)

// navigationLine reports a saved page's navigation bar: a short line of
// short cells between bars ("Chapter 2. Leadership |  | Chapter 4. A
// Detailed History"), or of the links that move between pages.
func navigationLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > 200 {
		return false
	}
	if navWordsRE.MatchString(t) {
		return true
	}
	if !strings.Contains(t, "|") {
		return false
	}
	for _, cell := range strings.Split(t, "|") {
		if len(strings.Fields(cell)) > 8 {
			return false
		}
	}
	return true
}

var navWordsRE = regexp.MustCompile(`(?i)^(?:(?:prev(?:ious)?|next|up|home|contents|index|top|back)\s*[|·]?\s*)+$`)

var abbreviations = map[string]bool{"inc": true, "ltd": true, "co": true, "corp": true, "st": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"jr": true, "sr": true, "no": true, "vs": true, "etc": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
	"aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "fig": true, "approx": true, "u.s": true, "u.k": true}

// abbreviation reports whether s ends with an abbreviation or an initial.
func abbreviation(s string) bool {
	i := strings.LastIndexAny(s, " (")
	w := strings.ToLower(s[i+1:])
	if abbreviations[w] {
		return true
	}
	r := []rune(w)
	return len(r) == 1 && unicode.IsLetter(r[0])
}

// headerLine reports a line of document metadata ("Filed: May 19,
// 2025") rather than a claim.
func headerLine(s string) bool {
	if len(s) >= 60 {
		return false
	}
	// "Published 3 April 2024", "Eastmarch, 2 April 2024": a dateline.
	if m := dateLineRE.FindStringSubmatch(s); m != nil && wholeDate(m[1]) || strings.Contains(s, ",") && !strings.ContainsAny(s, "—–:") && !datelineOf(s, false).IsZero() {
		return true
	}
	if !headerRE.MatchString(s) {
		return false
	}
	// "Stops: 19" is a labelled value and "Erratum: the trial enrolled
	// 388 patients" a sentence, not the document's metadata.
	if _, labelled := labelClaims(s, nil); labelled {
		return false
	}
	i := strings.IndexByte(s, ':')
	return metaLabels[strings.ToLower(strings.TrimSpace(s[:i]))] || len(Values(s[i+1:])) == 0
}

// wholeDate reports a text that is one full date and nothing else.
func wholeDate(s string) bool {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	vs := Values(s)
	return len(vs) == 1 && vs[0].Kind == KindDate && vs[0].Start == 0 && vs[0].End == len(s) && !dateOf(s).IsZero()
}

var headerRE = regexp.MustCompile(`^[A-Z][\w ]{0,20}:\s`)

// claim is a value found for a target in one sentence.
type claim struct {
	Value    Value
	Sentence string
	// Score grows with how plainly the sentence states the target:
	// its keywords, the subject, and the value's nearness to them.
	Score float64
}

// find returns the value the sentence s gives for t, if any.
func (t Target) find(s string, subject []string) (claim, bool) {
	lower := strings.ToLower(s)
	var kwAt []int
	kwHits := 0
	for _, k := range append([]string{t.Attribute}, t.Keywords...) {
		if k == "" {
			continue
		}
		found := false
		// "employees" finds "employed", "established" "establishment".
		if st := stem(strings.ToLower(k)); len(st) >= 5 && !strings.Contains(k, " ") {
			k = st
		}
		for from := 0; from < len(lower); {
			i := wordIndex(lower[from:], k)
			if i < 0 {
				break
			}
			kwAt = append(kwAt, from+i)
			from += i + len(k)
			found = true
		}
		if found {
			kwHits++
		}
	}
	subj := 0
	for _, w := range subject {
		if wordIndex(lower, w) >= 0 {
			subj++
		}
	}
	var cands []Value
	switch t.Kind {
	case KindDate:
		for _, v := range Values(s) {
			if v.Kind == KindDate {
				cands = append(cands, v)
			}
		}
		if t.Attribute == "die" || t.Attribute == "died" || t.Attribute == "death" {
			if v, ok := lifeDate(s, cands, 1); ok {
				return claim{Value: v, Sentence: s, Score: 2 + float64(subj)}, true
			}
		}
		if t.Attribute == "born" || t.Attribute == "birth" {
			if v, ok := lifeDate(s, cands, 0); ok {
				return claim{Value: v, Sentence: s, Score: 2 + float64(subj)}, true
			}
		}
	case KindMoney, KindNumber:
		for _, v := range Values(s) {
			// "139.8 people per square mile" is a rate, not a count.
			if t.Kind == KindNumber && rateRE.MatchString(s[v.End:]) && !strings.Contains(t.Attribute, "rate") {
				continue
			}
			if v.Kind == KindMoney && t.Kind == KindMoney || v.Kind == KindNumber {
				if t.Kind == KindMoney && v.Kind == KindNumber && !strings.Contains(strings.ToLower(v.Text), "million") && !strings.Contains(strings.ToLower(v.Text), "billion") {
					continue
				}
				cands = append(cands, v)
			}
		}
	case KindTerm:
		cands = termValues(s, lower, t)
	case KindPerson, KindPlace:
		cands = nameValues(s, t, subject)
	}
	if len(cands) == 0 || (kwHits == 0 && (subj == 0 || t.Strict)) {
		return claim{}, false
	}
	best, bestD := cands[0], 1<<30
	for _, v := range cands {
		for _, at := range kwAt {
			d := v.Start - at
			if d < 0 {
				d = -d * 2 // values after the keyword read more naturally
			}
			if d < bestD {
				best, bestD = v, d
			}
		}
	}
	// A date or amount far from the attribute's word is about something
	// else ("Our priority for 2025 is resolving the lawsuit").
	if len(kwAt) > 0 && bestD > 80 && t.Kind != KindTerm && t.Kind != KindPerson && t.Kind != KindPlace {
		return claim{}, false
	}
	if t.Kind == KindDate && !aboutSubject(s, best, kwHits, subject) {
		return claim{}, false
	}
	score := float64(kwHits)*1.5 + float64(subj)*0.5
	if bestD < 60 {
		score += 1
	}
	if kwHits == 0 && t.Kind != KindTerm {
		score -= 0.25
	}
	return claim{Value: best, Sentence: s, Score: score}, score > 0
}

// aboutSubject reports whether a date a sentence gives may answer a
// question about the subject: when the sentence reads as a dated event
// (Claims), it names the event asked (kwHits) or dates the subject by
// name ("Debian 1.3 Bo (June 5th, 1997)"), and what it dates is not
// another numbered thing ("1.1 Buzz released June 1996" for Debian 1.3).
func aboutSubject(s string, v Value, kwHits int, subject []string) bool {
	c, ok := claimIn(s, v, subject)
	if !ok {
		return true
	}
	if kwHits == 0 && c.Head != "date" {
		return false
	}
	subj := map[string]bool{}
	for _, w := range subject {
		subj[w] = true
	}
	for _, m := range c.Mods {
		// "1.3" is the subject's when it writes 1 and 3 so.
		if m != "" && m[0] >= '0' && m[0] <= '9' && !subj[m] && !strings.Contains(" "+strings.Join(subject, " ")+" ", " "+strings.Join(words(m), " ")+" ") {
			return false
		}
	}
	return true
}

// lifeDate reads "(5 January 1884 – 11 November 1959)" or "born 5 June
// 1900": which 0 is birth, 1 death.
func lifeDate(s string, dates []Value, which int) (Value, bool) {
	lower := strings.ToLower(s)
	word := "born"
	if which == 1 {
		word = "died"
	}
	if i := wordIndex(lower, word); i >= 0 {
		for _, v := range dates {
			if v.Start > i && v.Start-i < 40 {
				return v, true
			}
		}
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return Value{}, false
	}
	var in []Value
	for _, v := range dates {
		if v.Start > open && v.Start-open < 60 {
			in = append(in, v)
		}
	}
	if len(in) > which {
		return in[which], true
	}
	return Value{}, false
}

// wordIndex returns the byte index of w in lower as a whole word (or a
// word's start, for "establish" in "established"), -1 if absent.
func wordIndex(lower, w string) int {
	w = strings.ToLower(w)
	from := 0
	for {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		before := i == 0 || !isWordByte(lower[i-1])
		if before {
			return i
		}
		from = i + len(w)
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

var (
	rateRE       = regexp.MustCompile(`^\s*(?:people\s+|inhabitants\s+)?(?:per\s+|/\s*|a\s+)(?:square|sq|km|mi|mile|head|capita|year|cent)`)
	languageRE   = regexp.MustCompile(`\b([A-Z][a-z]+)(?:-language|\s+language)\b`)
	definitionRE = regexp.MustCompile(`(?i)\b(?:is|was|are|were|refers to|stands for|means)\s+(?:an?|the)?\s*((?:[\w-]+\s+){0,3}[\w-]+)`)
)

// termValues finds vocabulary words (longest first) or, without a
// vocabulary, a language or the noun phrase of a definition.
func termValues(s, lower string, t Target) []Value {
	var out []Value
	if t.Attribute == "language" {
		for _, m := range languageRE.FindAllStringSubmatchIndex(s, -1) {
			out = append(out, Value{Kind: KindTerm, Text: s[m[0]:m[1]], Start: m[0], End: m[1]})
		}
		return out
	}
	if len(t.Vocab) == 0 && t.Acronym != "" {
		if v, ok := expansion(s, t.Acronym); ok {
			return []Value{v}
		}
	}
	if len(t.Vocab) == 0 {
		for _, m := range definitionRE.FindAllStringSubmatchIndex(s, 2) {
			out = append(out, Value{Kind: KindTerm, Text: s[m[2]:m[3]], Start: m[2], End: m[3]})
		}
		return out
	}
	taken := make([]bool, len(lower)+1)
	for _, v := range byLength(t.Vocab) {
		lv := strings.ToLower(v)
		from := 0
		for {
			i := wordIndex(lower[from:], lv)
			if i < 0 {
				break
			}
			i += from
			end := i + len(lv)
			from = end
			if end < len(lower) && isWordByte(lower[end]) && !strings.HasPrefix(lower[end:], "er") && !strings.HasPrefix(lower[end:], "s") {
				continue
			}
			if taken[i] {
				continue
			}
			for j := i; j < end; j++ {
				taken[j] = true
			}
			out = append(out, Value{Kind: KindTerm, Text: s[i:end], Start: i, End: end})
		}
	}
	sortValues(out)
	return out
}

// expansion finds the words whose initials spell acronym in s
// ("vibrational circular dichroism (VCD)").
func expansion(s, acronym string) (Value, bool) {
	ws := wordRE.FindAllStringIndex(s, -1)
	n := len(acronym)
	for i := 0; i+n <= len(ws); i++ {
		ok := true
		for k := 0; k < n && ok; k++ {
			ok = strings.EqualFold(s[ws[i+k][0]:ws[i+k][0]+1], acronym[k:k+1])
		}
		if ok && !strings.EqualFold(s[ws[i][0]:ws[i][1]], acronym) {
			return Value{Kind: KindTerm, Text: s[ws[i][0]:ws[i+n-1][1]], Start: ws[i][0], End: ws[i+n-1][1]}, true
		}
	}
	return Value{}, false
}

func byLength(v []string) []string {
	out := append([]string(nil), v...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// nameValues returns the capitalised names of s that are not the
// subject's own words.
func nameValues(s string, t Target, subject []string) []Value {
	subj := map[string]bool{}
	for _, w := range subject {
		subj[w] = true
	}
	var out []Value
	from := 0
	for _, n := range NamesIn(s, false) {
		i := strings.Index(s[from:], n)
		if i < 0 {
			continue
		}
		i += from
		from = i + len(n)
		own := 0
		ws := words(n)
		for _, w := range ws {
			if subj[w] {
				own++
			}
		}
		if own == len(ws) || own >= len(subject) || len(ws) == 0 || monthName(n) {
			continue
		}
		if t.Kind == KindPerson && len(ws) < 2 && !strings.Contains(strings.ToLower(s[max(0, i-4):i]), "by") {
			continue
		}
		text := n
		if t.Kind == KindPlace && i+len(n)+2 < len(s) && s[i+len(n)] == ',' {
			// "Belleville, Illinois"
			if next := NamesIn(s[i+len(n)+1:], false); len(next) > 0 && strings.HasPrefix(strings.TrimSpace(s[i+len(n)+1:]), next[0]) {
				text = n + ", " + next[0]
			}
		}
		out = append(out, Value{Kind: t.Kind, Text: text, Start: i, End: i + len(text)})
	}
	return out
}

// monthName reports a name that is a date ("February 3", "May",
// "Sept. 9"); a word that only starts as a month does ("Marlin",
// "Decker", "Junction") is no date.
func monthName(n string) bool {
	f := strings.Fields(strings.ToLower(n))
	if len(f) == 0 {
		return false
	}
	w := strings.TrimRight(f[0], ".,")
	full := false
	for _, m := range strings.Split(monthNames, "|")[:12] {
		full = full || strings.HasPrefix(m, w)
	}
	return len(w) >= 3 && full && (len(f) == 1 || unicode.IsDigit(rune(f[1][0])))
}

// figureHeadline is a document's title, without its marks, when it
// states a figure in a clause: a level-one heading that holds a number
// and a lower-case word ("# 41 miners trapped after roof fall at
// Blackwater Colliery", "# Blackwater owner fined £2.5m"); "" for any
// other line, and for titles in title case ("# Annual Review 2025").
func figureHeadline(line string) string {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "# ") {
		return ""
	}
	t = strings.Trim(strings.TrimSpace(t[2:]), "*_")
	if !strings.ContainsAny(t, "0123456789") {
		return ""
	}
	lower := 0
	for _, w := range strings.Fields(t) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) && len(w) > 3 && !retrieveStop(w) {
			lower++
		}
	}
	if lower == 0 || len(strings.Fields(t)) < 4 {
		return ""
	}
	// "Amendment No. 1 to the Annual Report on Form 10-K/A for fiscal
	// year 2024" names a document: no count or amount of its own.
	if !slices.ContainsFunc(Claims(t, nil), func(c Claim) bool { return c.Value.Kind == KindNumber || c.Value.Kind == KindMoney }) {
		return ""
	}
	return t
}

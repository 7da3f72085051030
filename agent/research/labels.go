package research

// Labelled values: a line of a list or a fact sheet that names its value
// before a colon ("Stops: 19", "- Inpatient beds: 64", "Date of
// discovery: 22/08/2024", "Permitted capacity: 18,450 spectators"), and a
// table's cells, which Sentences writes the same way. The label is the
// attribute: its last noun the head (or, for a date, the event it
// names), its other words the qualifiers.

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

var splitYearRE = regexp.MustCompile(`\b((?:19|20)\d\d)[/-](\d\d)\b`)

// splitYear is the year a split year ends in ("2024/25": 2025), "" when
// its parts are no two years in a row ("Decree 2025/31" is a number).
func splitYear(m []string) string {
	first, _ := strconv.Atoi(m[1])
	last, _ := strconv.Atoi(m[2])
	if (first+1)%100 != last {
		return ""
	}
	return m[1][:2] + m[2]
}

var labelRE = regexp.MustCompile(`^(?:[-*•]\s*)?(?:\*\*|__)?([\p{L}][\p{L}\p{N} '’/()&-]{0,48}?)\s*(?::(?:\*\*|__)?|\s[—–-])\s+(\S.*)$`)

// metaLabels name a document's own metadata, never a claim.
var metaLabels = set("date", "dated", "filed", "published", "posted", "updated", "issued", "release date", "filing date", "by", "author", "source",
	"written by", "from", "to", "subject", "cc", "re", "tags", "category", "location", "place", "time")

// metaLabel reports a label of the document's own metadata: one of
// metaLabels, or ending in one ("Extract published") unless that is a
// date whose other words name something other than the document ("Recall
// date", "Commercial operation date"; not "Issue date").
func metaLabel(label string) bool {
	f := strings.Fields(label)
	if metaLabels[label] || len(f) == 0 {
		return metaLabels[label]
	}
	// "Opening ceremony date and time": a day's label, as its date's.
	if len(f) > 3 && f[len(f)-1] == "time" && f[len(f)-2] == "and" {
		f = f[:len(f)-2]
	}
	if last := f[len(f)-1]; last != "date" && last != "dated" {
		return metaLabels[last]
	}
	for _, w := range f[:len(f)-1] {
		if !metaLabels[w] && !documentWords[w] {
			return false
		}
	}
	return true
}

// documentWords name a document or its versions: "Issue date",
// "Publication date" are when it came out.
var documentWords = set("issue", "publication", "report", "filing", "release", "print", "revision", "document", "letter", "press", "posting",
	"update", "last", "effective", "version", "edition", "review", "submission", "notice", "entry", "record")

// labelModality are the words of a label, or a table's column, that say a
// value is planned, expected or estimated rather than done.
var labelModality = map[string]Modality{
	"planned": Planned, "plan": Planned, "target": Planned, "targeted": Planned, "budgeted": Planned, "proposed": Planned, "scheduled": Planned,
	"expected": Expected, "forecast": Expected, "forecasted": Expected, "projected": Expected, "projection": Expected,
	"estimated": Estimated, "estimate": Estimated,
}

// countLabels name a count without saying of what: the value's noun does.
var countLabels = set("quantity", "number", "count", "total", "units", "amount", "figure", "size", "no")

// labelClaims reads the claims of a labelled line; ok is false when s is
// not one whose value starts right after the label.
func labelClaims(s string, subject []string) ([]Claim, bool) {
	if cs, ok := timelineClaims(s, subject); ok {
		return cs, true
	}
	m := labelRE.FindStringSubmatchIndex(s)
	if m == nil {
		return nil, false
	}
	// "**Date of declaration:** Friday 9 May 2025" is a label in bold;
	// "**Tamarak Ridge ships first concentrate — Sept. 2**" a headline.
	if t := strings.TrimLeft(s, "-• "); strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__") {
		if !strings.Contains(s[m[3]:m[4]], ":") {
			return nil, false
		}
	}
	label := strings.ToLower(strings.TrimSpace(s[m[2]:m[3]]))
	if metaLabel(label) {
		return nil, false // "Extract published: 30 June 2023"
	}
	if dateline(s[m[2]:m[3]], s[m[4]:]) {
		return nil, true // "*The Northern Times — 3 May 2024*"
	}
	rest := m[4]
	// "Date of declaration: Friday 9 May 2025": past the weekday.
	if w := weekdayRE.FindString(s[rest:]); w != "" {
		rest += len(w)
	}
	vals := Values(s[rest:])
	if len(vals) == 0 || vals[0].Start != 0 {
		return nil, false
	}
	v := vals[0]
	v.Start += rest
	v.End += rest
	period := ""
	var ws []string
	subj := set(subject...)
	inParens := false
	// "Employees at year end": the noun before a preposition is the
	// head; what follows qualifies it, unless it says when.
	var tail []string
	inTail := false
	// "The Hollow Pines Lowland tickets sold", a ranked table's row: a
	// name that holds the subject's words is the subject.
	lr := &reader{s: s[m[2]:m[3]], toks: tokenize(s[m[2]:m[3]]), subject: subj}
	lr.markNames()
	for k, t := range lr.toks {
		if lr.named[k] {
			continue
		}
		if !inParens && len(ws) > 0 && prepositions[t.lower] && t.lower != "of" && t.lower != "per" {
			inTail = true
			continue
		}
		if inTail && !inParens && t.text != "(" {
			if !timeWords[t.lower] && !determiners[t.lower] && !prepositions[t.lower] && !subj[t.bare()] && t.lower != "end" && t.lower != "start" &&
				!t.number() && !monthName(t.text) &&
				!(yearRE.MatchString(t.text) && len(t.text) == 4) {
				tail = append(tail, t.lower)
			} else if yearRE.MatchString(t.text) && len(t.text) == 4 {
				period = t.text
			}
			continue
		}
		switch {
		case yearRE.MatchString(t.text) && len(t.text) == 4:
			period = t.text
		case t.text == "(" || t.text == ")":
			inParens = t.text == "("
		case statWords[t.lower]:
			// "Beds (average open)": an average is another measure, even in a
			// note; it qualifies the noun.
			ws = append([]string{t.lower}, ws...)
		case inParens || determiners[t.lower] || subj[t.bare()] || prepositions[t.lower] && t.lower != "of" || t.lower == "and":
			// "Schools supported (cumulative)": a note, not the noun.
		default:
			ws = append(ws, t.lower)
		}
	}
	if len(tail) > 0 && len(ws) > 0 {
		ws = append(tail, ws...)
	}
	// "Estimated cost", "Planned opening", a table's "Plan" column: how
	// the source holds the value, not what it is of.
	modality := Reported
	if len(ws) > 1 {
		for i, w := range ws {
			if m, ok := labelModality[w]; ok {
				modality = m
				ws = slices.Delete(ws, i, i+1)
				break
			}
		}
	}
	// "Schools supported": the noun, not the participle after it; "Date
	// refloated" names its event by it.
	act := ""
	// "Construction cost" is a cost, though "cost" is a verb too.
	for len(ws) > 1 && v.Kind != KindDate && verbLike(token{text: ws[len(ws)-1], lower: ws[len(ws)-1]}) && eventNouns[ws[len(ws)-1]] == "" &&
		!(v.Kind == KindMoney && moneyNoun(ws[len(ws)-1])) {
		// "Containers recovered", "Containers lost overboard": what was
		// done to what it counts.
		if p := ws[len(ws)-1]; pastForm(token{text: p, lower: p}) && !stating[p] && counters[p] == "" && modalityWords[p] == "" {
			act = p
		}
		ws = ws[:len(ws)-1]
	}
	// "PellBike subsidy (2024/25)": a split year is its last.
	if m := splitYearRE.FindStringSubmatch(s[m[2]:m[3]]); m != nil && splitYear(m) != "" {
		period = splitYear(m)
		ws = slices.DeleteFunc(ws, func(w string) bool { return w == m[2] })
	}
	if len(ws) == 0 {
		return nil, false
	}
	// "Revenue: $12.4 million (2024)": a year after the value is its period.
	if period == "" && v.Kind != KindDate {
		for _, y := range vals[1:] {
			if y.Kind == KindDate && len(y.Text) == 4 {
				period = y.Text
				break
			}
		}
	}
	c := Claim{Value: v, Text: v.Text, Period: period, Modality: modality, Attribute: strings.TrimSpace(strings.Join(ws, " ")), owned: true, Act: act}
	switch v.Kind {
	case KindDate:
		c.Unit = "date"
		// "Opening ceremony date and time": the time says no event.
		if len(ws) > 1 {
			ws = slices.DeleteFunc(ws, func(w string) bool { return w == "time" || w == "times" })
		}
		c.Head, c.Mods = labelEvent(ws)
		// "Completion: 2025-10-11 (public opening)": the note names the
		// event the day is of.
		if m := noteRE.FindStringSubmatch(s[v.End:]); m != nil {
			var nws []string
			for _, t := range tokenize(m[1]) {
				if !determiners[t.lower] {
					nws = append(nws, t.lower)
				}
			}
			if h, mods := labelEvent(nws); eventHeads[h] {
				c.Head, c.Mods = h, slices.DeleteFunc(mods, func(w string) bool { return w == "public" || w == "official" || w == "formal" })
				if c.Mods == nil {
					c.Mods = []string{}
				}
			}
		}
		// "Campaign period: 3 March 2025 – 11 April 2025": the span's
		// start and end.
		if len(vals) > 1 && vals[1].Kind == KindDate && rangeRE.MatchString(s[v.End:rest+vals[1].Start]) {
			mods := slices.DeleteFunc(slices.Clone(ws), func(w string) bool { return spanLabels[w] || w == "date" || w == "dates" })
			if mods == nil {
				mods = []string{}
			}
			end := vals[1]
			end.Start += rest
			end.End += rest
			c.Head, c.Mods = "start", mods
			e := c
			e.Value, e.Text, e.Head, e.Mods = end, end.Text, "end", slices.Clone(mods)
			return []Claim{c, e}, true
		}
	case KindMoney:
		c.Unit = currency(v.Text)
		c.Head, c.Mods = labelNoun(ws)
	case KindNumber:
		lower := strings.ToLower(v.Text)
		if strings.Contains(lower, "%") || strings.Contains(lower, "percent") || strings.Contains(lower, "per cent") {
			c.Unit = "%"
			c.Head, c.Mods = labelNoun(ws)
			break
		}
		r := &reader{s: s, toks: tokenize(s), subject: subj}
		r.markNames()
		unit, mods, end := r.unitNoun(v)
		if unit != "" {
			// "Quantity: 1,327 coins": the value's noun is what is counted.
			c.Text = strings.TrimSpace(s[v.Start:end])
			c.Unit = singular(unit)
			for _, w := range ws {
				if !countLabels[w] && w != "of" && !slices.Contains(mods, singular(w)) {
					mods = append(mods, singular(w))
				}
			}
			if len(ws) == 1 && countLabels[ws[0]] {
				mods = nil
			}
			c.Head, c.Mods = c.Unit, mods
			break
		}
		if measureWords := strings.Fields(lower); len(measureWords) > 1 {
			c.Unit = measureWords[len(measureWords)-1] // "151 MW"
			c.Head, c.Mods = labelNoun(ws)
			break
		}
		c.Head, c.Mods = labelNoun(ws)
		if staffNouns[c.Head] {
			c.Head = "employee"
		}
		c.Unit = c.Head
	}
	if c.Head == "" {
		return nil, false
	}
	if c.Mods == nil {
		c.Mods = []string{}
	}
	return []Claim{c}, true
}

// listingDateRE is a listing's line that gives its entry's day:
// "Date: 10/2/2025, 7pm".
var listingDateRE = regexp.MustCompile(`^(?:\*\*|__)?(?:Date|When|Date and time)(?:\*\*|__)?:(?:\*\*|__)?\s+(\S.*)$`)

// boldTitleRE is an entry's title in bold on a line of its own, to its
// first colon or dash: "**Gala Reopening: Aida — Aldmoor Grand Opera
// House**".
var boldTitleRE = regexp.MustCompile(`^(?:\*\*|__)([^*_:—–]{3,60}?)\s*(?:[:—–][^*_]*)?(?:\*\*|__)$`)

// listingDate is line s of a listing as the claim it makes: an entry's
// "Date:" after its title in bold ("**Gala Reopening: Aida**", "Date:
// 10/2/2025") dates what the title names, "Gala Reopening date:
// 10/2/2025", not the document. Any other line is returned unchanged.
func listingDate(prev, s string) string {
	m := listingDateRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return s
	}
	t := boldTitleRE.FindStringSubmatch(strings.TrimSpace(prev))
	if t == nil || !slices.ContainsFunc(tokenize(t[1]), func(k token) bool {
		w := singular(k.lower)
		return eventNounWords[w] || eventNouns[w] != "" || eventHeads[w]
	}) {
		return s
	}
	return t[1] + " date: " + m[1]
}

// rangeRE joins the two days of a span: "3 March – 11 April", "from
// 17 October to 2 November".
var rangeRE = regexp.MustCompile(`(?i)^\s*(?:[-–—]|to|until|till|through|thru)\s*(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s*)?$`)

// noteRE is a note in parentheses right after a label's value.
var noteRE = regexp.MustCompile(`^\s*\(([^()]{3,40})\)\s*\.?\s*$`)

// spanLabels are the words of a label that only say it gives a span.
var spanLabels = set("period", "result", "duration", "run", "term", "span", "window", "dates", "timing")

// labelNoun is a label's head noun, its last word before an "of" ("Date
// of discovery" aside), and its other words as qualifiers.
func labelNoun(ws []string) (string, []string) {
	if i := slices.Index(ws, "of"); i > 0 {
		// "Number of stops": what the "of" names is the thing.
		if countLabels[ws[i-1]] && i+1 < len(ws) {
			ws = ws[i+1:]
		} else {
			ws = append(append([]string(nil), ws[:i]...), ws[i+1:]...)
		}
	}
	var mods []string
	for _, w := range ws[:len(ws)-1] {
		if w != "of" && !noise[w] && !countLabels[w] {
			mods = append(mods, singular(w))
		}
	}
	return singular(ws[len(ws)-1]), mods
}

// labelEvent is the event a date's label names ("Opening", "First
// patients admitted", "Date of discovery", "Commercial operation date")
// and its other words.
func labelEvent(ws []string) (string, []string) {
	var rest []string
	head := ""
	for _, w := range ws {
		switch {
		case w == "date" || w == "of" || w == "on" || noise[w]:
		// "Opening night", "Launch day": the event's own time.
		case eventTimes[w] && slices.ContainsFunc(ws, func(x string) bool { return eventNouns[x] != "" || eventHeads[x] }):
		case head == "" && eventNouns[w] != "":
			head = eventNouns[w]
		case head == "" && eventHeads[w]:
			head = w
		default:
			rest = append(rest, singular(w))
		}
	}
	if slices.Contains(ws, "first") && slices.ContainsFunc(ws, func(w string) bool { return servedNouns[w] }) {
		return "opening", []string{} // "First patients admitted"
	}
	if head == "" && len(rest) > 0 {
		head = eventHead(rest[len(rest)-1])
		rest = rest[:len(rest)-1]
	}
	return head, rest
}

var timelineRE = regexp.MustCompile(`^(?:[-*•]\s*)?(.+?)\s*(?::|–|—|\s-)\s+(\S.*?)\.?$`)

// timelineClaims reads a timeline's line, a date before what happened
// on it ("- 16 September 2023: first light", "2012 — construction
// starts"): the event its words name.
func timelineClaims(s string, subject []string) ([]Claim, bool) {
	m := timelineRE.FindStringSubmatchIndex(s)
	if m == nil {
		return nil, false
	}
	vals := Values(s[m[2]:m[3]])
	if len(vals) != 1 || vals[0].Kind != KindDate || vals[0].Start != 0 || vals[0].End != m[3]-m[2] {
		return nil, false
	}
	v := vals[0]
	v.Start += m[2]
	v.End += m[2]
	subj := set(subject...)
	var ws []string
	for _, t := range tokenize(s[m[4]:m[5]]) {
		if !determiners[t.lower] && !prepositions[t.lower] && !subj[t.bare()] && t.lower != "and" && !t.number() {
			ws = append(ws, t.lower)
		}
	}
	if len(ws) == 0 {
		return nil, false
	}
	head, mods := labelEvent(ws)
	if head == "" {
		return nil, false
	}
	if mods == nil {
		mods = []string{}
	}
	return []Claim{{Value: v, Text: v.Text, Unit: "date", Head: head, Mods: mods, Modality: Reported, Attribute: strings.Join(ws, " "), owned: true}}, true
}

// dateline reports a masthead's line, a name and the day it came out
// ("The Northern Times — 3 May 2024"): the document's date, no claim.
func dateline(label, rest string) bool {
	f := strings.Fields(strings.Trim(label, "*_ "))
	if len(f) < 2 {
		return false
	}
	for _, w := range f {
		if r := []rune(w); !unicode.IsUpper(r[0]) && !connectors[strings.ToLower(w)] {
			return false
		}
	}
	rest = strings.Trim(strings.TrimSpace(rest), "*_.")
	rest = strings.TrimPrefix(rest, weekdayRE.FindString(rest))
	vals := Values(rest)
	return len(vals) == 1 && vals[0].Kind == KindDate && vals[0].Start == 0 && vals[0].End == len(rest)
}

// weekdayRE is a weekday before a date: "Friday ", "Fri, ".
var weekdayRE = regexp.MustCompile(`^(?i:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+`)

// eventTimes are the words for the part of a day an event's label may
// add to it ("Opening night").
var eventTimes = set("night", "day", "evening", "morning", "afternoon", "weekend")

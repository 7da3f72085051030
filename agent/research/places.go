package research

// Where a document puts the subject: a namesake is told by the place a
// document gives the name ("Harlan Creek Foods Ltd of Guelph, Ontario",
// "the Whitfield Library in Granby, Vermont", "the Coventry motorsport
// engineering firm") when the other documents write that place nowhere,
// not by how it writes the name: "Halcyon Orbital Inc" and "Halcyon
// Orbital" are one company until a document says it is elsewhere.

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// participles end what an apposition says a name is ("a 1931 steam
// trawler built at Selby"): the kind is the noun before them.
var participles = set("based", "founded", "run", "owned", "built", "made", "known", "named", "sold", "held", "set", "launched", "opened")

// placeWord reports a capitalised word that may name a place: not the
// subject's, not a month, not a common word, not an acronym or a
// hyphened word ("Nasdaq-listed"), which say what rather than where.
func placeWord(w string, subject []string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	r := []rune(w)
	if len(r) < 3 || !unicode.IsUpper(r[0]) || strings.ToUpper(w) == w || strings.ContainsAny(w, "-0123456789") {
		return false
	}
	lower := strings.ToLower(w)
	return !slices.Contains(subject, lower) && !monthName(w) && !weekdays[lower] && !retrieveStop(lower) && !legalWords[lower]
}

var weekdays = set("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

// placeAfterRE reads "in Granby, Vermont", "of Nelson, New Zealand",
// "based in Perth" right after a name: up to two runs of capitalised
// words.
var placeAfterRE = regexp.MustCompile(`^(?:\s+(?:[A-Z]{2,6}|Pty|Ltd|Inc|Co|Corp|Limited|GmbH|plc)\.?){0,2},?\s+(?:(?:is\s+)?based\s+in|in|of|from|near)\s+((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,2})(?:,\s+((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,2}))?`)

// townBeforeRE ends what may come before a town's name: "(", "in ",
// "of ".
var townBeforeRE = regexp.MustCompile(`(?:\(|\b(?:in|of|at|near|from)\s+)$`)

// regionAfterRE is the region after a town: ", Nova Scotia)", ", Nova
// Scotia, uses", ", Oregon — no relation".
var regionAfterRE = regexp.MustCompile(`^,\s+((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,2})(?:[),.;:]|\s+[—–-]|$)`)

// placeFieldRE reads a fact sheet's "Headquarters: Leicester, United
// Kingdom" or "Based in: Perth".
var placeFieldRE = regexp.MustCompile(`(?mi)^[\s*-]*(?:headquarters|head office|hq|based in|location|located in)\s*:\s*(?-i:((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,2})(?:,\s+((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,2}))?)`)

// writtenName is the longest start of the subject's name, of two words
// at least, that text writes ("Kestle Moor" in "Kestle Moor is a walkers'
// café" for the Kestle Moor Half Marathon), or its first and last words
// ("Ashcombe Library" for the Ashcombe Public Library); the whole name
// when text writes it or neither.
func writtenName(text string, subject []string) []string {
	var forms [][]string
	for k := len(subject); k >= 2; k-- {
		forms = append(forms, subject[:k])
	}
	if len(subject) > 2 {
		// "Ashcombe Library" for the Ashcombe Public Library.
		forms = append(forms, []string{subject[0], subject[len(subject)-1]})
	}
	for _, f := range forms {
		re, err := regexp.Compile(`(?i)\b` + namePattern(f) + `\b`)
		if err == nil && re.MatchString(text) {
			return f
		}
	}
	return subject
}

// attachedPlaces are the places a document gives the subject's name
// (or the start of it that it writes): a town and its region after it
// ("in Granby, Vermont", "of Nelson, New Zealand"), any place in an
// apposition ("the Oban ferry operator", "the community library in
// Ashcombe, Somerset") or after a copula ("Kestle Moor is a walkers' café
// in Hebden Bridge"), or a fact sheet's headquarters; each a lower-case
// phrase.
func attachedPlaces(text string, subject []string) []string {
	subject = writtenName(text, subject)
	var out []string
	add := func(p string) {
		var kept []string
		for _, w := range strings.Fields(p) {
			if placeWord(w, subject) {
				kept = append(kept, strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
			}
		}
		if len(kept) > 0 {
			if l := strings.ToLower(strings.Join(kept, " ")); !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	_, places := apposition(text, subject)
	for _, p := range places {
		add(p)
	}
	// "Headquarters: Leicester, United Kingdom" in a fact sheet.
	for _, m := range placeFieldRE.FindAllStringSubmatch(text, -1) {
		add(m[1])
		add(m[2])
	}
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\b`)
	if err != nil {
		return out
	}
	for _, m := range re.FindAllStringIndex(text, -1) {
		// A town alone ("near Pooley Bridge") may be where the subject
		// is though no other document writes it; a town and its region
		// is what a document says to tell a name from another's.
		if pm := placeAfterRE.FindStringSubmatch(text[m[1]:]); pm != nil && pm[2] != "" {
			add(pm[1])
			add(pm[2])
		}
	}
	// "*The Kestrelford Chronicle (Kestrelford, Nova Scotia)*": a name
	// that is a town's, with its region in parentheses, as a masthead
	// places its paper ("another KestrelCycle in Kestrelford, Nova
	// Scotia" may be an aside about another town).
	for _, r := range townRegions(text, subject, true) {
		add(r)
	}
	return out
}

// asideOnly reports a place a text writes only as the region of a town
// of the subject's name ("another CityRide in Millbrook, Ontario"): an
// aside about a namesake, not where the text is.
func asideOnly(text, place string, subject []string) bool {
	n := 0
	for _, r := range townRegions(text, writtenName(text, subject), false) {
		if strings.EqualFold(r, place) {
			n++
		}
	}
	return n > 0 && n >= strings.Count(strings.ToLower(text), place)
}

// townRegions are the regions text writes after the subject's name, or
// the start of it ("(Brackenridge, Oregon)" for the Brackenridge Seed
// Bank), as a town's: "(Kestrelford, Nova Scotia)", and unless
// parenthesized alone, "in Kestrelford, Nova Scotia".
func townRegions(text string, subject []string, parenthesized bool) []string {
	if len(subject) == 0 {
		return nil
	}
	var starts []string
	for k := len(subject); k >= 1; k-- {
		starts = append(starts, namePattern(subject[:k]))
	}
	re, err := regexp.Compile(`(?i)\b(?:` + strings.Join(starts, "|") + `)\b`)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range re.FindAllStringIndex(text, -1) {
		before := townBeforeRE.FindString(text[:m[0]])
		if before == "(" || before != "" && !parenthesized {
			if pm := regionAfterRE.FindStringSubmatch(text[m[1]:]); pm != nil {
				out = append(out, pm[1])
			}
		}
	}
	return out
}

// placedApart is the place a document gives the subject that marks it
// another entity: a place the question does not name and that no other
// document writes, unless it places the name there too, while the
// document shares no name (a person, a street) with two other documents
// that do not; "" when the document puts the name where the others do,
// or nowhere.
func placedApart(d string, q question, texts map[string]string, order []string) string {
	places := attachedPlaces(texts[d], q.SubjectWords)
	if len(places) == 0 {
		return ""
	}
	question := strings.ToLower(q.Text)
	foreign := ""
	for _, p := range places {
		if wordIndex(question, p) >= 0 {
			return ""
		}
		if foreign != "" {
			continue
		}
		alone := true
		for _, o := range order {
			// "another KestrelCycle in Kestrelford, Nova Scotia": an
			// aside that places the other one.
			if o != d && wordIndex(strings.ToLower(texts[o]), p) >= 0 && namesWhole(texts[o], q.SubjectWords) && !slices.Contains(attachedPlaces(texts[o], q.SubjectWords), p) &&
				!slices.ContainsFunc(townRegions(texts[o], writtenName(texts[o], q.SubjectWords), false), func(r string) bool { return strings.EqualFold(r, p) }) {
				alone = false
				break
			}
		}
		if alone {
			foreign = p
		}
	}
	if foreign == "" {
		return ""
	}
	// "chief executive Dana Whitlock", whom two other documents name: the
	// subject's own document, wherever it says the subject is.
	own := namesOf(texts[d], q.SubjectWords)
	shared := 0
	for _, o := range order {
		if o == d || slices.Contains(attachedPlaces(texts[o], q.SubjectWords), foreign) {
			continue
		}
		for n := range namesOf(texts[o], q.SubjectWords) {
			if own[n] && wordIndex(n, foreign) < 0 {
				shared++
				break
			}
		}
	}
	if shared >= 2 {
		return ""
	}
	return foreign
}

// titleWords capitalises each word of a lower-case place ("new zealand").
func titleWords(p string) string {
	f := strings.Fields(p)
	for i, w := range f {
		r := []rune(w)
		f[i] = string(unicode.ToUpper(r[0])) + string(r[1:])
	}
	return strings.Join(f, " ")
}

// commonest is the name most of docs write (a legal form of the
// subject's, "Kestrel Dynamics Inc"), or def when none writes one.
func commonest(docs []string, written map[string]string, def string) string {
	counts := map[string]int{}
	best := ""
	for _, d := range docs {
		if n := written[d]; n != "" {
			counts[n]++
			if best == "" || counts[n] > counts[best] {
				best = n
			}
		}
	}
	return orDefault(best, def)
}

// namesOnlyOf is the group whose documents name someone (a person, a
// company, a place of two words) that d names too, when d names no one
// the other documents of the bare name write: "managing director Sienna
// Whitlam" of the Perth namesake's profile, in a release of hers that
// writes the bare name. nil when there is none, or more than one.
func namesOnlyOf(d string, groups []*entityGroup, others []string, texts map[string]string, subject []string) *entityGroup {
	own := namesOf(texts[d], subject)
	elsewhere := map[string]bool{}
	for _, o := range others {
		for n := range namesOf(texts[o], subject) {
			elsewhere[n] = true
		}
	}
	for n := range own {
		if elsewhere[n] {
			return nil // it names whom the others name too
		}
	}
	var found *entityGroup
	for _, g := range groups {
		for _, o := range g.docs {
			shared := false
			for n := range namesOf(texts[o], subject) {
				if own[n] && !elsewhere[n] {
					shared = true
					break
				}
			}
			if shared {
				if found != nil && found != g {
					return nil
				}
				found = g
				break
			}
		}
	}
	return found
}

// kindBefore is the noun a document writes right before the subject's
// name to say what it is, at the first mention that has one ("another
// Aldermoor sank ... The steam trawler Aldermoor") -> trawler; "" when it writes none there, or a word that
// says how rather than what ("the troubled Aldermoor", "the new").
func kindBefore(text string, subject []string) string {
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\b`)
	if err != nil {
		return ""
	}
	for _, m := range re.FindAllStringIndex(text, -1) {
		if k := kindAt(text, m[0]); k != "" {
			return k
		}
	}
	return ""
}

// kindAt is the kind noun written right before the name that starts at
// i, with an article within four words before it ("the 1931 steam
// trawler"); "" when there is none.
func kindAt(text string, i int) string {
	before := strings.Fields(text[max(0, i-80):i])
	if len(before) < 2 || strings.HasSuffix(text[:i], "\n") {
		return ""
	}
	kind := before[len(before)-1]
	if !kindNoun(kind) {
		return ""
	}
	for j := len(before) - 2; j >= max(0, len(before)-5); j-- {
		w := strings.ToLower(before[j])
		if w == "the" || w == "a" || w == "an" {
			return kind
		}
		if strings.ContainsAny(before[j], ",.;:()") {
			break
		}
	}
	return ""
}

// kindNoun reports a lower-case word that may name what a thing is: not
// an adjective or participle ("troubled", "leading", "newly"), not a
// function word, not a generic "company".
func kindNoun(w string) bool {
	if len(w) < 3 || strings.ToLower(w) != w || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return false
	}
	for _, suf := range []string{"ed", "ing", "ly", "ful", "ous", "ive", "al", "ic", "est"} {
		if strings.HasSuffix(w, suf) {
			return false
		}
	}
	return !determiners[w] && !prepositions[w] && !generic[w] && !retrieveStop(w) && !notKinds[w]
}

var notKinds = set("outside", "inside", "beyond", "across", "within", "without", "around", "besides", "like", "unlike", "new", "old", "former", "popular", "local", "famous", "beloved", "same", "whole", "entire", "main", "big", "small", "large", "great", "first", "last", "next", "latest", "own", "other", "said", "such", "city", "town", "village", "year", "years")

// subjectKinds are what the question and the subject's documents say
// the subject is: the question's noun after the name ("the Eastline
// tram") and the kinds its documents give it before or after the name.
func subjectKinds(q question, main *entityGroup, texts map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, k := range q.KindWords {
		out[k] = true
	}
	for _, d := range main.docs {
		if k := appositiveKind(texts[d], writtenName(texts[d], q.SubjectWords)); k != "" {
			out[k] = true
		}
		// "Tarrow Valley Air Ambulance is an independent charity" in a
		// release its trust signs: what the bare name is said to be.
		if k, _ := apposition(texts[d], q.SubjectWords); k != "" {
			out[k] = true
		}
	}
	return out
}

// kindOfName is the kind a group told by what it is carries in its name
// ("Aldermoor (trawler)" -> trawler).
func kindOfName(name string) string {
	i, j := strings.LastIndexByte(name, '('), strings.LastIndexByte(name, ')')
	if i < 0 || j < i {
		return ""
	}
	return name[i+1 : j]
}

// leadNameRE is a name of capitalised words with an apposition after
// it: "PellBike Brewing, the craft brewery".
var leadNameRE = regexp.MustCompile(`\b((?:[A-Z][\p{L}'’]+)(?:\s+[A-Z][\p{L}'’]+){0,3}),\s+(?:the|a|an)\s`)

// aliasNamesake is the entity a document that never writes the subject's
// name describes, when its name starts with a word the other documents
// write for the subject ("PellBike" of "PellBike Brewing") and it places
// that entity where they do not: a namesake of the subject's other name.
// It returns the entity's name and place, or "".
func aliasNamesake(d string, q question, texts map[string]string, order []string) (string, string) {
	lower := strings.ToLower(texts[d])
	if len(q.SubjectWords) == 0 || wordIndex(lower, q.SubjectWords[0]) >= 0 {
		return "", ""
	}
	for _, m := range leadNameRE.FindAllStringSubmatch(texts[d], 3) {
		name := words(m[1])
		if len(name) < 2 {
			continue
		}
		written := false
		for _, o := range order {
			if o != d && strings.Contains(texts[o], strings.Fields(m[1])[0]) {
				written = true
				break
			}
		}
		if !written {
			continue
		}
		alias := q
		alias.SubjectWords = name
		if p := placedApart(d, alias, texts, order); p != "" {
			return m[1], p
		}
	}
	return "", ""
}

// valuesOnlyOf is the group whose documents state two of d's days or
// sums of money that no other document of the bare name states: an FAQ
// that says "We opened on 2 June 2025" and "The fit-out cost £1.4
// million" is the coworking space's whose news says both. nil when
// there is none, or more than one.
func valuesOnlyOf(d string, groups []*entityGroup, others []string, texts map[string]string) *entityGroup {
	own := exactValues(texts[d])
	for _, o := range others {
		for v := range exactValues(texts[o]) {
			delete(own, v)
		}
	}
	if len(own) < 2 {
		return nil
	}
	var found *entityGroup
	for _, g := range groups {
		shared := map[string]bool{}
		for _, o := range g.docs {
			for v := range exactValues(texts[o]) {
				if own[v] {
					shared[v] = true
				}
			}
		}
		if len(shared) >= 2 {
			if found != nil {
				return nil
			}
			found = g
		}
	}
	return found
}

// exactValues are the days (with their year) and sums of money a text
// states, normalised.
func exactValues(text string) map[string]bool {
	out := map[string]bool{}
	for _, v := range Values(text) {
		switch {
		case v.Kind == KindDate && len(v.Day) == 10:
			out["day "+v.Day] = true
		case v.Kind == KindMoney:
			out["money "+strings.ToLower(v.Text)] = true
		}
	}
	return out
}

// writesAny reports whether text writes one of places, or places is
// empty.
func writesAny(text string, places []string) bool {
	if len(places) == 0 {
		return true
	}
	lower := strings.ToLower(text)
	for _, p := range places {
		if wordIndex(lower, p) >= 0 {
			return true
		}
	}
	return false
}

// questionPlaceRE reads the place a question puts its subject in, after
// the subject's name and before the clause ends: "the Bright Start
// vaccination campaign in Varenne", "the 2024 Cedar Hollow Fire in
// Tamarack County".
var questionPlaceRE = regexp.MustCompile(`^[^:?;]*?\bin\s+((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+){0,2})`)

// otherPlaceRE reads a place a document names: "in Port Aubin", "City of
// Port Aubin", "near Clyde".
var otherPlaceRE = regexp.MustCompile(`\b(?:in|of|at|near|from)\s+((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+){0,2})`)

// questionPlace is the place the question puts the subject in, lower
// case; "" when it names none.
func questionPlace(q question) string {
	if q.Subject == "" {
		return ""
	}
	i := strings.Index(q.Text, q.Subject)
	if i < 0 {
		return ""
	}
	m := questionPlaceRE.FindStringSubmatch(q.Text[i+len(q.Subject):])
	if m == nil {
		return strings.ToLower(q.Owner) // "Corvena's Saltmarsh Point plant"
	}
	var kept []string
	for _, w := range strings.Fields(m[1]) {
		if placeWord(w, q.SubjectWords) {
			kept = append(kept, w)
		}
	}
	return strings.ToLower(strings.Join(kept, " "))
}

// placedElsewhere is the place a document names, in place of the one the
// question puts the subject in, when every other document that names
// the subject (three at least) writes the question's place and this one
// does not, while it names another place at least twice that few other
// documents write (fewer than half of them): the City of Port Aubin's reading programme "Bright
// Start" beside the Bright Start vaccination campaign in Varenne. ""
// otherwise.
func placedElsewhere(d string, q question, texts map[string]string, order []string) string {
	asked := questionPlace(q)
	if asked == "" || wordIndex(strings.ToLower(texts[d]), asked) >= 0 {
		return ""
	}
	others := 0
	for _, o := range order {
		if o == d || !namesWhole(texts[o], q.SubjectWords) {
			continue
		}
		if wordIndex(strings.ToLower(texts[o]), asked) < 0 {
			return ""
		}
		others++
	}
	if others < 3 {
		return ""
	}
	counts := map[string]int{}
	best := ""
	for _, m := range otherPlaceRE.FindAllStringSubmatch(texts[d], -1) {
		var kept []string
		for _, w := range strings.Fields(m[1]) {
			if !placeWord(w, q.SubjectWords) {
				break
			}
			kept = append(kept, strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
		}
		if len(kept) == 0 {
			continue
		}
		p := strings.ToLower(strings.Join(kept, " "))
		counts[p]++
		if counts[p] > counts[best] {
			best = p
		}
	}
	if counts[best] < 2 {
		return ""
	}
	// Another document may compare the subject with it ("twice the size
	// of the Port Denholm plant"); most do not write it.
	writers := 0
	for _, o := range order {
		if o != d && wordIndex(strings.ToLower(texts[o]), best) >= 0 {
			writers++
		}
	}
	if 2*writers >= len(order)-1 {
		return ""
	}
	return best
}

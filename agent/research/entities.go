package research

// Entities resolved by context: in a briefing, documents that name the
// subject are grouped by the name they give it ("Veridane Therapeutics",
// "Veridane Games", the bare "Veridane") and by what surrounds it (their
// words: place, industry, people, co-mentioned names); the group the
// question is about is the subject, the other named groups are namesakes,
// whose claims the report keeps in a note of their own.

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
)

// entities is what resolution found: the subject's name, each namesake's
// and each entity's kind ("organisation", or "" when unknown).
type entities struct {
	main      string
	namesakes map[string]bool
	kinds     map[string]string
	// told are the namesakes told apart by what or where their
	// documents say they are, not by their names alone.
	told map[string]bool
}

// toldApart reports a namesake its documents say is another kind of
// thing or elsewhere.
func (e *entities) toldApart(name string) bool { return e != nil && e.told[name] }

// namesake reports whether name is another entity than the subject's.
func (e *entities) namesake(name string) bool { return e != nil && e.namesakes[name] }

// sameKind reports whether two entities are named entities of the same
// kind, the only ones an ambiguity is between.
func (e *entities) sameKind(a, b string) bool {
	if e == nil {
		return true
	}
	ka, oka := e.kinds[a]
	kb, okb := e.kinds[b]
	return oka && okb && ka == kb && ka != ""
}

// entityGroup is the documents that name one entity.
type entityGroup struct {
	name string
	docs []string
}

// resolveEntities groups the documents of a briefing by the entity they
// describe, sets each fact's Entity to it and returns what it found; nil
// when every document names the subject the same way.
func resolveEntities(res *rs.Result, q question) *entities {
	texts, order := docTexts(res.Sources)
	docWords := docVectors(res.Sources)
	named := map[string]*entityGroup{}
	var groups []*entityGroup
	bare := &entityGroup{name: q.Subject}
	kindGroups := map[*entityGroup]bool{}
	// placed are the groups of documents that put the name somewhere the
	// others do not, with that place.
	placed := map[*entityGroup]string{}
	written := map[string]string{}
	corpusYear := commonestYear(texts, order)
	for _, d := range order {
		n := nameIn(texts[d], q.SubjectWords)
		kind := ""
		// "Tallis Software Inc." is the subject's name with its legal
		// form: the company is told apart by where a document puts it,
		// not by how it writes the name.
		if legalFormOnly(n, q.SubjectWords) {
			written[d], n = n, ""
		}
		// "Marlowe Creek Herald": the paper a letter is written to, of
		// the subject's town, is no entity of the subject's name; nor is
		// "Brannock County Health Department" the county's body.
		if f := strings.Fields(n); len(f) > 1 && outletRE.MatchString(f[len(f)-1]) && !strings.Contains(strings.ToLower(n), strings.Join(q.SubjectWords, " ")) ||
			len(f) > len(q.SubjectWords) && organs[strings.ToLower(f[len(f)-1])] && strings.HasPrefix(strings.ToLower(n), strings.Join(q.SubjectWords, " ")+" ") {
			n = ""
		}
		// "Brennock West", a suburb of Brennock: a part of the subject's
		// place is no entity of its own name.
		quarter := quarterOf(n, q.SubjectWords)
		if quarter {
			n = ""
		}
		if n == "" && !quarter {
			// The bare name, said to be something: "Eastline, the Oban
			// ferry operator".
			if kind = appositiveKind(texts[d], writtenName(texts[d], q.SubjectWords)); kind != "" {
				n = q.Subject + " (" + kind + ")"
			}
		}
		place := ""
		// "The 1998 Cedar Hollow Fire" beside the question's 2024 one,
		// "the Ashby Memorial Pool, 1962–2021" beside the new Ashby
		// Community Pool.
		if n == "" || kind == "" && !strings.Contains(strings.ToLower(n), strings.Join(q.SubjectWords, " ")) {
			if era := otherEra(texts[d], q, corpusYear); era != "" {
				n, place = eraName(q.Subject, era), era
			}
		}
		if n == "" {
			// "Bright Start", the City of Port Aubin's reading programme,
			// beside the Bright Start campaign the question puts in
			// Varenne.
			if place = placedElsewhere(d, q, texts, order); place != "" {
				n = q.Subject + " (" + titleWords(place) + ")"
			}
		}
		if n == "" {
			if place = placedApart(d, q, texts, order); place != "" {
				n = orDefault(written[d], q.Subject+" ("+titleWords(place)+")")
			}
		}
		if n == "" {
			if g := partialNamesake(d, q, texts, order); g != nil {
				n = g.name // "The Harbourlight, the 1968 passenger ferry"
			}
		}
		if n == "" {
			// "PellBike Brewing, the craft brewery in Hobart, Tasmania" in
			// a document that never names Pellworth, whose bike-share
			// scheme is PellBike.
			if other, p := aliasNamesake(d, q, texts, order); other != "" {
				n, place = other, p
			}
		}
		if n == "" {
			bare.docs = append(bare.docs, d)
			continue
		}
		// "Corrow Valley Water Authority" in a release headed "Corrow
		// Reservoir Dam rated Fair", or "Corrow Heights" in a newsletter
		// on "the dam up the hill": the subject's owner or neighbours,
		// in a document about the subject.
		if n != "" && kind == "" && place == "" && !strings.Contains(strings.ToLower(n), strings.ToLower(strings.Join(q.SubjectWords, " "))) && docOfSubject(texts[d], q.SubjectWords) {
			n = ""
		}
		if n == "" {
			bare.docs = append(bare.docs, d)
			continue
		}
		// A name that does not hold the subject's whole name may be the
		// subject's by another name: it is told apart as a kind is.
		if !strings.Contains(strings.ToLower(n), strings.ToLower(strings.Join(q.SubjectWords, " "))) && kind == "" {
			kind = "partial"
		}
		key := strings.ToLower(n)
		if named[key] == nil {
			named[key] = &entityGroup{name: n}
			groups = append(groups, named[key])
		}
		named[key].docs = append(named[key].docs, d)
		if place != "" {
			placed[named[key]] = place
		}
		if kind != "" {
			kindGroups[named[key]] = true
		}
	}
	if len(groups) == 0 {
		return nil
	}
	groups = mergeAlike(groups, docWords)
	bare.name = commonest(bare.docs, written, q.Subject)
	// A document that writes the bare name belongs to the named entity
	// it is most like, or to the subject.
	var rest []string
	for _, d := range bare.docs {
		best, bestSim := (*entityGroup)(nil), relatedDocSimilarity
		// ... and more like it than like the other documents of the bare
		// name, or naming whom only that entity's documents name.
		others := slices.DeleteFunc(slices.Clone(bare.docs), func(o string) bool { return o == d })
		bestSim = max(bestSim, meanCosine(d, others, docWords))
		for _, g := range groups {
			// A namesake told by its place takes only documents that
			// write its place: words alike are the subject's too.
			if p, ok := placed[g]; ok && (wordIndex(strings.ToLower(texts[d]), p) < 0 || asideOnly(texts[d], p, q.SubjectWords)) {
				continue
			}
			if kindGroups[g] && !writesAny(texts[d], attachedPlaces(texts[g.docs[0]], q.SubjectWords)) {
				continue // "the community library in Ashcombe, Somerset"
			}
			if s := meanCosine(d, g.docs, docWords); s >= bestSim {
				best, bestSim = g, s
			}
		}
		if best == nil {
			best = valuesOnlyOf(d, groups, others, texts)
		}
		if best == nil {
			// ... when its words are plainly more like that entity's too.
			if best = namesOnlyOf(d, groups, others, texts, q.SubjectWords); best != nil {
				if s := meanCosine(d, best.docs, docWords); s < relatedDocSimilarity/3 || s < 2*meanCosine(d, others, docWords) {
					best = nil
				}
			}
		} else if namesOnlyOf(d, []*entityGroup{{docs: others}}, best.docs, texts, q.SubjectWords) != nil &&
			namesOnlyOf(d, []*entityGroup{best}, others, texts, q.SubjectWords) == nil {
			// A fact sheet like the namesake's profile that names the
			// chief executive the subject's news names is the subject's.
			best = nil
		}
		if best == nil {
			rest = append(rest, d)
			continue
		}
		best.docs = append(best.docs, d)
	}
	bare.docs = rest
	main := bare
	// A group told apart by its place is the subject only when nothing
	// else is: the others are what the documents are about.
	var candidates []*entityGroup
	for _, g := range groups {
		if _, ok := placed[g]; !ok {
			candidates = append(candidates, g)
		}
	}
	if len(candidates) == 0 && len(bare.docs) == 0 {
		candidates = groups
	}
	if len(candidates) > 0 && (len(bare.docs) == 0 || questionScore(q, bare, texts) < bestScore(q, candidates, texts)) {
		main = mostAsked(q, candidates, texts)
		main.docs = append(main.docs, bare.docs...)
	} else {
		groups = append(groups, bare)
	}
	// An entity told only by what a document says it is joins the
	// subject when its documents share a name or their words with the
	// subject's: "Eastline, the new tram line" is the Eastline.
	// When the question or the subject's documents say what it is ("the
	// container ship Aldermoor"), words alike do not make another kind
	// of thing ("the steam trawler Aldermoor") the subject.
	kinds := subjectKinds(q, main, texts)
	for _, g := range groups {
		// "The Aldermoor, a feeder vessel," in a release that names what
		// the subject's documents name: the subject is a vessel too.
		if g != main && kindGroups[g] && sharedNames(g, main, texts, q.SubjectWords) >= 2 {
			kinds[kindOfName(g.name)] = true
		}
	}
	kept := groups[:0]
	for _, g := range groups {
		alike := groupCosine(g, main, docWords) >= relatedDocSimilarity/2 || kindWritten(g, main, texts)
		// Names in common: one is enough for a thing of the subject's
		// kind; another kind of thing may name where the subject is
		// ("long before the modern ship came to grief at Skelby Point,
		// another Aldermoor sank"), so it takes two.
		need := 1
		if len(kinds) > 0 && !kinds[kindOfName(g.name)] {
			alike, need = false, 2
		}
		shared := sharedNames(g, main, texts, q.SubjectWords)
		// A document that names what two of the subject's documents
		// name is the subject's, wherever else it says it is registered.
		apart := apartByPlace(g.docs[0], main, texts, q.SubjectWords) && shared < 2
		// "The Corrow Valley Water Authority's engineers found 37
		// deficiencies": a document that states the subject's own
		// figures is about the subject, whatever else it names.
		if g != main && kindGroups[g] && !apart && (shared >= need || alike) {
			main.docs = append(main.docs, g.docs...)
			continue
		}
		kept = append(kept, g)
	}
	groups = kept

	e := &entities{main: main.name, namesakes: map[string]bool{}, kinds: map[string]string{}, told: map[string]bool{}}
	of := map[string]string{}
	for _, g := range groups {
		e.kinds[g.name] = kindOf(g, texts)
		if g != main {
			e.namesakes[g.name] = true
			if _, ok := placed[g]; ok || kindGroups[g] {
				e.told[g.name] = true
			}
		}
		for _, d := range g.docs {
			of[d] = g.name
		}
	}
	for i := range res.Facts {
		if n, ok := of[docURL(res.Facts[i].SourceURL)]; ok {
			res.Facts[i].Entity = n
		}
	}
	return e
}

// quarters are the words that name a part of a place after its name:
// "Brennock West", "Kelso Central".
var quarters = set("north", "south", "east", "west", "central", "upper", "lower", "northeast", "northwest", "southeast", "southwest")

// quarterOf reports a name that is the subject's and a word of a part
// of a place ("Brennock West" for Brennock).
func quarterOf(name string, subject []string) bool {
	f := strings.Fields(strings.ToLower(name))
	return len(f) == len(subject)+1 && slices.Equal(f[:len(subject)], subject) && quarters[f[len(subject)]]
}

// organs are the last words of the names of a place's or a body's own
// offices: "Health Department", "City Council".
var organs = set("department", "council", "authority", "office", "board", "committee", "agency", "commission", "directorate", "ministry", "trust")

// partialNamesake is the entity a document describes that writes only
// the first word of the subject's name and says it is something else,
// somewhere no other document writes: "The Harbourlight, the 1968
// passenger ferry that served Kelso Island," beside the Harbourlight
// Festival. nil when the document says no such thing.
func partialNamesake(d string, q question, texts map[string]string, order []string) *entityGroup {
	if len(q.SubjectWords) < 2 {
		return nil
	}
	first := q.SubjectWords[0]
	kind, places := apposition(texts[d], []string{first})
	if kind == "" || slices.Contains(q.SubjectWords, kind) || slices.Contains(q.KindWords, kind) {
		return nil
	}
	for _, p := range places {
		written := false
		for _, o := range order {
			if o != d && wordIndex(strings.ToLower(texts[o]), p) >= 0 {
				written = true
				break
			}
		}
		if !written {
			name := strings.ToUpper(first[:1]) + first[1:]
			return &entityGroup{name: name + " (" + kind + ")"}
		}
	}
	return nil
}

// docTexts joins each document's passages, in the order first found.
func docTexts(sources []rs.SearchResult) (map[string]string, []string) {
	texts := map[string]string{}
	var order []string
	for _, s := range sources {
		d := docURL(s.URL)
		if _, ok := texts[d]; !ok {
			order = append(order, d)
		}
		if !strings.Contains(texts[d], s.Content) {
			texts[d] += "\n\n" + s.Content
		}
	}
	return texts, order
}

// nameIn is the name a document gives the subject: how it qualifies it
// (entityLabel: "Kestrel Dynamics Ltd", "Araki Station (Chiba)"), or the
// capitalised words it writes after it more often than the bare name
// ("Veridane Games", "Eastline Ferries Ltd"); "" for the bare name.
func nameIn(text string, subject []string) string {
	if len(subject) == 0 {
		return ""
	}
	if l := entityLabel(text, subject); l != "" {
		// "BOSTON -- Veridane": a dateline, not a name.
		if f := strings.Fields(l); len(f) > 1 && (strings.ToUpper(f[0]) == f[0] && len(f[0]) > 3 || f[1] == "--" || f[1] == "—") {
			return ""
		}
		return l
	}
	var body []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			body = append(body, l)
		}
	}
	text = strings.Join(body, "\n")
	forms := map[string]int{}
	bareCount := 0
	first := ""
	pattern := `(?i)\b` + namePattern(subject) + `\b`
	re, err := regexp.Compile(pattern)
	if err != nil {
		return ""
	}
	found := re.FindAllStringIndex(text, -1)
	for _, m := range found {
		ext := extension(text[m[1]:])
		if ext == "" {
			bareCount++
			continue
		}
		form := text[m[0]:m[1]] + " " + ext
		if forms[form] == 0 && first == "" {
			first = form
		}
		forms[form]++
	}
	if len(found) == 0 && len(subject) > 1 {
		// "Vega Ridge" for the Vega Ridge Observatory is the subject by
		// a shorter name, not another entity.
		n := partialName(text, subject)
		if slices.ContainsFunc(words(n), func(w string) bool { return !slices.Contains(subject, w) }) {
			return n
		}
		return ""
	}
	if first == "" || forms[first] < bareCount {
		// "Harlowe Valley Township" three times and the Harlowe Valley
		// Regional Council once, to say they are not one.
		if n, c := divergentName(text, subject); c >= 2 && c > len(found) {
			return n
		}
		return ""
	}
	return first
}

// divergentName is the name a document writes most often that starts
// as the subject's and goes on otherwise ("Harlowe Valley Township" for
// the Harlowe Valley Regional Council, "Marlin Shoal" for Marlin Shoals
// Reef), and how often it writes it.
func divergentName(text string, subject []string) (string, int) {
	counts := map[string]int{}
	best, bestKey := "", ""
	for k := len(subject) - 1; k >= 1; k-- {
		re, err := regexp.Compile(`(?i)\b` + namePattern(subject[:k]) + `\b`)
		if err != nil {
			continue
		}
		for _, m := range re.FindAllStringIndex(text, -1) {
			ext := extension(text[m[1]:])
			if ext == "" || !strings.HasPrefix(text[m[1]:], " ") || strings.EqualFold(strings.Fields(ext)[0], subject[k]) || legalFormOnly(ext, nil) {
				continue
			}
			form := text[m[0]:m[1]] + " " + ext
			key := strings.ToLower(form)
			counts[key]++
			if best == "" || counts[key] > counts[bestKey] {
				best, bestKey = form, key
			}
		}
	}
	return best, counts[bestKey]
}

// namePattern matches a name of the subject's words, with the
// connectors a question leaves out between them ("Lanterns for
// Learning", "Bank of England").
func namePattern(subject []string) string {
	var ws []string
	for _, w := range subject {
		ws = append(ws, regexp.QuoteMeta(w))
	}
	return strings.Join(ws, `(?:\W+(?:of|for|the|and|de|du|la|von|van|da|del|&))*\W+`)
}

// partialName is the name a document that never writes the whole of a
// name of several words gives its first word: "Grauhorn Brauerei AG" for
// Grauhorn Mountain Rescue; "" when it writes that word alone or not at
// all.
func partialName(text string, subject []string) string {
	re, err := regexp.Compile(`\b(?i:` + regexp.QuoteMeta(subject[0]) + `)\b`)
	if err != nil {
		return ""
	}
	// "the Kalinda Hotel function room" once, in a blog that writes
	// Kalinda alone three times: the town, not another entity.
	first, bare, forms := "", 0, map[string]int{}
	for _, m := range re.FindAllStringIndex(text, -1) {
		if r := []rune(text[m[0]:min(m[1], m[0]+4)]); len(r) == 0 || !unicode.IsUpper(r[0]) {
			continue
		}
		ext := extension(text[m[1]:])
		if ext == "" {
			bare++
			continue
		}
		if first == "" {
			first = text[m[0]:m[1]] + " " + ext
		}
		// A mention that qualifies a lower-case noun after it ("Kalinda
		// Hotel function room") names a place in the town, not what
		// the document is about.
		k := strings.Index(text[m[1]:], ext)
		if rest := strings.Fields(text[m[1]+max(k, 0)+len(ext):] + " ."); k < 0 || !unicode.IsLower([]rune(rest[0])[0]) || verbLike(token{text: rest[0], lower: rest[0]}) {
			forms[strings.ToLower(ext)] += 2
		} else {
			forms[strings.ToLower(ext)]++
		}
	}
	if first == "" || bare >= 2 && forms[strings.ToLower(strings.SplitN(first, " ", 2)[1])] < 2 {
		return ""
	}
	return first
}

// extension is the run of capitalised words (and a legal form) that
// continues a name at the start of rest: " Games, the studio" -> "Games".
// A word in capitals ("CEO") or a common word ("The") ends it.
func extension(rest string) string {
	var out []string
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	for _, w := range strings.Fields(rest) {
		t := strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(w, ",.;:)!?\"”’"), "'s"), "’s")
		r := []rune(t)
		if len(r) < 2 || !unicode.IsUpper(r[0]) || monthName(t) || retrieveStop(strings.ToLower(t)) ||
			strings.ToUpper(t) == t && !legalForms[t] && (roleAcronyms[t] || len(r) > 5 || len(out) == 0 && t == w) {
			break
		}
		if roleNounRE.MatchString(t) {
			// "Northmoor Railways Regional Director": the name's
			// officer, not a longer name.
			return ""
		}
		out = append(out, t)
		if len(out) == 3 || t != w {
			break // punctuation ends the name
		}
	}
	return strings.Join(out, " ")
}

var roleNounRE = regexp.MustCompile(`^(?i:` + roleNouns + `)$`)

// legalFormOnly reports a name that is the subject's and a legal form
// ("Tallis Software Inc").
func legalFormOnly(name string, subject []string) bool {
	rest := 0
	for _, w := range words(name) {
		switch {
		case slices.Contains(subject, w):
		case legalWords[w]:
			rest++
		default:
			return false
		}
	}
	return rest > 0
}

var legalWords = set("inc", "ltd", "llc", "llp", "plc", "corp", "corporation", "gmbh", "ag", "sa", "nv", "bv", "limited", "co", "asa", "ab", "oy", "spa", "srl", "clg", "dac", "cic", "pty", "sarl", "sas", "kg")

// roleAcronyms are capitals after a name that name a role, not the
// name's end ("Kestrel CEO"); others may ("Aldgrove Community FC,").
var roleAcronyms = map[string]bool{"CEO": true, "CFO": true, "COO": true, "CTO": true, "CIO": true, "MP": true, "MD": true, "VP": true, "HR": true, "PR": true, "IT": true}

var legalForms = map[string]bool{"CLG": true, "DAC": true, "CIC": true, "Pty": true, "SARL": true, "SAS": true, "KG": true, "AG": true, "SA": true, "NV": true, "BV": true, "LLC": true, "LLP": true, "PLC": true, "GmbH": true, "Ltd": true, "Inc": true, "Co": true}

// appositiveKind is what a document says the subject is, in an
// apposition after its bare name: "Eastline, the Oban ferry operator,"
// -> operator; "" when it says none, or only that it is a company.
func appositiveKind(text string, subject []string) string {
	if len(subject) == 0 {
		return ""
	}
	kind, _ := apposition(text, subject)
	if kind == "" {
		// "Kessington Spring Water Co., the family-owned bottler": what
		// the name's longer form at its first mention is said to be.
		if longer := longerName(text, subject); longer != nil {
			kind, _ = apposition(text, longer)
		}
	}
	if kind == "" {
		kind = kindBefore(text, subject)
	}
	return kind
}

// longerName is the subject's words and the capitalised words a
// document writes after them at their first mention ("kessington spring
// water co"), nil when it writes none there.
func longerName(text string, subject []string) []string {
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\b`)
	if err != nil {
		return nil
	}
	for _, m := range re.FindAllStringIndex(text, -1) {
		if strings.HasPrefix(strings.TrimSpace(text[max(0, strings.LastIndexByte(text[:m[0]], '\n')+1):m[0]]), "#") {
			continue // a heading
		}
		if ext := extension(text[m[1]:]); ext != "" && !legalFormOnly(ext, nil) {
			return append(append([]string(nil), subject...), words(ext)...)
		}
		return nil
	}
	return nil
}

// apposition reads what a document says the subject is after its bare
// name (or the name and an abbreviation, "Redcastle Rovers RLFC, the
// rugby league side from Redcastle, Tasmania,"): the head noun, the last
// before a preposition, a participle or a second article ("side"; "the
// embedded database the foundation stewards" is a database), and the
// places it names ("Redcastle", "Tasmania").
func apposition(text string, subject []string) (string, []string) {
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\.?(?-i:\s+(?:[A-Z]{2,6}|Pty|Ltd|Inc|Co|Corp|Limited|GmbH|plc)\.?){0,2}(?:,|\s+is)\s+((?:the|a|an)\s+[^.;:()]{3,120}?)(?:,\s+(?-i:[a-z])|[.;:(]|,?$)`)
	if err != nil {
		return "", nil
	}
	m := re.FindStringSubmatch(text)
	if m == nil {
		return "", nil
	}
	words := strings.Fields(m[1])
	kind := ""
	var places []string
	for i, w := range words {
		t := strings.Trim(w, ",")
		lower := strings.ToLower(t)
		if i > 0 && (prepositions[lower] || participles[lower] || determiners[lower] && lower != "its" ||
			kind != "" && len(lower) > 4 && (strings.HasSuffix(lower, "ed") && !strings.HasSuffix(lower, "eed") || len(lower) > 5 && strings.HasSuffix(lower, "ing") && i+1 < len(words) && determiners[strings.ToLower(words[i+1])])) {
			for _, p := range words[i+1:] {
				p = strings.Trim(p, ",")
				if r := []rune(p); len(r) > 1 && unicode.IsUpper(r[0]) && !slices.Contains(subject, strings.ToLower(p)) {
					places = append(places, p)
				}
			}
			break
		}
		if r := []rune(t); len(r) > 0 && unicode.IsLower(r[0]) && !determiners[lower] {
			kind = lower
		} else if i > 0 && placeWord(t, subject) {
			// "the Coventry motorsport engineering firm": a name before
			// the kind places it.
			places = append(places, strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s"))
		}
		if strings.HasSuffix(w, ",") {
			break
		}
	}
	if generic[kind] {
		return "", places
	}
	return kind, places
}

// kindWritten reports a group told by what its document says the
// subject is ("Lumen (database)") whose kind the other group's
// documents write too ("Lumen database").
func kindWritten(g, main *entityGroup, texts map[string]string) bool {
	i, j := strings.LastIndexByte(g.name, '('), strings.LastIndexByte(g.name, ')')
	if i < 0 || j < i {
		return false
	}
	kind := g.name[i+1 : j]
	for _, d := range main.docs {
		if wordIndex(strings.ToLower(texts[d]), kind) >= 0 {
			return true
		}
	}
	return false
}

// apartByPlace reports a document whose apposition places the subject
// where no document of the group writes: "the heritage tram near Clyde
// in Otago" beside documents about a tram in Dunmore.
func apartByPlace(d string, g *entityGroup, texts map[string]string, subject []string) bool {
	_, places := apposition(texts[d], writtenName(texts[d], subject))
	if places == nil {
		// "Brevik Bistro, the restaurant group from Bergen": the name the
		// document gives it.
		if name := words(strings.Split(nameIn(texts[d], subject), " (")[0]); len(name) > 0 {
			_, places = apposition(texts[d], name)
		}
	}
	for _, p := range places {
		written := false
		for _, o := range g.docs {
			if o != d && wordIndex(strings.ToLower(texts[o]), p) >= 0 && namesWhole(texts[o], subject) {
				written = true
				break
			}
		}
		if !written {
			return true
		}
	}
	return false
}

// namesWhole reports a document that writes the subject's whole name:
// one that writes only part of a longer name ("Ashcombe Library will
// reopen" beside the Ashcombe Public Library) says nothing of where the
// subject is.
func namesWhole(text string, subject []string) bool {
	if len(subject) < 2 {
		return true
	}
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\b`)
	return err != nil || re.MatchString(text)
}

// sharedNames is how many names (a person, a place, a product; the
// subject's aside) a's documents write that b's do.
func sharedNames(a, b *entityGroup, texts map[string]string, subject []string) int {
	names := map[string]bool{}
	for _, d := range b.docs {
		for n := range namesOf(texts[d], subject) {
			names[n] = true
		}
	}
	shared := map[string]bool{}
	for _, d := range a.docs {
		for n := range namesOf(texts[d], subject) {
			if names[n] {
				shared[n] = true
			}
		}
	}
	return len(shared)
}

// namesOf are the names a document's sentences write, of two words or
// more, without the subject's.
func namesOf(text string, subject []string) map[string]bool {
	subj := map[string]bool{}
	for _, w := range subject {
		subj[w] = true
	}
	out := map[string]bool{}
	for _, s := range Sentences(text) {
		for _, n := range NamesIn(s, true) {
			ws := words(n)
			if len(ws) < 2 || monthName(n) || strings.ContainsAny(n, "0123456789") {
				continue
			}
			own := false
			for _, w := range ws {
				own = own || subj[w]
			}
			if !own {
				out[strings.ToLower(n)] = true
			}
		}
	}
	return out
}

// mergeAlike joins named groups whose documents are about the same
// thing (sameDocSimilarity): one entity written two ways.
func mergeAlike(groups []*entityGroup, docWords map[string]map[string]float64) []*entityGroup {
	var out []*entityGroup
	for _, g := range groups {
		joined := false
		for _, o := range out {
			if groupCosine(g, o, docWords) >= sameDocSimilarity {
				o.docs = append(o.docs, g.docs...)
				joined = true
				break
			}
		}
		if !joined {
			out = append(out, g)
		}
	}
	return out
}

func groupCosine(a, b *entityGroup, docWords map[string]map[string]float64) float64 {
	s := 0.0
	for _, d := range a.docs {
		s += meanCosine(d, b.docs, docWords)
	}
	return s / float64(len(a.docs))
}

func meanCosine(d string, docs []string, docWords map[string]map[string]float64) float64 {
	if len(docs) == 0 {
		return 0
	}
	s := 0.0
	for _, o := range docs {
		s += cosine(docWords[d], docWords[o])
	}
	return s / float64(len(docs))
}

// questionScore is how many of the question's own words (the subject's
// aside) a group's documents hold, and a little for each document.
func questionScore(q question, g *entityGroup, texts map[string]string) float64 {
	subj := map[string]bool{}
	for _, w := range q.SubjectWords {
		subj[w] = true
	}
	var all strings.Builder
	for _, d := range g.docs {
		all.WriteString(strings.ToLower(texts[d]))
	}
	text := all.String()
	score := 0.1 * float64(len(g.docs))
	for _, w := range retrieve.Terms(q.Text) {
		if !subj[w] && len(w) > 2 && wordIndex(text, stem(w)) >= 0 {
			score++
		}
	}
	return score
}

func bestScore(q question, groups []*entityGroup, texts map[string]string) float64 {
	return questionScore(q, mostAsked(q, groups, texts), texts)
}

// mostAsked is the group the question is most about.
func mostAsked(q question, groups []*entityGroup, texts map[string]string) *entityGroup {
	sorted := append([]*entityGroup(nil), groups...)
	sort.SliceStable(sorted, func(i, j int) bool { return questionScore(q, sorted[i], texts) > questionScore(q, sorted[j], texts) })
	return sorted[0]
}

// organisations are the words that make an entity a company or another
// organisation.
var organisations = regexp.MustCompile(`(?i)\b(?:company|firm|studio|brewery|operator|maker|manufacturer|biotech\w*|bank|corporation|inc|ltd|llc|plc|gmbh|ag|publisher|agency|startup|retailer|airline|insurer)\b`)

// kindOf is "organisation" when the group's documents say it is one.
func kindOf(g *entityGroup, texts map[string]string) string {
	if organisations.MatchString(g.name) {
		return "organisation"
	}
	for _, d := range g.docs {
		if organisations.MatchString(texts[d]) {
			return "organisation"
		}
	}
	return ""
}

// docOfSubject reports a document about the subject whatever other
// names it gives: a heading writes the subject's whole name, or it
// speaks of the subject's kind as the one in question ("the state's
// inspection of the dam up the hill" for Corrow Reservoir Dam).
func docOfSubject(text string, subject []string) bool {
	if len(subject) < 2 {
		return false
	}
	re, err := regexp.Compile(`(?i)\b` + namePattern(subject) + `\b`)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") && re.MatchString(l) {
			return true
		}
	}
	head := subject[len(subject)-1]
	if len(head) < 3 || retrieveStop(head) {
		return false
	}
	the, err := regexp.Compile(`\b[Tt]he ` + regexp.QuoteMeta(head) + `\b(?:[^\p{L}]|\s+[a-z])`)
	return err == nil && len(the.FindAllString(text, -1)) >= 2
}

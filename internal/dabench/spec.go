package dabench

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The kinds of answer a Spec can name.
const (
	KindNumber  = "number"
	KindInteger = "integer"
	KindText    = "text"
	KindBool    = "bool" // yes/no or true/false, in the case the format shows
)

// Spec is what a question's format says about one answer.
type Spec struct {
	Name string
	// Decimals is the number of digits after the decimal point the answer
	// must be rounded to: 0 for integers, -1 if unspecified. For a list
	// or composite value it applies to each of its numbers.
	Decimals int
	// Kind is KindNumber, KindInteger, KindText (also lists and composite
	// values such as "1, 2018, 88.32"), KindBool, or "" when unknown.
	Kind string
}

// Format prints @name[value] for each spec in order, joined with ", ".
// A spec whose name values lacks is left out, so that a missing answer
// is not turned into an empty one (which would match an empty label).
func Format(specs []Spec, values map[string]string) string {
	var parts []string
	for _, s := range specs {
		if v, ok := values[s.Name]; ok {
			parts = append(parts, "@"+s.Name+"["+v+"]")
		}
	}
	return strings.Join(parts, ", ")
}

var nameRe = regexp.MustCompile(`@([\p{L}\p{N}_]+)\[`)

// token is one @name[placeholder] occurrence in a format.
type token struct {
	start, end int
	name, ph   string
}

// normalizeFormat turns the literal "\n" some formats carry into newlines.
func normalizeFormat(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(s)
}

// scanTokens finds the @name[placeholder] occurrences of text. A
// placeholder ends at "]" or, when the bracket is never closed, at the
// end of the line.
func scanTokens(text string) []token {
	var out []token
	last := 0
	for _, m := range nameRe.FindAllStringSubmatchIndex(text, -1) {
		if m[0] < last {
			continue // inside the previous placeholder
		}
		t := token{start: m[0], name: text[m[2]:m[3]]}
		rest := text[m[1]:]
		switch end := strings.IndexAny(rest, "]\n"); {
		case end < 0:
			t.ph, t.end = rest, len(text)
		case rest[end] == ']':
			t.ph, t.end = rest[:end], m[1]+end+1
		default:
			t.ph, t.end = rest[:end], m[1]+end
		}
		out = append(out, t)
		last = t.end
	}
	return out
}

// formatNames returns the answer names of a format in order, once each.
func formatNames(format string) []string {
	var names []string
	seen := map[string]bool{}
	for _, t := range scanTokens(normalizeFormat(format)) {
		if !seen[t.name] {
			seen[t.name] = true
			names = append(names, t.name)
		}
	}
	return names
}

// target is what a mention in the format text refers to: an answer, or
// one part of an answer whose placeholder is a list ("min, max, mean").
type target struct {
	name string
	part int // -1: the whole answer
}

// mention is an occurrence of an answer in the format text: its
// @name[...] token, its name or placeholder in quotes, or either bare
// where it reads as the subject of a description.
type mention struct {
	start, end int
	targets    []target
}

// info is what one piece of text says about the answers it describes.
type info struct {
	decimals int    // -1: none
	kind     string // from an explicit word ("integer", "string", ...)
	list     bool   // the text describes a list
	alt      bool   // the text offers quoted alternatives: either "linear" or "none"
	count    bool   // "the number of ...": an integer unless told otherwise
	size     int    // how many answers the text describes (fewer is more specific)
	pos      int
}

// answerSpec gathers the descriptions of one answer.
type answerSpec struct {
	name   string
	parts  []string       // list placeholder parts, if any
	brace  bool           // the placeholder is a dict or list literal: {'a': v1, ...}
	own    []info         // texts that describe this answer
	partOf map[int][]info // texts that describe one of its parts
	hint   string         // kind from a one-word placeholder ("integer", "True")
	words  []string       // name and placeholder words, for the constraints
	nameWs []string       // name words, for hints
	phWs   []string       // words of one-word placeholders, for hints
}

// Specs reads a question's format (and, for the decimals only, its
// constraints) and returns one Spec per answer name, in the order the
// names first appear in the format.
//
// Each description is attached to the answers it names: the text after
// one or more @name[placeholder] tokens, or after placeholders or names
// quoted ("mean_value" and "std_value" are ...) or written bare as a
// subject (where r_value is ...; The number should be ...), up to the
// next such mention or the end of its sentence. Sentences that name no
// answer apply to every answer the specific ones leave open ("All values
// should be rounded to two decimal places"), and the constraints supply
// the decimals when the format gives none.
func Specs(format, constraints string) []Spec {
	text := normalizeFormat(format)
	toks := scanTokens(text)
	if len(toks) == 0 {
		return nil
	}
	answers := map[string]*answerSpec{}
	var order []string
	keys := map[string][]target{}
	addKey := func(k string, tg target) {
		k = strings.ToLower(cleanKey(k))
		if k == "" || utf8.RuneCountInString(k) > 80 {
			return
		}
		for _, have := range keys[k] {
			if have == tg {
				return
			}
		}
		keys[k] = append(keys[k], tg)
	}
	var mentions []mention
	for _, t := range toks {
		a := answers[t.name]
		if a == nil {
			a = &answerSpec{name: t.name, partOf: map[int][]info{}}
			answers[t.name] = a
			order = append(order, t.name)
			a.nameWs = words(t.name)
			a.words = append(a.words, a.nameWs...)
			addKey(t.name, target{t.name, -1})
		}
		mentions = append(mentions, mention{t.start, t.end, []target{{t.name, -1}}})
		ph := cleanKey(t.ph)
		if ph == "" {
			continue
		}
		a.words = append(a.words, words(ph)...)
		if strings.ContainsAny(ph[:1], "{[(") {
			a.brace = true
		}
		if parts := listParts(ph); parts != nil {
			if a.parts == nil {
				a.parts = parts
				for i, p := range parts {
					addKey(p, target{t.name, i})
				}
			}
			addKey(ph, target{t.name, -1})
			continue
		}
		addKey(ph, target{t.name, -1})
		if short := parenRe.ReplaceAllString(ph, ""); short != ph {
			addKey(short, target{t.name, -1})
		}
		if strings.IndexFunc(ph, unicode.IsSpace) >= 0 {
			in := analyze(ph)
			in.size, in.pos = 1, t.start
			a.own = append(a.own, in)
		} else {
			a.phWs = append(a.phWs, words(ph)...)
			if a.hint == "" {
				a.hint = placeholderKind(ph)
			}
		}
	}
	mentions = append(mentions, keyMentions(text, toks, keys)...)
	mentions = dropOverlaps(mentions)

	// Group mentions joined only by "and", commas and the like; each group
	// owns the text up to the next group or the end of its sentence.
	type group struct {
		start, end int
		targets    []target
	}
	var groups []group
	for _, m := range mentions {
		if n := len(groups); n > 0 && connectorRe.MatchString(text[groups[n-1].end:m.start]) {
			groups[n-1].end = m.end
			groups[n-1].targets = append(groups[n-1].targets, m.targets...)
			continue
		}
		groups = append(groups, group{m.start, m.end, append([]target(nil), m.targets...)})
	}
	var global []info
	addGlobal := func(s string, pos int) {
		if strings.TrimSpace(s) != "" {
			in := analyze(s)
			in.pos = pos
			global = append(global, in)
		}
	}
	addGlobal(text[:groups[0].start], 0)
	for i, g := range groups {
		limit := len(text)
		if i+1 < len(groups) {
			limit = groups[i+1].start
		}
		own, rest := cutSegment(text[g.end:limit])
		in := analyze(own)
		in.pos = g.start
		names := map[string]bool{}
		for _, tg := range g.targets {
			names[tg.name] = true
		}
		in.size = len(names)
		for _, tg := range g.targets {
			a := answers[tg.name]
			if tg.part < 0 {
				a.own = append(a.own, in)
			} else {
				a.partOf[tg.part] = append(a.partOf[tg.part], in)
			}
		}
		addGlobal(rest, limit-len(rest))
	}

	specs := make([]Spec, 0, len(order))
	for _, name := range order {
		specs = append(specs, answers[name].resolve(global, constraints))
	}
	return specs
}

// resolve decides an answer's Spec from its own descriptions (the most
// specific first), then the sentences that name no answer, then hints
// from its placeholder and name, then the constraints.
func (a *answerSpec) resolve(global []info, constraints string) Spec {
	own := append([]info(nil), a.own...)
	sort.SliceStable(own, func(i, j int) bool {
		if own[i].size != own[j].size {
			return own[i].size < own[j].size
		}
		return own[i].pos < own[j].pos
	})
	dec, kind, list, count, alt := -1, "", a.parts != nil, false, false
	for _, in := range own {
		if dec < 0 {
			dec = in.decimals
		}
		if kind == "" {
			kind = in.kind
		}
		list = list || in.list
		count = count || in.count
		alt = alt || in.alt
	}
	if a.parts != nil || a.brace {
		if dec < 0 {
			dec = a.partDecimals()
		}
		return Spec{Name: a.name, Decimals: dec, Kind: KindText}
	}
	if kind == "" && count {
		kind = KindInteger
		if dec > 0 {
			kind = KindNumber
		}
	}
	if kind == "" {
		for _, in := range global {
			if in.kind != "" {
				kind = in.kind
				break
			}
		}
	}
	if kind == "" {
		kind = a.hint
	}
	if kind == "" && dec < 0 {
		dec = globalDecimals(global)
	}
	if kind == "" && dec < 0 && alt {
		kind = KindText // either "linear" or "nonlinear"
	}
	if kind == "" && dec < 0 {
		kind = nameKind(a.phWs)
	}
	if kind == "" && dec < 0 {
		kind = nameKind(a.nameWs)
	}
	switch kind {
	case KindBool:
		return Spec{Name: a.name, Decimals: -1, Kind: kind}
	case KindText:
		if !list {
			dec = -1
		}
		return Spec{Name: a.name, Decimals: dec, Kind: kind}
	case KindInteger:
		if dec > 0 {
			return Spec{Name: a.name, Decimals: dec, Kind: KindNumber}
		}
		return Spec{Name: a.name, Decimals: 0, Kind: kind}
	}
	if dec < 0 {
		dec = globalDecimals(global)
	}
	if dec < 0 {
		dec = constraintDecimals(constraints, a.words)
	}
	if dec < 0 && count {
		return Spec{Name: a.name, Decimals: 0, Kind: KindInteger}
	}
	if kind == "" && dec == 0 {
		kind = KindInteger
	} else if kind == "" && dec > 0 {
		kind = KindNumber
	}
	return Spec{Name: a.name, Decimals: dec, Kind: kind}
}

// globalDecimals is the first number of decimals the sentences that
// name no answer give, or -1.
func globalDecimals(global []info) int {
	for _, in := range global {
		if in.decimals >= 0 {
			return in.decimals
		}
	}
	return -1
}

// partDecimals is the decimals every part of a list placeholder shares,
// or -1 when they differ or none is given.
func (a *answerSpec) partDecimals() int {
	dec := -1
	for i := range a.parts {
		infos := a.partOf[i]
		d, k := -1, ""
		for _, in := range infos {
			if d < 0 {
				d = in.decimals
			}
			if k == "" {
				k = in.kind
			}
		}
		if d < 0 && k == KindInteger {
			d = 0
		}
		if d < 0 {
			continue
		}
		if dec >= 0 && d != dec {
			return -1
		}
		dec = d
	}
	return dec
}

var (
	parenRe     = regexp.MustCompile(`\s*\([^)]*\)`)
	connectorRe = regexp.MustCompile(`(?i)^[\s,;&/.…"'’”()]*(?:(?:and|or|as well as|plus)[\s,;.…"'’”()]*)?$`)
	boundaryRe  = regexp.MustCompile(`\.(?:\s+|$)|;\s|\n`)
	pronounRe   = regexp.MustCompile(`(?i)^(?:they|it|its|this|these|those|their)\b`)
	fillerRe    = regexp.MustCompile(`(?i)\b(?:where|whereby|in which)\b`)
)

// cleanKey trims spaces and quotes around a placeholder or name.
func cleanKey(s string) string {
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "\"'“”‘’`"))
}

// listParts splits a placeholder such as "min_fare, max_fare, mean_fare"
// or "id1, id2, ..." into its parts; nil when it is not such a list.
func listParts(ph string) []string {
	if !strings.Contains(ph, ",") {
		return nil
	}
	var parts []string
	for _, p := range strings.Split(ph, ",") {
		p = cleanKey(p)
		if strings.Trim(p, ".…") == "" {
			continue
		}
		if strings.IndexFunc(p, unicode.IsSpace) >= 0 {
			return nil
		}
		parts = append(parts, p)
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

var (
	// A bare key reads as a subject after these and before a verb.
	subjectBeforeRe = regexp.MustCompile(`(?i)(?:^|[\n.,;:(]|\b(?:where|whereby|and|the|each|while|with))\s*$`)
	subjectAfterRe  = regexp.MustCompile(`(?i)^\s*(?:(?:is|are|should|must|represents?|indicates?|denotes?|refers?|means?|stands?|will|can|has|have)\b|[:=])`)
	// A bare identifier in a condition ("if p_value > 0.05") is no subject.
	conditionBeforeRe = regexp.MustCompile(`(?i)\b(?:if|when|whether|than|unless)\s*$`)
	conditionAfterRe  = regexp.MustCompile(`^\s*[<>=≤≥!]`)
)

// identifierLike reports whether a key reads as a variable name (r_value,
// value1, isNormal) rather than an English word.
func identifierLike(k string) bool {
	if strings.IndexFunc(k, unicode.IsSpace) >= 0 {
		return false
	}
	prevLower := false
	for _, r := range k {
		if r == '_' || unicode.IsDigit(r) || (prevLower && unicode.IsUpper(r)) {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}

// keyMentions finds the quoted and bare mentions of every key outside the
// tokens.
func keyMentions(text string, toks []token, keys map[string][]target) []mention {
	inToken := func(s, e int) bool {
		for _, t := range toks {
			if s < t.end && e > t.start {
				return true
			}
		}
		return false
	}
	var out []mention
	for k, tgs := range keys {
		q := regexp.MustCompile(`(?i)["'“‘]` + regexp.QuoteMeta(k) + `["'”’]`)
		for _, loc := range q.FindAllStringIndex(text, -1) {
			if !inToken(loc[0], loc[1]) {
				out = append(out, mention{loc[0], loc[1], tgs})
			}
		}
		ident := identifierLike(k)
		bare := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(k))
		for _, loc := range bare.FindAllStringIndex(text, -1) {
			s, e := loc[0], loc[1]
			if inToken(s, e) {
				continue
			}
			if r, _ := utf8.DecodeLastRuneInString(text[:s]); s > 0 && (isWordRune(r) || strings.ContainsRune(`"'“‘`, r)) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(text[e:]); e < len(text) && (isWordRune(r) || strings.ContainsRune(`"'”’`, r)) {
				continue
			}
			before, after := text[:s], text[e:]
			if ident {
				if conditionBeforeRe.MatchString(before) || conditionAfterRe.MatchString(after) {
					continue
				}
			} else if !subjectBeforeRe.MatchString(before) || !subjectAfterRe.MatchString(after) {
				continue
			}
			out = append(out, mention{s, e, tgs})
		}
	}
	return out
}

// dropOverlaps sorts mentions by position, the longest first where they
// start together, and drops those overlapping an earlier one.
func dropOverlaps(ms []mention) []mention {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return ms[i].end > ms[j].end
	})
	var out []mention
	for _, m := range ms {
		if n := len(out); n > 0 && m.start < out[n-1].end {
			continue
		}
		out = append(out, m)
	}
	return out
}

// cutSegment splits the text after a mention into the part describing it
// (up to the end of its first sentence that says something, plus the
// sentences that go on with "It" or "They") and the rest.
func cutSegment(seg string) (own, rest string) {
	locs := boundaryRe.FindAllStringIndex(seg, -1)
	for _, l := range locs {
		if !descriptive(seg[:l[0]]) {
			continue
		}
		cut := l[1]
		for cut < len(seg) && pronounRe.MatchString(strings.TrimLeftFunc(seg[cut:], unicode.IsSpace)) {
			next := len(seg)
			for _, n := range locs {
				if n[0] >= cut && descriptive(seg[cut:n[0]]) {
					next = n[1]
					break
				}
			}
			cut = next
		}
		return seg[:cut], seg[cut:]
	}
	return seg, ""
}

// descriptive reports whether s says anything beyond "where".
func descriptive(s string) bool {
	return strings.IndexFunc(fillerRe.ReplaceAllString(s, ""), func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}) >= 0
}

var (
	numberWords = map[string]int{"zero": 0, "no": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "three": 3,
		"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
	ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
		"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}
	fractions = map[string]int{"tenth": 1, "hundredth": 2, "thousandth": 3, "ten thousandth": 4, "ten-thousandth": 4}

	decimalsRe = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d+|zero|no|one|a single|single|two|three|four|five|six|seven|eight|nine|ten)[\s-]+decimals?\b`),
		regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)\s+decimal\b`),
		regexp.MustCompile(`(?i)\bnearest\s+(ten[- ]thousandth|thousandth|hundredth|tenth)s?\b`),
		regexp.MustCompile(`(?i)\b(?:round(?:ed|ing)?|nearest)\s+(?:(?:off|up|down)\s+)?(?:to\s+)?(?:the\s+|an?\s+)?(?:nearest\s+)?(whole\s+number|integer)s?\b`),
		regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six)\s+(?:digits?|places?)\s+(?:after|past|behind)\s+the\s+(?:decimal|point|comma)`),
		regexp.MustCompile(`(?i)\b(\d+)\s*d\.?p\.?(?:\W|$)`),
		regexp.MustCompile(`[%:]\.(\d+)f\b`),
	}

	boolRe     = regexp.MustCompile(`(?i)\bbool(?:ean)?s?\b`)
	trueRe     = regexp.MustCompile(`(?i)\btrue\b`)
	falseRe    = regexp.MustCompile(`(?i)\bfalse\b`)
	yesRe      = regexp.MustCompile(`(?i)\byes\b`)
	noRe       = regexp.MustCompile(`(?i)\bno\b`)
	quotedRe   = regexp.MustCompile(`"[^"\n]*"|“[^”\n]*”`)
	altRe      = regexp.MustCompile(`(?i)(?:"[^"\n]+"|'[^'\n]+')\s*,?\s*(?:or|and)\s+(?:"[^"\n]+"|'[^'\n]+')`)
	ofRe       = regexp.MustCompile(`^\s+of\b`)
	countRe    = regexp.MustCompile(`(?i)(?:^|\b([\p{L}]+)\s+)(?:total\s+)?(?:number|count)s?\s+of\b`)
	notCountBy = map[string]bool{"average": true, "mean": true, "median": true, "expected": true, "predicted": true,
		"estimated": true, "typical": true, "maximum": true, "minimum": true, "max": true, "min": true}
	kindRes = []struct {
		re   *regexp.Regexp
		kind string
		list bool
	}{
		{regexp.MustCompile(`(?i)\b(?:integers?|int|whole\s+numbers?)\b`), KindInteger, false},
		{regexp.MustCompile(`(?i)\b(?:lists?|arrays?|comma[- ]separated|separated\s+by\s+commas?)\b`), KindText, true},
		{regexp.MustCompile(`(?i)\b(?:strings?|text|names?|dates?|path)\b`), KindText, false},
		{regexp.MustCompile(`(?i)\b(?:float(?:ing)?(?:[- ]point)?s?|decimals?|numbers?|numeric(?:al)?|real|percentages?|percent|proportion|double)\b`), KindNumber, false},
	}
)

// findDecimals returns the first number of decimals s asks for, or -1.
func findDecimals(s string) int {
	best, dec := len(s)+1, -1
	for i, re := range decimalsRe {
		m := re.FindStringSubmatchIndex(s)
		if m == nil || m[0] >= best {
			continue
		}
		word := strings.ToLower(s[m[2]:m[3]])
		d := -1
		switch i {
		case 0, 4:
			if n, ok := numberWords[word]; ok {
				d = n
			} else if n, err := strconv.Atoi(word); err == nil && n <= 20 {
				d = n
			}
		case 1:
			d = ordinals[word]
		case 2:
			d = fractions[strings.Join(strings.Fields(word), " ")]
		case 3:
			d = 0
		default:
			if n, err := strconv.Atoi(word); err == nil && n <= 20 {
				d = n
			}
		}
		if d >= 0 {
			best, dec = m[0], d
		}
	}
	return dec
}

// analyze reads what one description says: decimals, and the kind named
// first (booleans win whenever both their values are named).
func analyze(s string) info {
	in := info{decimals: findDecimals(s)}
	if boolRe.MatchString(s) || (trueRe.MatchString(s) && falseRe.MatchString(s)) || (yesRe.MatchString(s) && noRe.MatchString(s)) {
		in.kind = KindBool
		return in
	}
	if strings.Contains(strings.ToLower(s), "whole number") && in.decimals < 0 {
		in.decimals = 0
	}
	for _, m := range countRe.FindAllStringSubmatch(s, -1) {
		if !notCountBy[strings.ToLower(m[1])] {
			in.count = true
		}
	}
	// Quoted words are column names or the values of a text answer.
	bare := quotedRe.ReplaceAllStringFunc(s, func(q string) string { return strings.Repeat(" ", len(q)) })
	first := len(bare) + 1
	for _, k := range kindRes {
		for _, loc := range k.re.FindAllStringIndex(bare, -1) {
			if w := strings.ToLower(bare[loc[0]:loc[1]]); (w == "number" || w == "numbers") && ofRe.MatchString(bare[loc[1]:]) {
				continue // "the number of": a count, read above
			}
			if loc[0] < first {
				first, in.kind, in.list = loc[0], k.kind, k.list
			}
			break
		}
	}
	in.alt = altRe.MatchString(s)
	return in
}

// placeholderKind reads a one-word placeholder: integer, float, True...
func placeholderKind(ph string) string {
	ph = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`"'“”‘’`+"`", r) {
			return -1
		}
		return r
	}, strings.ToLower(ph))
	switch ph {
	case "integer", "int", "count":
		return KindInteger
	case "float", "number", "decimal", "real":
		return KindNumber
	case "true", "false", "yes", "no", "boolean", "bool", "yes/no", "true/false":
		return KindBool
	case "string", "text", "name":
		return KindText
	}
	if strings.Contains(ph, "/") {
		return KindText // positive/negative
	}
	return ""
}

var (
	prepositions = map[string]bool{"with": true, "of": true, "by": true, "for": true, "in": true, "per": true,
		"from": true, "among": true, "across": true, "at": true, "on": true}
	boolWords = map[string]bool{"is": true, "has": true, "are": true, "does": true, "did": true, "should": true}
	intWords  = map[string]bool{"count": true, "counts": true, "num": true, "number": true, "n": true, "year": true,
		"years": true, "rows": true, "entries": true, "integer": true, "int": true}
	textWords = map[string]bool{"name": true, "names": true, "country": true, "type": true, "status": true,
		"result": true, "date": true, "category": true, "label": true, "id": true, "ids": true, "column": true,
		"variable": true, "feature": true, "site": true, "station": true, "city": true, "brand": true,
		"method": true, "decision": true, "significance": true, "relationship": true, "distribution": true,
		"normality": true, "string": true, "text": true, "identifier": true, "fit": true, "strength": true}
	numberWords2 = map[string]bool{"mean": true, "avg": true, "average": true, "median": true, "std": true, "sd": true,
		"stddev": true, "stdev": true, "deviation": true, "variance": true, "var": true, "correlation": true,
		"corr": true, "coefficient": true, "coef": true, "r": true, "ratio": true, "rate": true, "pvalue": true,
		"skewness": true, "skew": true, "kurtosis": true, "kurt": true, "mse": true, "rmse": true, "mae": true,
		"accuracy": true, "score": true, "percentage": true, "percent": true, "proportion": true, "min": true,
		"max": true, "range": true, "sum": true, "value": true, "statistic": true, "pct": true, "float": true,
		"price": true, "squared": true, "error": true}
)

// nameKind guesses a kind from the words of an answer's name or
// placeholder: a leading "is" or "has" makes a boolean, otherwise the last
// recognised word of the head decides (correlation_type is text), the head
// being the words before a preposition (country_with_highest_score is a
// country, number_of_outliers a count).
func nameKind(ws []string) string {
	if len(ws) > 0 && boolWords[ws[0]] {
		return KindBool
	}
	head := len(ws)
	for i, w := range ws {
		if prepositions[w] && i > 0 {
			head = i
			break
		}
	}
	for _, part := range [][]string{ws[:head], ws[head:]} {
		for i := len(part) - 1; i >= 0; i-- {
			switch w := part[i]; {
			case intWords[w]:
				return KindInteger
			case textWords[w]:
				return KindText
			case numberWords2[w]:
				return KindNumber
			}
		}
	}
	return ""
}

// words splits a name or phrase into lower-case words at underscores,
// punctuation and lower-to-upper case changes, dropping numbers.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if prevLower && unicode.IsUpper(r) {
				flush()
			}
			cur = append(cur, r)
			prevLower = unicode.IsLower(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

var (
	sentenceRe = regexp.MustCompile(`[^.;\n]+(?:\.\d[^.;\n]*)*`)
	allRe      = regexp.MustCompile(`(?i)\b(?:all|each|every|any)\b`)
	synonyms   = map[string][]string{"std": {"standard", "deviation"}, "sd": {"standard", "deviation"},
		"stddev": {"standard", "deviation"}, "stdev": {"standard", "deviation"}, "dev": {"deviation"},
		"corr": {"correlation"}, "r": {"correlation"}, "coef": {"coefficient"}, "avg": {"average", "mean"},
		"average": {"mean"}, "mean": {"average"}, "pvalue": {"p"}, "mse": {"squared", "error"}}
	stopWords = map[string]bool{"value": true, "the": true, "of": true, "a": true, "and": true, "to": true, "in": true}
)

// constraintDecimals returns the decimals the constraints give: the one
// value they all agree on or, when they disagree, the value in the
// sentence sharing most words with the answer (then one about all
// values); -1 when none applies.
func constraintDecimals(constraints string, answerWords []string) int {
	type cand struct {
		dec   int
		score int
		all   bool
	}
	var cands []cand
	want := map[string]bool{}
	for _, w := range answerWords {
		if !stopWords[w] {
			want[w] = true
			for _, s := range synonyms[w] {
				want[s] = true
			}
		}
	}
	for _, sent := range sentenceRe.FindAllString(constraints, -1) {
		d := findDecimals(sent)
		if d < 0 {
			continue
		}
		c := cand{dec: d, all: allRe.MatchString(sent)}
		for _, w := range words(sent) {
			if want[w] {
				c.score++
			}
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return -1
	}
	agree := true
	for _, c := range cands[1:] {
		agree = agree && c.dec == cands[0].dec
	}
	if agree {
		return cands[0].dec
	}
	best := -1
	for i, c := range cands {
		if c.score > 0 && (best < 0 || c.score > cands[best].score) {
			best = i
		}
	}
	if best >= 0 {
		return cands[best].dec
	}
	for _, c := range cands {
		if c.all {
			return c.dec
		}
	}
	return -1
}

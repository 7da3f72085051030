package dabench

import (
	"errors"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// answerRe is upstream's @(\w+)\[(.*?)\]. Python's \w on str matches
// Unicode letters, digits and the underscore, and its "." every character
// but "\n", as Go's does.
var answerRe = regexp.MustCompile(`@([\p{L}\p{N}_]+)\[(.*?)\]`)

// Extract returns every @name[value] pair of response; a later pair with
// the same name overwrites an earlier one.
func Extract(response string) map[string]string {
	out := map[string]string{}
	for _, m := range answerRe.FindAllStringSubmatch(response, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// Correct reports whether a response value matches a label value: equal
// strings, or both parse as Python floats and differ by less than 1e-6.
func Correct(response, label string) bool {
	if response == label {
		return true
	}
	a, ok := pyFloat(response)
	if !ok {
		return false
	}
	b, ok := pyFloat(label)
	if !ok {
		return false
	}
	return math.Abs(a-b) < 1e-6 // false when either is NaN or both are the same infinity
}

var decimalRe = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// pyFloat parses s as Python's float(str) does: Unicode decimal digits
// count as digits, surrounding whitespace is ignored, underscores may sit
// between digits, and inf, infinity and nan (any case, signed) are
// accepted; hexadecimal is not. Out-of-range values become ±Inf or 0.
func pyFloat(s string) (float64, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x7f:
			b.WriteRune(r)
		case unicode.IsSpace(r): // the same set as Python's str.isspace above ASCII
			b.WriteByte(' ')
		case unicode.Is(unicode.Nd, r):
			b.WriteByte(byte('0' + ndValue(r)))
		default:
			return 0, false
		}
	}
	t := strings.Trim(b.String(), " \t\n\v\f\r")
	t, ok := dropUnderscores(t)
	if !ok {
		return 0, false
	}
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	if !decimalRe.MatchString(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// ndValue is the digit value of a Unicode decimal digit: the Nd category
// is made of runs of ten code points starting at zero.
func ndValue(r rune) int {
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return 0
}

// dropUnderscores removes underscores that sit between two digits and
// rejects any other underscore, as Python does for numeric literals.
func dropUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	digit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if !digit(i-1) || !digit(i+1) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// Result is the outcome of one question.
type Result struct {
	ID       int
	Response string
	// Correct of Total sub-answers are right. Total counts distinct label
	// names: upstream keeps labels in a dict, so a name labelled twice is
	// one sub-answer with the later value.
	Correct, Total int
	Concepts       []string
	Level          string
	Err            string // why there is no scored response; the question scores 0
}

// allCorrect reports whether every sub-answer is right (upstream's all()).
func (r Result) allCorrect() bool { return r.Err == "" && r.Correct == r.Total }

// ConceptScore is accuracy by question within one concept or level.
type ConceptScore struct {
	Questions, Correct int
	Accuracy           float64
}

// Score summarizes results with every result in the denominator.
type Score struct {
	Questions, CorrectQuestions int
	Accuracy                    float64 // ABQ with |R| = all questions (a missing answer is wrong)
	SubanswerAccuracy           float64 // UASQ
	ProportionalAccuracy        float64 // PASQ
	ByConcept                   map[string]ConceptScore
	ByLevel                     map[string]ConceptScore
}

// labelMap is upstream's {name: value} over the label pairs, later pairs
// overwriting earlier ones, with the names in first-seen order.
func labelMap(answers [][2]string) (map[string]string, []string) {
	m := make(map[string]string, len(answers))
	var order []string
	for _, a := range answers {
		if _, ok := m[a[0]]; !ok {
			order = append(order, a[0])
		}
		m[a[0]] = a[1]
	}
	return m, order
}

// ScoreOne scores response against q's labels. A label whose name the
// response lacks is wrong, even when the label is empty.
func ScoreOne(q Question, response string) Result {
	labels, names := labelMap(q.Answers)
	got := Extract(response)
	r := Result{ID: q.ID, Response: response, Total: len(names), Concepts: q.Concepts, Level: q.Level}
	for _, name := range names {
		if v, ok := got[name]; ok && Correct(v, labels[name]) {
			r.Correct++
		}
	}
	return r
}

// Summarize computes the three metrics over results, each result counting
// once (upstream drops questions without a response; here they are wrong).
// A question with no labelled sub-answers counts as correct by question
// and scores 0 in PASQ, as upstream's all([]) and its guard do.
func Summarize(results []Result) Score {
	s := Score{Questions: len(results), ByConcept: map[string]ConceptScore{}, ByLevel: map[string]ConceptScore{}}
	var sub, subTotal int
	var prop float64
	add := func(m map[string]ConceptScore, key string, ok bool) {
		c := m[key]
		c.Questions++
		if ok {
			c.Correct++
		}
		m[key] = c
	}
	for _, r := range results {
		correct := r.Correct
		if r.Err != "" {
			correct = 0
		}
		ok := r.allCorrect()
		if ok {
			s.CorrectQuestions++
		}
		sub += correct
		subTotal += r.Total
		if r.Total > 0 {
			prop += float64(correct) / float64(r.Total)
		}
		for _, c := range dedupe(r.Concepts) {
			add(s.ByConcept, c, ok)
		}
		add(s.ByLevel, r.Level, ok)
	}
	if s.Questions > 0 {
		s.Accuracy = float64(s.CorrectQuestions) / float64(s.Questions)
		s.ProportionalAccuracy = prop / float64(s.Questions)
	}
	if subTotal > 0 {
		s.SubanswerAccuracy = float64(sub) / float64(subTotal)
	}
	for _, m := range []map[string]ConceptScore{s.ByConcept, s.ByLevel} {
		for k, c := range m {
			c.Accuracy = float64(c.Correct) / float64(c.Questions)
			m[k] = c
		}
	}
	return s
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

package closedform

import (
	"regexp"
	"strconv"
	"strings"
)

// Answers written as a Python dict, "@monthly_avg[{'month_1': avg_1,
// ..., 'month_12': avg_12}]" or "@missing[{'DATE TIME': val_1, 'WINDSPEED':
// val_2}]", are answered key by key: each key with the answer's own words
// names a column or a group.

var dictKeyRe = regexp.MustCompile(`'([^']{1,60})'\s*:`)

// dictKeys reads the keys of a dict placeholder, filling in a numbered
// run written with an ellipsis ('month_1', ..., 'month_12').
func dictKeys(ph string) []string {
	var keys []string
	for _, m := range dictKeyRe.FindAllStringSubmatch(ph, -1) {
		keys = append(keys, m[1])
	}
	if len(keys) >= 2 && strings.Contains(ph, "...") {
		num := regexp.MustCompile(`^(.*?)(\d+)$`)
		a, b := num.FindStringSubmatch(keys[0]), num.FindStringSubmatch(keys[len(keys)-1])
		if a != nil && b != nil && a[1] == b[1] {
			lo, _ := strconv.Atoi(a[2])
			hi, _ := strconv.Atoi(b[2])
			if hi > lo && hi-lo < 100 {
				keys = keys[:0]
				for i := lo; i <= hi; i++ {
					keys = append(keys, a[1]+strconv.Itoa(i))
				}
			}
		}
	}
	return keys
}

// dictAnswer answers a want whose placeholder is a dict.
func (a *analysis) dictAnswer(w *want) (string, bool) {
	if !strings.HasPrefix(strings.TrimSpace(w.ph), "{") {
		return "", false
	}
	keys := dictKeys(w.ph)
	if len(keys) < 2 {
		return "", false
	}
	var parts []string
	for _, k := range keys {
		sub := &want{spec: Spec{Name: k, Decimals: w.spec.Decimals, Kind: KindNumber}, desc: w.desc}
		sub.words = append(nameWords(k), w.words...)
		if a.clean.col(k) != nil {
			sub.words = w.words
		}
		a.classify(sub)
		if c := a.clean.col(k); c != nil {
			sub.cols = []string{c.name}
		}
		if sub.stat == statNone || sub.stat == statDecision {
			return "", false
		}
		v, ok := a.answer(sub)
		if !ok {
			return "", false
		}
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			v = pyRound(x, w.spec.Decimals)
		}
		parts = append(parts, "'"+k+"': "+v)
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}

package closedform

import (
	"regexp"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Answers whose placeholder lists several values, "@fare_after_scaling[
// min_fare, max_fare, mean_fare]", are answered part by part and joined
// with ", ", each part rounded as its own description says.

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,39}$`)

var clauseSplitRe = regexp.MustCompile(`,\s*(?:while|whereas|and|but)\s+|;|\.\s`)

var decimalsWordRe = regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six)\s+(?:decimal|digit)`)

// partDecimals reads the decimals a description gives a part (-1 when
// it gives none).
func partDecimals(desc string) int {
	if m := decimalsWordRe.FindStringSubmatch(desc); m != nil {
		if n, ok := wordNumber(strings.ToLower(m[1])); ok {
			return int(n)
		}
	}
	low := strings.ToLower(desc)
	if strings.Contains(low, "integer") || strings.Contains(low, "whole number") || strings.Contains(low, "count") {
		return 0
	}
	return -1
}

// partsAnswer answers a want whose placeholder lists its parts; ok is
// false when the placeholder is not such a list or a part fails.
func (a *analysis) partsAnswer(w *want) (string, bool) {
	ph := strings.TrimSpace(w.ph)
	if !strings.Contains(ph, ",") || strings.Contains(ph, "...") || strings.Contains(ph, "…") || strings.ContainsAny(ph, "{}'\"") {
		return "", false
	}
	var parts []string
	for _, p := range strings.Split(ph, ",") {
		p = strings.TrimSpace(p)
		if !identRe.MatchString(p) {
			return "", false
		}
		parts = append(parts, p)
	}
	if len(parts) < 2 || len(parts) > 6 {
		return "", false
	}
	format := normalizeText(a.q.Format)
	sentences := splitSentences(placeholderRe.ReplaceAllStringFunc(format, func(s string) string { return strings.Repeat(" ", len(s)) }))
	var out []string
	for _, p := range parts {
		pre := regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + quarry.QuoteRegexp(p) + `($|[^\pL\pN_])`)
		var desc []string
		for _, s := range sentences {
			if pre.MatchString(s) {
				desc = append(desc, s)
			}
		}
		d := strings.Join(desc, " ")
		sub := &want{spec: Spec{Name: p, Decimals: w.spec.Decimals, Kind: KindNumber}, ph: p, desc: d}
		// the rounding stated in the clause that names the part
		for _, clause := range clauseSplitRe.Split(d, -1) {
			if pre.MatchString(clause) {
				if pd := partDecimals(clause); pd >= 0 {
					sub.spec.Decimals = pd
					break
				}
			}
		}
		// the part's own words first, then the answer's (its column, its stage)
		sub.words = append(nameWords(p), w.words...)
		a.classify(sub)
		if sub.stat == statNone || sub.stat == statDecision {
			return "", false
		}
		v, ok := a.answer(sub)
		if !ok {
			return "", false
		}
		out = append(out, v)
	}
	return strings.Join(out, ", "), true
}

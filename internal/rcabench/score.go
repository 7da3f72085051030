package rcabench

import (
	"sort"
	"strings"

	"github.com/quarry-dev/quarry/drill"
)

// ParseSet splits a root-cause set string ("a=a1&b=b2;c=c3") into
// normalised elements: attributes sorted inside each element, duplicates
// removed, elements sorted. An empty string is the empty set.
func ParseSet(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, el := range strings.Split(s, ";") {
		el = NormalizeElement(el)
		if el == "" || seen[el] {
			continue
		}
		seen[el] = true
		out = append(out, el)
	}
	sort.Strings(out)
	return out
}

// NormalizeElement sorts the attr=value pairs of one element and drops
// surrounding blanks, so "b=b2&a=a1" and "a=a1&b=b2" compare equal.
func NormalizeElement(el string) string {
	var parts []string
	for _, p := range strings.Split(el, "&") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// Element renders one found segment of c as a normalised element string.
func Element(c *drill.Cube, conds []drill.Cond) string {
	parts := make([]string, len(conds))
	for i, cd := range conds {
		parts[i] = c.Dims[cd.Dim] + "=" + c.Labels[cd.Dim][cd.Code]
	}
	return NormalizeElement(strings.Join(parts, "&"))
}

// Counts holds exact-match counts summed over cases.
type Counts struct {
	TP, FP, FN int
}

// Match scores one case: a predicted element counts only if it is
// identical to a labelled one (a parent or a child of the truth is one FP
// and one FN). Both sets are normalised first.
func Match(pred, truth []string) Counts {
	p := ParseSet(strings.Join(pred, ";"))
	t := ParseSet(strings.Join(truth, ";"))
	inTruth := make(map[string]bool, len(t))
	for _, e := range t {
		inTruth[e] = true
	}
	var c Counts
	for _, e := range p {
		if inTruth[e] {
			c.TP++
		}
	}
	c.FP = len(p) - c.TP
	c.FN = len(t) - c.TP
	return c
}

// Add returns the element-wise sum of c and o.
func (c Counts) Add(o Counts) Counts {
	return Counts{TP: c.TP + o.TP, FP: c.FP + o.FP, FN: c.FN + o.FN}
}

// Precision is TP/(TP+FP), 0 when nothing was predicted.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP/(TP+FN), 0 when there was nothing to find.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 is the micro F1 2TP/(2TP+FP+FN), 0 when all counts are 0.
func (c Counts) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

package closedform

import (
	"math"
	"strings"
)

// countAnswer answers counts: of outliers, missing values, duplicates,
// rows left, distinct values, or rows in a group.
func (a *analysis) countAnswer(w *want) (float64, bool) {
	words := strings.Join(w.words, " ")
	switch {
	case strings.Contains(words, "outlier") || (a.has("outlier") && !strings.Contains(words, "row") && !strings.Contains(words, "entries") && !strings.Contains(words, "left") && !strings.Contains(words, "remaining") && !strings.Contains(words, "missing")):
		o := a.outliers
		if o.method == "" {
			o = a.outlierRule()
		}
		if o.method == "" {
			return 0, false
		}
		f := a.groupFrame(w, a.base)
		if f == nil {
			return 0, false
		}
		var s *series
		if len(w.cols) > 0 {
			s = f.col(w.cols[0])
		}
		if s == nil && a.outlierOn != "" {
			s = f.col(a.outlierOn)
		}
		if s == nil {
			if c := a.outlierColumn(f); c != "" {
				s = f.col(c)
			}
		}
		if s == nil {
			return 0, false
		}
		n := 0
		for _, m := range outlierMask(s.numeric(), o) {
			if m {
				n++
			}
		}
		return float64(n), true
	case strings.Contains(words, "missing") || strings.Contains(words, "null") || strings.Contains(words, "nan"):
		f := a.base
		if w.stage == "after" {
			f = a.clean
		}
		s := a.anyTarget(w, f)
		if s == nil {
			return 0, false
		}
		n := 0
		for _, x := range s.numeric() {
			if math.IsNaN(x) {
				n++
			}
		}
		if s.kind == kindText {
			n = 0
			for _, m := range s.missing {
				if m {
					n++
				}
			}
		}
		return float64(n), true
	case has(w.words, "within"):
		// values within k standard deviations of the mean
		k := 1.0
		for _, x := range w.words {
			if v, ok := wordNumber(x); ok && v > 0 && v <= 5 {
				k = v
			}
		}
		xs, _, ok := a.values(w)
		if !ok {
			return 0, false
		}
		m, sd := mean(xs), std(xs, a.ddof(w))
		n := 0
		for _, x := range xs {
			if math.Abs(x-m) <= k*sd {
				n++
			}
		}
		return float64(n), true
	case strings.Contains(words, "duplicate"):
		return float64(a.dupes), true
	case strings.Contains(words, "unique") || strings.Contains(words, "distinct"):
		f := a.frameFor(w)
		s := a.anyTarget(w, f)
		if s == nil {
			return 0, false
		}
		seen := map[string]bool{}
		for i, v := range s.str {
			if !s.missing[i] {
				seen[v] = true
			}
		}
		return float64(len(seen)), true
	}
	f := a.groupFrame(w, a.frameFor(w))
	if f == nil {
		return 0, false
	}
	return float64(f.rows), true
}

// anyTarget is the column an answer is about, whatever its type.
func (a *analysis) anyTarget(w *want, f *frame) *series {
	cands := append([]string(nil), w.cols...)
	for _, mt := range a.m.find(w.desc) {
		cands = append(cands, mt.col)
	}
	cands = append(cands, a.primary()...)
	for _, c := range cands {
		if s := f.col(c); s != nil {
			return s
		}
	}
	return nil
}

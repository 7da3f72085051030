package closedform

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Answers about the outliers themselves: their values, the labels of
// their rows ("outlier_countries", "outlier_ids"), their row numbers,
// or statistics over them ("mean_charges_outliers").

// aboutOutliers reports whether a want's name speaks of outliers.
func aboutOutliers(w *want) bool {
	return has(w.words, "outlier") || has(w.words, "outliers")
}

// outlierRows returns the frame the outliers are looked for in, the
// column and the mask of outlier rows.
func (a *analysis) outlierRows(w *want) (*frame, *series, []bool, bool) {
	o := a.outliers
	if o.method == "" {
		o = a.outlierRule()
	}
	if o.method == "" {
		return nil, nil, nil, false
	}
	f := a.groupFrame(w, a.base)
	if f == nil {
		return nil, nil, nil, false
	}
	var s *series
	for _, c := range w.cols {
		if cs := f.col(c); cs != nil && cs.kind == kindNum {
			s = cs
			break
		}
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
		return nil, nil, nil, false
	}
	return f, s, outlierMask(s.numeric(), o), true
}

// outlierAnswer answers a want about the outliers; ok is false when the
// want is about something else.
func (a *analysis) outlierAnswer(w *want) (string, bool) {
	listish := w.spec.Kind == KindText && (strings.Contains(w.ph, ",") || strings.Contains(w.ph, "...") || strings.Contains(strings.ToLower(w.desc), "list"))
	if !aboutOutliers(w) && !(listish && a.has("outlier")) || w.stat == statCount || w.stat == statDecision {
		return "", false
	}
	if has(w.words, "without") || has(w.words, "after") || has(w.words, "removed") || has(w.words, "removal") || has(w.words, "with") || w.stage != "" {
		return "", false
	}
	f, s, mask, ok := a.outlierRows(w)
	if !ok {
		return "", false
	}
	if descriptiveStats[w.stat] || w.stat == statRange {
		var xs []float64
		for i, m := range mask {
			if m && !math.IsNaN(s.numeric()[i]) {
				xs = append(xs, s.numeric()[i])
			}
		}
		if len(xs) == 0 {
			return "", false
		}
		x, ok := a.stat(w, w.stat, xs)
		if !ok {
			return "", false
		}
		return formatValue(x, w.spec), true
	}
	if w.spec.Kind != KindText && w.spec.Kind != "" && !strings.Contains(strings.ToLower(w.desc+w.ph), "list") {
		return "", false
	}
	// a list: of another column's values, of row numbers, or of the values
	desc := strings.ToLower(w.desc + " " + w.ph + " " + strings.Join(w.words, " "))
	var label *series
	for _, c := range append(append([]string(nil), w.cols...), columnsOf(a.m.find(w.desc+" "+w.ph))...) {
		if c != s.name {
			label = f.col(c)
			break
		}
	}
	if label == nil {
		for _, x := range w.words {
			if x == "outlier" || x == "outliers" || fillerWords[x] {
				continue
			}
			for _, c := range f.cols {
				if c != s && c.kind != kindNum || c.kind == kindNum && categorical(c) && c != s {
					for _, cw := range nameWords(c.name) {
						if sameWord(cw, x) || len(x) >= 3 && strings.HasPrefix(cw, x) && x != "value" {
							label = c
						}
					}
				}
				if label != nil {
					break
				}
			}
			if label != nil {
				break
			}
		}
	}
	var items []string
	var nums []float64
	rows := strings.Contains(desc, "row number") || strings.Contains(desc, "index") || strings.Contains(desc, "location")
	for i, m := range mask {
		if !m {
			continue
		}
		switch {
		case rows:
			nums = append(nums, float64(i))
		case label != nil:
			items = append(items, label.str[i])
		default:
			nums = append(nums, s.numeric()[i])
		}
	}
	if strings.Contains(desc, "ascending") || strings.Contains(desc, "sorted") {
		sort.Float64s(nums)
		sortStrings(items)
	}
	for _, x := range nums {
		items = append(items, pyRound(x, w.spec.Decimals))
	}
	sep := ", "
	if strings.Contains(w.ph, ",") && !strings.Contains(w.ph, ", ") {
		sep = ","
	}
	return strings.Join(items, sep), true
}

// pyRound prints x as Python prints round(x, d): the shortest repr, with
// ".0" for whole floats; integers when d is 0 or unknown and x is whole.
func pyRound(x float64, d int) string {
	if d < 0 || d == 0 {
		if x == math.Trunc(x) {
			return strconv.FormatFloat(x, 'f', 0, 64)
		}
		if d < 0 {
			d = 2
		}
	}
	p := math.Pow(10, float64(d))
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	_ = p
	s := strconv.FormatFloat(r, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

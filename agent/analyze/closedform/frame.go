package closedform

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// series is one column held in memory the way pandas would hold it after
// read_csv: numbers as float64 with NaN for missing values, text as
// strings, dates as times.
type series struct {
	name    string
	kind    int       // kindNum, kindText, kindTime, kindBool
	num     []float64 // NaN where missing or not a number
	str     []string  // the value as text ("" where missing)
	tm      []time.Time
	missing []bool
	numc    []float64 // numeric(), computed once
}

const (
	kindNum = iota
	kindText
	kindTime
	kindBool
)

// frame is a table in row order.
type frame struct {
	cols []*series
	rows int
}

func (f *frame) col(name string) *series {
	for _, c := range f.cols {
		if c.name == name {
			return c
		}
	}
	for _, c := range f.cols {
		if strings.EqualFold(c.name, name) {
			return c
		}
	}
	return nil
}

// naText are the strings pandas' read_csv reads as missing.
var naText = map[string]bool{"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true, "NA": true, "NULL": true,
	"NaN": true, "None": true, "n/a": true, "nan": true, "null": true}

// loadFrame reads the whole relation in row order.
func loadFrame(ctx context.Context, q Querier, table string) (*frame, error) {
	res, err := q.Query(ctx, "SELECT * FROM "+table)
	if err != nil {
		return nil, err
	}
	return frameFromResult(res), nil
}

func frameFromResult(res *quarry.QueryResult) *frame {
	f := &frame{rows: len(res.Rows)}
	for j, name := range res.Columns {
		s := &series{name: name, num: make([]float64, f.rows), str: make([]string, f.rows), missing: make([]bool, f.rows)}
		kinds := map[int]int{}
		for i, row := range res.Rows {
			v := row[j]
			switch v := v.(type) {
			case nil:
				s.missing[i] = true
				s.num[i] = math.NaN()
			case int64:
				s.num[i] = float64(v)
				s.str[i] = strconv.FormatInt(v, 10)
				kinds[kindNum]++
			case int32:
				s.num[i] = float64(v)
				s.str[i] = strconv.FormatInt(int64(v), 10)
				kinds[kindNum]++
			case float64:
				s.num[i] = v
				s.str[i] = strconv.FormatFloat(v, 'f', -1, 64)
				if math.IsNaN(v) {
					s.missing[i] = true
				}
				kinds[kindNum]++
			case bool:
				s.num[i] = 0
				if v {
					s.num[i] = 1
				}
				s.str[i] = strconv.FormatBool(v)
				kinds[kindBool]++
			case time.Time:
				if s.tm == nil {
					s.tm = make([]time.Time, f.rows)
				}
				s.tm[i] = v
				s.num[i] = float64(v.Unix())
				s.str[i] = v.Format("2006-01-02 15:04:05")
				if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 {
					s.str[i] = v.Format("2006-01-02")
				}
				kinds[kindTime]++
			case string:
				s.str[i] = v
				if naText[strings.TrimSpace(v)] {
					s.missing[i] = true
					s.str[i] = ""
					s.num[i] = math.NaN()
					continue
				}
				if x, ok := parseNumber(v); ok {
					s.num[i] = x
					kinds[kindNum]++
				} else {
					s.num[i] = math.NaN()
					kinds[kindText]++
				}
			default:
				s.str[i] = quarry.AsText(v)
				s.num[i] = math.NaN()
				kinds[kindText]++
			}
		}
		if kinds[kindText] > 0 && clockColumn(s) {
			kinds[kindText] = 0
			kinds[kindNum] = 1
		}
		switch {
		case kinds[kindText] > 0:
			s.kind = kindText
		case kinds[kindTime] > 0:
			s.kind = kindTime
		case kinds[kindBool] > 0:
			s.kind = kindBool
		default:
			s.kind = kindNum
		}
		f.cols = append(f.cols, s)
	}
	return f
}

// parseNumber reads a number the way float() does, allowing surrounding
// blanks.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return x, true
}

// looseNumber reads the leading number of text such as "1,234",
// "128567[21000-287000]", "$12.5" or "+3": what a cleaning step that
// drops non-numeric characters keeps.
func looseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£ ")
	var b strings.Builder
	seenDigit := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
			seenDigit = true
		case r == '.' || ((r == '-' || r == '+') && i == 0):
			b.WriteRune(r)
		case r == ',' && seenDigit:
			// thousands separator
		case (r == 'e' || r == 'E') && seenDigit:
			b.WriteRune(r)
		default:
			if seenDigit {
				goto done
			}
			if r != ' ' {
				return 0, false
			}
		}
	}
done:
	x, err := strconv.ParseFloat(strings.TrimRight(b.String(), "eE.+-"), 64)
	if err != nil {
		return 0, false
	}
	return x, true
}

// numeric returns the column as numbers: as read when numeric, else the
// leading number of each text value (a conversion the question asks for).
func (s *series) numeric() []float64 {
	if s.kind != kindText {
		return s.num
	}
	if s.numc != nil {
		return s.numc
	}
	out := make([]float64, len(s.str))
	s.numc = out
	for i, v := range s.str {
		out[i] = math.NaN()
		if s.missing[i] {
			continue
		}
		if x, ok := looseNumber(v); ok {
			out[i] = x
		}
	}
	return out
}

// numericShare is the share of non-missing values that read as numbers.
func (s *series) numericShare() float64 {
	if s.kind == kindNum || s.kind == kindBool {
		return 1
	}
	if s.kind == kindTime {
		return 0
	}
	n, ok := 0, 0
	for i, v := range s.str {
		if s.missing[i] {
			continue
		}
		n++
		if _, good := looseNumber(v); good {
			ok++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ok) / float64(n)
}

// present drops NaN.
func present(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// pairs returns the rows where both x and y are present.
func pairs(x, y []float64) ([]float64, []float64) {
	var a, b []float64
	for i := range x {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			a = append(a, x[i])
			b = append(b, y[i])
		}
	}
	return a, b
}

// subset returns a frame with the rows where keep is true.
func (f *frame) subset(keep []bool) *frame {
	out := &frame{}
	var idx []int
	for i, k := range keep {
		if k {
			idx = append(idx, i)
		}
	}
	out.rows = len(idx)
	for _, c := range f.cols {
		out.cols = append(out.cols, c.take(idx))
	}
	return out
}

func (s *series) take(idx []int) *series {
	n := &series{name: s.name, kind: s.kind, num: make([]float64, len(idx)), str: make([]string, len(idx)), missing: make([]bool, len(idx))}
	if s.tm != nil {
		n.tm = make([]time.Time, len(idx))
	}
	for k, i := range idx {
		n.num[k], n.str[k], n.missing[k] = s.num[i], s.str[i], s.missing[i]
		if s.tm != nil {
			n.tm[k] = s.tm[i]
		}
	}
	return n
}

// clone copies the frame so that steps can change columns.
func (f *frame) clone() *frame {
	idx := make([]int, f.rows)
	for i := range idx {
		idx[i] = i
	}
	out := &frame{rows: f.rows}
	for _, c := range f.cols {
		out.cols = append(out.cols, c.take(idx))
	}
	return out
}

// setNum adds or replaces a numeric column.
func (f *frame) setNum(name string, vals []float64) *series {
	s := &series{name: name, kind: kindNum, num: vals, str: make([]string, len(vals)), missing: make([]bool, len(vals))}
	for i, v := range vals {
		if math.IsNaN(v) {
			s.missing[i] = true
		} else {
			s.str[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	for i, c := range f.cols {
		if c.name == name {
			f.cols[i] = s
			return s
		}
	}
	f.cols = append(f.cols, s)
	return s
}

// setText adds or replaces a text column.
func (f *frame) setText(name string, vals []string) *series {
	s := &series{name: name, kind: kindText, num: make([]float64, len(vals)), str: vals, missing: make([]bool, len(vals))}
	for i, v := range vals {
		s.num[i] = math.NaN()
		if v == "" {
			s.missing[i] = true
		} else if x, ok := parseNumber(v); ok {
			s.num[i] = x
		}
	}
	for i, c := range f.cols {
		if c.name == name {
			f.cols[i] = s
			return s
		}
	}
	f.cols = append(f.cols, s)
	return s
}

var clockRe = regexp.MustCompile(`^\s*(\d{1,3}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*$`)

// clockColumn turns a text column of durations or clock times (HH:MM:SS)
// into seconds; it reports whether it did.
func clockColumn(s *series) bool {
	n := 0
	for i, v := range s.str {
		if s.missing[i] {
			continue
		}
		if !clockRe.MatchString(v) {
			return false
		}
		n++
	}
	if n == 0 {
		return false
	}
	for i, v := range s.str {
		if s.missing[i] {
			continue
		}
		m := clockRe.FindStringSubmatch(v)
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		sec := 0
		if m[3] != "" {
			sec, _ = strconv.Atoi(m[3])
		}
		s.num[i] = float64(h*3600 + mi*60 + sec)
	}
	return true
}

package closedform

import (
	"math"
	"regexp"
	"strings"
)

// New columns: the text defines them by a formula ("Volatility = (High -
// Low) / Open"), in words ("the sum of SibSp and Parch", "dividing the
// horsepower by the weight", "the difference between High and Low"), as
// a transformation (log, min-max scaling, standardization) or as bins
// ("'Child' (0-12 years old), 'Teenager' (13-19 years old), ...").

var (
	newColRe     = regexp.MustCompile(`(?i)(?:new|create[sd]?|creating|generate[sd]?|generating|add(?:ed|ing)?|called|named|feature|column|variable)\s+(?:a\s+)?(?:new\s+)?(?:binary\s+)?(?:feature|column|variable|field|category|categories)?\s*(?:called|named|titled|:|-)?\s*["']([^"'\n]{1,60})["']`)
	quotedNameRe = regexp.MustCompile(`["']([^"'\n]{1,60})["']\s+(?:feature|column|variable)`)
)

// sentencesOf splits text into sentences keeping their offsets.
func sentencesOf(text string) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || c == ';'
		if c == '.' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') && !(i > 0 && text[i-1] >= '0' && text[i-1] <= '9' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9') {
			// "e.g." and "vs." do not end sentences
			w := text[max(0, i-4):i]
			if !strings.HasSuffix(w, "e.g") && !strings.HasSuffix(w, "i.e") && !strings.HasSuffix(w, "vs") && !strings.HasSuffix(w, "No") && !strings.HasSuffix(w, " Mr") && !strings.HasSuffix(w, "Mrs") && !strings.HasSuffix(w, "iss") && !strings.HasSuffix(w, "ter") {
				end = true
			}
		}
		if end {
			if strings.TrimSpace(text[start:i]) != "" {
				out = append(out, [2]int{start, i})
			}
			start = i + 1
		}
	}
	if strings.TrimSpace(text[start:]) != "" {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

// addFeatures adds the columns the text defines to f and records their
// names.
func (a *analysis) addFeatures(f *frame) {
	text := a.text
	low := a.low
	defined := map[string]bool{}
	sents := sentencesOf(text)
	for si, sp := range sents {
		sent := text[sp[0]:sp[1]]
		lsent := low[sp[0]:sp[1]]
		name := ""
		if m := newColRe.FindStringSubmatch(sent); m != nil && f.col(m[1]) == nil {
			name = strings.TrimSpace(m[1])
		} else if m := quotedNameRe.FindStringSubmatch(sent); m != nil && f.col(m[1]) == nil && (strings.Contains(lsent, "new") || strings.Contains(lsent, "creat") || strings.Contains(lsent, "generat")) {
			name = strings.TrimSpace(m[1])
		}
		creates := strings.Contains(lsent, "new feature") || strings.Contains(lsent, "new column") || strings.Contains(lsent, "new variable") ||
			strings.Contains(lsent, "create") || strings.Contains(lsent, "generate") || strings.Contains(lsent, "calculate") ||
			strings.Contains(lsent, "define") || strings.Contains(lsent, "feature") || strings.Contains(lsent, "=")
		if name == "" && !creates {
			continue
		}
		if name != "" && defined[strings.ToLower(name)] {
			continue
		}
		// the definition: this sentence, else the next ones, else the
		// constraints' sentences naming the feature
		var vals []float64
		ok := false
		anonymous := name == ""
		if anonymous && !regexp.MustCompile(`new (?:binary )?(?:feature|column|variable)`).MatchString(lsent) {
			continue
		}
		cands := []string{sent}
		for k := si + 1; k < len(sents) && k < si+3 && !anonymous; k++ {
			cands = append(cands, text[sents[k][0]:sents[k][1]])
		}
		if name != "" {
			for _, sp2 := range sents {
				s2 := text[sp2[0]:sp2[1]]
				if strings.Contains(strings.ToLower(s2), strings.ToLower(name)) && s2 != sent {
					cands = append(cands, s2)
				}
			}
		}
		if bins, ok2 := a.defineBins(f, sent, name); ok2 {
			if name == "" {
				name = "group"
			}
			f.setText(name, bins)
			defined[strings.ToLower(name)] = true
			a.created = append(a.created, name)
			continue
		}
		for _, c := range cands {
			if vals, ok = a.defineColumn(f, c, name); ok {
				break
			}
		}
		if !ok {
			continue
		}
		if name == "" {
			name = "new_feature"
		}
		if defined[strings.ToLower(name)] {
			continue
		}
		defined[strings.ToLower(name)] = true
		f.setNum(name, vals)
		a.created = append(a.created, name)
	}
	a.addTitle(f)
	if len(a.created) > 0 {
		var names []string
		for _, c := range f.cols {
			names = append(names, c.name)
		}
		a.m = newMatcher(names)
		a.qMent = a.m.find(a.qText)
		a.ment = a.m.find(a.text)
	}
}

// operand is a column mention in a definition, with a lag when the text
// says "previous day".
type operand struct {
	col   string
	start int
	end   int
	lag   bool
}

func (a *analysis) operands(f *frame, sent, exclude string) []operand {
	var out []operand
	low := strings.ToLower(sent)
	var nameSpans [][2]int
	if exclude != "" {
		le := strings.ToLower(exclude)
		for off := 0; ; {
			i := strings.Index(low[off:], le)
			if i < 0 {
				break
			}
			nameSpans = append(nameSpans, [2]int{off + i, off + i + len(le)})
			off += i + 1
		}
	}
	seen := map[string]bool{}
	for _, m := range a.m.find(sent) {
		if strings.EqualFold(m.col, exclude) {
			continue
		}
		inName := false
		for _, sp := range nameSpans {
			if m.start < sp[1] && m.end > sp[0] {
				inName = true
			}
		}
		if inName {
			continue
		}
		s := f.col(m.col)
		if s == nil || (s.kind != kindNum && s.kind != kindBool && s.kind != kindTime && s.numericShare() < 0.5) {
			continue
		}
		op := operand{col: m.col, start: m.start, end: m.end}
		tail := low[m.end:min(len(low), m.end+30)]
		if strings.Contains(tail, "previous") || strings.Contains(tail, "yesterday") || strings.Contains(tail, "prior") {
			op.lag = true
		}
		key := op.col
		if op.lag {
			key += "\x00lag"
		}
		if seen[key] && !strings.ContainsAny(sent, "+-*/") {
			continue
		}
		seen[key] = true
		out = append(out, op)
	}
	return out
}

func (a *analysis) colValues(f *frame, op operand) []float64 {
	s := f.col(op.col)
	vals := s.numeric()
	if s.kind == kindTime {
		vals = make([]float64, len(s.num))
		for i, x := range s.num {
			vals[i] = x / 86400 // days
		}
	}
	if op.lag {
		out := make([]float64, len(vals))
		out[0] = math.NaN()
		copy(out[1:], vals[:len(vals)-1])
		return out
	}
	return vals
}

// defineColumn reads a definition of a new column from sent.
func (a *analysis) defineColumn(f *frame, sent, name string) ([]float64, bool) {
	low := strings.ToLower(sent)
	ops := a.operands(f, sent, name)
	// a formula after "=" or "as"
	if i := strings.Index(sent, "="); i >= 0 {
		rhs := sent[i+1:]
		if vals, ok := a.formula(f, rhs, sent[:i+1]); ok {
			return vals, true
		}
	}
	for _, key := range []string{" as ", " is ", ":"} {
		if i := strings.Index(low, key); i >= 0 && strings.ContainsAny(sent[i:], "+-*/") {
			if vals, ok := a.formula(f, sent[i+len(key):], sent[:i+len(key)]); ok {
				return vals, true
			}
		}
	}
	if len(ops) == 0 {
		return nil, false
	}
	vs := make([][]float64, len(ops))
	for i, op := range ops {
		vs[i] = a.colValues(f, op)
	}
	n := f.rows
	combine := func(fn func(x []float64) float64) []float64 {
		out := make([]float64, n)
		for r := 0; r < n; r++ {
			row := make([]float64, len(vs))
			for k := range vs {
				row[k] = vs[k][r]
			}
			out[r] = fn(row)
		}
		return out
	}
	pos := func(key string) int { return strings.Index(low, key) }
	switch {
	case len(ops) >= 2 && (pos("percentage change") >= 0):
		return nil, false
	case len(ops) >= 2 && (pos("subtract") >= 0 || pos("difference") >= 0 || pos(" minus ") >= 0 || pos("deduct") >= 0):
		x, y := vs[0], vs[1]
		if i := pos("subtract"); i >= 0 {
			if j := strings.Index(low[i:], " from "); j >= 0 {
				// subtracting B from A
				j += i
				if ops[0].start < j && ops[1].start > j {
					x, y = vs[1], vs[0]
				}
			}
		}
		out := make([]float64, n)
		for r := range out {
			out[r] = x[r] - y[r]
		}
		return out, true
	case len(ops) >= 2 && (pos("divid") >= 0 || pos("ratio") >= 0 || pos(" per ") >= 0 || pos(" over ") >= 0):
		x, y := vs[0], vs[1]
		if i := pos("divid"); i >= 0 && strings.Contains(low[i:], " into ") {
			x, y = vs[1], vs[0]
		}
		eps := 0.0
		if strings.Contains(low, "1e-10") || strings.Contains(low, "small constant") {
			eps = 1e-10
		}
		zeroToZero := strings.Contains(low, "zero") && (strings.Contains(low, "defined as zero") || strings.Contains(low, "replace") || strings.Contains(low, "set to zero") || strings.Contains(low, "be zero") || strings.Contains(low, "with zero"))
		out := make([]float64, n)
		for r := range out {
			d := y[r] + eps
			out[r] = x[r] / d
			if (d == 0 || math.IsInf(out[r], 0)) && zeroToZero {
				out[r] = 0
			}
		}
		return out, true
	case len(ops) >= 2 && (pos("multipl") >= 0 || pos("product") >= 0 || pos(" times ") >= 0):
		return combine(func(x []float64) float64 {
			p := 1.0
			for _, v := range x {
				p *= v
			}
			return p
		}), true
	case len(ops) >= 2 && (pos("average") >= 0 || pos("mean") >= 0) && !strings.Contains(low, "sum"):
		// pandas' mean(axis=1) skips missing values
		return combine(func(x []float64) float64 { return mean(present(x)) }), true
	case len(ops) >= 2 && (pos("sum") >= 0 || pos("add") >= 0 || pos(" plus ") >= 0 || pos("combin") >= 0 || pos("total") >= 0):
		extra := 0.0
		if m := regexp.MustCompile(`\+\s*(\d+)`).FindStringSubmatch(low); m != nil {
			x, _ := parseNumber(m[1])
			extra = x
		}
		return combine(func(x []float64) float64 {
			s := extra
			for _, v := range x {
				s += v
			}
			return s
		}), true
	case len(ops) == 1 && (pos("log") >= 0):
		x := vs[0]
		out := make([]float64, n)
		for r := range out {
			v := x[r]
			if strings.Contains(low, "1e-10") {
				v += 1e-10
			}
			if strings.Contains(low, "log1p") || strings.Contains(low, "log(1 +") || strings.Contains(low, "log(x+1)") || strings.Contains(low, "log(x + 1)") {
				v++
			}
			if strings.Contains(low, "base 10") || strings.Contains(low, "log10") || strings.Contains(low, "base-10") {
				out[r] = math.Log10(v)
			} else if strings.Contains(low, "base 2") || strings.Contains(low, "log2") {
				out[r] = math.Log2(v)
			} else {
				out[r] = math.Log(v)
			}
		}
		return out, true
	case len(ops) == 1 && (pos("subtracting the mean") >= 0 || pos("minus the mean") >= 0 || pos("center") >= 0):
		x := vs[0]
		m := mean(present(x))
		out := make([]float64, n)
		for r := range out {
			out[r] = x[r] - m
		}
		return out, true
	case len(ops) == 1 && (pos("min-max") >= 0 || pos("minmax") >= 0 || pos("normaliz") >= 0 || pos("range of [0, 1]") >= 0 || pos("between 0 and 1") >= 0):
		return minMaxScale(vs[0]), true
	case len(ops) == 1 && (pos("standardiz") >= 0 || pos("z-score") >= 0):
		return standardize(vs[0]), true
	case len(ops) == 1 && (pos("percentage change") >= 0 || pos("pct_change") >= 0 || pos("daily return") >= 0):
		x := vs[0]
		out := make([]float64, n)
		out[0] = math.NaN()
		for r := 1; r < n; r++ {
			out[r] = (x[r] - x[r-1]) / x[r-1] * 100
		}
		return out, true
	}
	return nil, false
}

func minMaxScale(x []float64) []float64 {
	lo, hi := minMax(present(x))
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = (v - lo) / (hi - lo)
	}
	return out
}

func standardize(x []float64) []float64 {
	p := present(x)
	m, s := mean(p), std(p, 0)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = (v - m) / s
	}
	return out
}

// formula evaluates an arithmetic expression over columns and numbers.
func (a *analysis) formula(f *frame, rhs, lhs string) ([]float64, bool) {
	// cut the expression at the end of its clause
	if i := strings.IndexAny(rhs, ".;\n"); i >= 0 {
		for i >= 0 && i+1 < len(rhs) && rhs[i] == '.' && rhs[i+1] >= '0' && rhs[i+1] <= '9' {
			j := strings.IndexAny(rhs[i+1:], ".;\n")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i >= 0 {
			rhs = rhs[:i]
		}
	}
	ops := a.operands(f, rhs, "")
	if len(ops) == 0 || !strings.ContainsAny(rhs, "+-*/") {
		return nil, false
	}
	// build a token list: operands, numbers, operators, parentheses
	type tok struct {
		kind byte // 'c' column, 'n' number, 'o' operator, '(' ')'
		op   operand
		x    float64
		o    byte
	}
	var toks []tok
	for i := 0; i < len(rhs); {
		matched := false
		for _, op := range ops {
			if op.start == i {
				toks = append(toks, tok{kind: 'c', op: op})
				i = op.end
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		c := rhs[i]
		if c == '(' {
			if j := strings.IndexByte(rhs[i:], ')'); j > 0 {
				inner := rhs[i+1 : i+j]
				hasOp := strings.ContainsAny(inner, "0123456789+-*/(")
				for _, op := range ops {
					if op.start > i && op.start < i+j {
						hasOp = true
					}
				}
				if !hasOp {
					i += j + 1
					continue
				}
			}
		}
		switch {
		case c == '(' || c == ')':
			toks = append(toks, tok{kind: c})
			i++
		case c == '+' || c == '*' || c == '/' || c == '-':
			toks = append(toks, tok{kind: 'o', o: c})
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(rhs) && rhs[i+1] >= '0' && rhs[i+1] <= '9':
			j := i
			for j < len(rhs) && (rhs[j] >= '0' && rhs[j] <= '9' || rhs[j] == '.' || rhs[j] == 'e' && j+1 < len(rhs) && (rhs[j+1] == '-' || rhs[j+1] >= '0' && rhs[j+1] <= '9') || (rhs[j] == '-' && j > i && rhs[j-1] == 'e')) {
				j++
			}
			x, ok := parseNumber(rhs[i:j])
			if ok {
				toks = append(toks, tok{kind: 'n', x: x})
			}
			i = j
		default:
			i++
		}
	}
	// shunting-yard into a postfix program
	prec := map[byte]int{'+': 1, '-': 1, '*': 2, '/': 2}
	var out []tok
	var stack []tok
	prevOperand := false
	for _, t := range toks {
		switch t.kind {
		case 'c', 'n':
			if prevOperand {
				return nil, false
			}
			out = append(out, t)
			prevOperand = true
		case 'o':
			if !prevOperand {
				if t.o == '-' {
					out = append(out, tok{kind: 'n', x: 0})
				} else {
					return nil, false
				}
			}
			for len(stack) > 0 && stack[len(stack)-1].kind == 'o' && prec[stack[len(stack)-1].o] >= prec[t.o] {
				out = append(out, stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, t)
			prevOperand = false
		case '(':
			if prevOperand {
				return nil, false
			}
			stack = append(stack, t)
		case ')':
			for len(stack) > 0 && stack[len(stack)-1].kind != '(' {
				out = append(out, stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return nil, false
			}
			stack = stack[:len(stack)-1]
		}
	}
	for len(stack) > 0 {
		if stack[len(stack)-1].kind == '(' {
			return nil, false
		}
		out = append(out, stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	if !prevOperand {
		return nil, false
	}
	n := f.rows
	var vs [][]float64
	for _, t := range out {
		switch t.kind {
		case 'c':
			vs = append(vs, a.colValues(f, t.op))
		case 'n':
			c := make([]float64, n)
			for i := range c {
				c[i] = t.x
			}
			vs = append(vs, c)
		case 'o':
			if len(vs) < 2 {
				return nil, false
			}
			x, y := vs[len(vs)-2], vs[len(vs)-1]
			vs = vs[:len(vs)-2]
			r := make([]float64, n)
			for i := range r {
				switch t.o {
				case '+':
					r[i] = x[i] + y[i]
				case '-':
					r[i] = x[i] - y[i]
				case '*':
					r[i] = x[i] * y[i]
				case '/':
					r[i] = x[i] / y[i]
				}
			}
			vs = append(vs, r)
		}
	}
	if len(vs) != 1 {
		return nil, false
	}
	return vs[0], true
}

var binRe = regexp.MustCompile(`["']?([A-Za-z][\w -]{0,20}?)["']?\s*\(([^()]{1,60})\)`)

// bin is one labelled range.
type bin struct {
	label          string
	lo, hi         float64
	loIncl, hiIncl bool
}

// defineBins reads labelled ranges such as 'Child' (0-12 years old) and
// puts each row of the column they bin into its label.
func (a *analysis) defineBins(f *frame, sent, name string) ([]string, bool) {
	var bins []bin
	for _, m := range binRe.FindAllStringSubmatch(sent, -1) {
		label := strings.TrimSpace(m[1])
		if b, ok := parseRange(m[2]); ok {
			b.label = label
			bins = append(bins, b)
		}
	}
	if len(bins) < 2 {
		return nil, false
	}
	// the column binned: a numeric column mentioned in the sentence
	var col *series
	for _, op := range a.operands(f, sent, name) {
		col = f.col(op.col)
		break
	}
	if col == nil {
		return nil, false
	}
	if debugf != nil {
		debugf("bins %+v over %s", bins, col.name)
	}
	xs := col.numeric()
	if col.kind == kindTime && col.tm != nil {
		xs = make([]float64, len(col.tm))
		for i, t := range col.tm {
			xs[i] = float64(t.Hour()) + float64(t.Minute())/60
		}
	}
	// contiguous integer ranges (0-12, 13-19) become pd.cut bins
	for i := 1; i < len(bins); i++ {
		p := &bins[i-1]
		b := &bins[i]
		if b.loIncl && p.hiIncl && b.lo > p.hi && b.lo-p.hi <= 1 {
			b.lo, b.loIncl = p.hi, false
		}
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		for _, b := range bins {
			if (x > b.lo || b.loIncl && x == b.lo) && (x < b.hi || b.hiIncl && x == b.hi) {
				out[i] = b.label
				break
			}
		}
	}
	return out, true
}

var (
	rangeDashRe  = regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)(?::(\d+))?\s*(?:-|to|–)\s*(-?\d+(?:\.\d+)?)(?::(\d+))?`)
	rangeAboveRe = regexp.MustCompile(`(-?\d+(?:\.\d+)?)\s*(?:\w+\s+){0,3}(?:and|or)\s+(?:above|over|older|more|greater)`)
	rangeCmpRe   = regexp.MustCompile(`(?:(-?\d+(?:\.\d+)?)\s*(<=|<)\s*)?[a-z_ ]*?(<=|<|>=|>)\s*(-?\d+(?:\.\d+)?)`)
)

func parseRange(s string) (bin, bool) {
	s = strings.ToLower(s)
	inf := math.Inf(1)
	if m := rangeDashRe.FindStringSubmatch(s); m != nil {
		lo, _ := parseNumber(m[1])
		hi, _ := parseNumber(m[3])
		if m[2] != "" { // times such as 6:00 to 11:59
			mm, _ := parseNumber(m[2])
			lo += mm / 60
		}
		if m[4] != "" {
			mm, _ := parseNumber(m[4])
			hi += mm / 60
		}
		return bin{lo: lo, hi: hi, loIncl: true, hiIncl: true}, true
	}
	if m := rangeAboveRe.FindStringSubmatch(s); m != nil {
		lo, _ := parseNumber(m[1])
		return bin{lo: lo, hi: inf, loIncl: true}, true
	}
	if m := rangeCmpRe.FindStringSubmatch(s); m != nil {
		x, _ := parseNumber(m[4])
		b := bin{lo: -inf, hi: inf}
		switch m[3] {
		case "<":
			b.hi = x
		case "<=":
			b.hi, b.hiIncl = x, true
		case ">":
			b.lo = x
		case ">=":
			b.lo, b.loIncl = x, true
		}
		if m[1] != "" {
			lo, _ := parseNumber(m[1])
			b.lo, b.loIncl = lo, m[2] == "<="
		}
		return b, true
	}
	return bin{}, false
}

var (
	titleRe     = regexp.MustCompile(`,\s*([A-Za-z][A-Za-z ]{0,20}?)\.`)
	titleListRe = regexp.MustCompile(`'([A-Z][a-z]{1,10})\.?'`)
)

// addTitle adds a "Title" column when the text asks to extract the title
// (honorific) from a column of names written "Last, Title. First": Mr,
// Mrs, Miss, ... Titles the text does not list become "Other" when it
// says to replace the rest.
func (a *analysis) addTitle(f *frame) {
	if !a.has("title") || !a.has("extract") || f.col("Title") != nil {
		return
	}
	for _, s := range f.cols {
		if s.kind != kindText {
			continue
		}
		vals := make([]string, f.rows)
		n, hit := 0, 0
		for i, v := range s.str {
			if s.missing[i] {
				continue
			}
			n++
			if m := titleRe.FindStringSubmatch(v); m != nil {
				vals[i] = strings.TrimSpace(m[1])
				hit++
			}
		}
		if n == 0 || hit*10 < n*8 {
			continue
		}
		if a.has("other") {
			keep := map[string]bool{}
			for _, m := range titleListRe.FindAllStringSubmatch(a.text, -1) {
				keep[m[1]] = true
			}
			if len(keep) > 0 {
				for i, v := range vals {
					if v != "" && !keep[v] {
						vals[i] = "Other"
					}
				}
			}
		}
		f.setText("Title", vals)
		a.created = append(a.created, "Title")
		return
	}
}

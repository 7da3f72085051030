package analyze

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// maxStatRows is the most rows a statistical operation reads into memory;
// a larger input ends the step with RESOURCE_LIMIT rather than a test
// over some of its rows.
const maxStatRows = 2_000_000

// runStats runs a statistical df.transform operation (analysis.StatOperations)
// over the input step's table and keeps its result as the step's table.
func (r *run) runStats(ctx context.Context, t *analysis.Subtask, a *analysis.TransformArgs) (*output, error) {
	in, err := r.input(a.Input, slices.Concat(a.Columns, a.GroupBy, []string{a.Column})...)
	if err != nil {
		return nil, err
	}
	table := analysis.StepTable(t.TaskID)
	switch a.Operation {
	case analysis.OpImpute, analysis.OpFeature, analysis.OpOutliers:
		q, extra, err := r.statQuery(ctx, in, a)
		if err != nil {
			return nil, err
		}
		n, err := r.ws.Materialize(ctx, table, q)
		if err != nil {
			return nil, err
		}
		out, err := r.tableOutput(ctx, table, n)
		if err != nil {
			return nil, err
		}
		for k, v := range extra {
			out.data.(map[string]any)[k] = v
		}
		return out, nil
	}
	res, err := r.statTest(ctx, in, a)
	if err != nil {
		return nil, err
	}
	if err := r.ws.Register(ctx, table, res); err != nil {
		return nil, err
	}
	return r.tableOutput(ctx, table, int64(len(res.Rows)))
}

// statTest computes a test or a fit and returns its rows.
func (r *run) statTest(ctx context.Context, in *output, a *analysis.TransformArgs) (*quarry.QueryResult, error) {
	method := analysis.StatMethod(a.Operation, a.Method)
	switch a.Operation {
	case analysis.OpTTest:
		switch {
		case method == "one_sample":
			xs, err := r.numbers(ctx, in, a.Column)
			if err != nil {
				return nil, err
			}
			mu := a.Value.(float64)
			if err := enough(a.Column, len(xs[0]), 2); err != nil {
				return nil, err
			}
			tr := ttest1(xs[0], mu)
			return oneRow([]string{"statistic", "p_value", "df", "n", "mean", "mu"}, tr.Stat, tr.P, float64(len(xs[0])-1), int64(len(xs[0])), mean(xs[0]), mu), nil
		case len(a.Columns) == 2:
			var x, y []float64
			if method == "paired" {
				xs, err := r.numbers(ctx, in, a.Columns...)
				if err != nil {
					return nil, err
				}
				x, y = xs[0], xs[1]
			} else {
				xs, err := r.numbers(ctx, in, a.Columns[0])
				if err != nil {
					return nil, err
				}
				ys, err := r.numbers(ctx, in, a.Columns[1])
				if err != nil {
					return nil, err
				}
				x, y = xs[0], ys[0]
			}
			return tTest(method, x, y, a.Columns[0], a.Columns[1])
		}
		names, groups, err := r.groups(ctx, in, a.GroupBy[0], a.Column)
		if err != nil {
			return nil, err
		}
		if len(groups) != 2 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "column %s has %d groups; a t-test compares two", a.GroupBy[0], len(groups)).
				WithHint("filter the rows to two groups, or use anova to compare more")
		}
		return tTest(method, groups[0], groups[1], names[0], names[1])
	case analysis.OpANOVA:
		names, groups, err := r.groups(ctx, in, a.GroupBy[0], a.Column)
		if err != nil {
			return nil, err
		}
		if len(groups) < 2 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "column %s has %d group(s); an ANOVA compares two or more", a.GroupBy[0], len(groups))
		}
		n := 0
		for _, g := range groups {
			n += len(g)
		}
		if n <= len(groups) {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "%d values in %d groups are too few for an ANOVA", n, len(groups))
		}
		tr := anova(groups)
		return oneRow([]string{"statistic", "p_value", "groups", "n"}, tr.Stat, tr.P, int64(len(names)), int64(n)), nil
	case analysis.OpChiSquare:
		counts, err := r.contingency(ctx, in, a.Columns[0], a.Columns[1])
		if err != nil {
			return nil, err
		}
		if len(counts) < 2 || len(counts[0]) < 2 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "a chi-square test needs two values or more in each of %s and %s", a.Columns[0], a.Columns[1])
		}
		n := 0.0
		for _, row := range counts {
			for _, c := range row {
				n += c
			}
		}
		tr, dof := chi2Contingency(counts)
		return oneRow([]string{"statistic", "p_value", "dof", "n"}, tr.Stat, tr.P, int64(dof), int64(n)), nil
	case analysis.OpCorrelate:
		xs, err := r.numbers(ctx, in, a.Columns...)
		if err != nil {
			return nil, err
		}
		if err := enough(a.Columns[0]+" and "+a.Columns[1], len(xs[0]), 3); err != nil {
			return nil, err
		}
		tr := pearson(xs[0], xs[1])
		if method == "spearman" {
			tr = spearman(xs[0], xs[1])
		}
		return oneRow([]string{"coefficient", "p_value", "n", "method"}, tr.Stat, tr.P, int64(len(xs[0])), method), nil
	case analysis.OpNormality:
		xs, err := r.numbers(ctx, in, a.Column)
		if err != nil {
			return nil, err
		}
		x := xs[0]
		min := 3
		if method == "normaltest" {
			min = 8
		}
		if err := enough(a.Column, len(x), min); err != nil {
			return nil, err
		}
		tr := shapiro(x)
		if method == "normaltest" {
			tr = normaltest(x)
		}
		return oneRow([]string{"statistic", "p_value", "n", "skewness", "kurtosis", "method"}, tr.Stat, tr.P, int64(len(x)), skewness(x, true), kurtosis(x, true), method), nil
	case analysis.OpRegress:
		xs, err := r.numbers(ctx, in, slices.Concat([]string{a.Column}, a.Columns)...)
		if err != nil {
			return nil, err
		}
		return regress(a.Column, a.Columns, xs)
	}
	return nil, quarry.Errorf(quarry.ECodeInvalid, "operation %s is not a test", a.Operation)
}

// tTest is scipy.stats.ttest_ind (student, welch) or ttest_rel (paired)
// of x and y, the samples named nx and ny.
func tTest(method string, x, y []float64, nx, ny string) (*quarry.QueryResult, error) {
	if err := enough(nx, len(x), 2); err != nil {
		return nil, err
	}
	if err := enough(ny, len(y), 2); err != nil {
		return nil, err
	}
	n1, n2 := float64(len(x)), float64(len(y))
	var tr testResult
	var df float64
	switch method {
	case "paired":
		tr, df = ttestRel(x, y), n1-1
	case "welch":
		tr = ttestInd(x, y, false)
		s1, s2 := variance(x, 1)/n1, variance(y, 1)/n2
		df = (s1 + s2) * (s1 + s2) / (s1*s1/(n1-1) + s2*s2/(n2-1))
	default:
		tr, df = ttestInd(x, y, true), n1+n2-2
	}
	return oneRow([]string{"statistic", "p_value", "df", "n1", "n2", "mean1", "mean2", "group1", "group2", "method"},
		tr.Stat, tr.P, df, int64(n1), int64(n2), mean(x), mean(y), nx, ny, method), nil
}

// regress fits y = b0 + b1 x1 + ... by least squares (statsmodels' OLS
// with a constant): one row per term.
func regress(y string, xnames []string, cols [][]float64) (*quarry.QueryResult, error) {
	n, p := len(cols[0]), len(xnames)+1
	if n <= p {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%d complete rows are too few to fit %d coefficients", n, p)
	}
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, p)
		X[i][0] = 1
		for j := 1; j < p; j++ {
			X[i][j] = cols[j][i]
		}
	}
	b, rinv, ok := lstsq(X, cols[0])
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the predictors of %s are constant or depend on each other; no unique fit", y)
	}
	my := mean(cols[0])
	var rss, tss float64
	for i, row := range X {
		f := 0.0
		for j, v := range row {
			f += b[j] * v
		}
		rss += (cols[0][i] - f) * (cols[0][i] - f)
		tss += (cols[0][i] - my) * (cols[0][i] - my)
	}
	df := float64(n - p)
	s2 := rss / df
	r2 := 1 - rss/tss
	res := &quarry.QueryResult{Columns: []string{"term", "coefficient", "std_error", "t_value", "p_value", "r_squared", "n"}}
	for j := range p {
		v := 0.0
		for k := range p {
			v += rinv[j][k] * rinv[j][k]
		}
		se := math.Sqrt(s2 * v)
		t := b[j] / se
		term := "intercept"
		if j > 0 {
			term = xnames[j-1]
		}
		res.Rows = append(res.Rows, []any{term, b[j], se, t, tSF2(t, df), r2, int64(n)})
	}
	return res, nil
}

// oneRow is a one-row result.
func oneRow(cols []string, vals ...any) *quarry.QueryResult {
	return &quarry.QueryResult{Columns: cols, Rows: [][]any{vals}}
}

// enough refuses a sample of fewer than min values.
func enough(what string, n, min int) error {
	if n < min {
		return quarry.Errorf(quarry.ECodeInvalid, "%s has %d value(s); the test needs at least %d", what, n, min)
	}
	return nil
}

// numeric refuses a column that does not hold numbers.
func numeric(in *output, col string) error {
	c, _ := in.column(col)
	switch c.DataType {
	case quarry.TypeInteger, quarry.TypeFloat, quarry.TypeBoolean:
		return nil
	}
	return quarry.Errorf(quarry.ECodeInvalid, "column %s is %s; the operation needs numbers", col, c.DataType)
}

// statRows reads the query's rows, at most maxStatRows of them.
func (r *run) statRows(ctx context.Context, q string) (*quarry.QueryResult, error) {
	res, err := r.ws.Query(ctx, fmt.Sprintf("%s LIMIT %d", q, maxStatRows+1))
	if err != nil {
		return nil, err
	}
	if len(res.Rows) > maxStatRows {
		return nil, quarry.Errorf(quarry.ECodeResourceLimit, "the step reads more than %d rows, more than a statistical test holds in memory", maxStatRows).
			WithHint("filter or sample the rows first")
	}
	return res, nil
}

// numbers reads the columns' values over the rows where none is missing,
// one slice per column.
func (r *run) numbers(ctx context.Context, in *output, cols ...string) ([][]float64, error) {
	var sel, where []string
	for _, c := range cols {
		if err := numeric(in, c); err != nil {
			return nil, err
		}
		sel = append(sel, "CAST("+quoteIdent(c)+" AS DOUBLE)")
		where = append(where, quoteIdent(c)+" IS NOT NULL")
	}
	res, err := r.statRows(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE %s", strings.Join(sel, ", "), quoteIdent(in.table), strings.Join(where, " AND ")))
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(cols))
	for j := range cols {
		out[j] = make([]float64, len(res.Rows))
		for i := range res.Rows {
			out[j][i] = res.Float(i, j)
		}
	}
	return out, nil
}

// groups reads the values of col in each group of by (rows where either is
// missing left out), the groups in the order of their values.
func (r *run) groups(ctx context.Context, in *output, by, col string) ([]string, [][]float64, error) {
	if err := numeric(in, col); err != nil {
		return nil, nil, err
	}
	g, v := quoteIdent(by), quoteIdent(col)
	res, err := r.statRows(ctx, fmt.Sprintf("SELECT CAST(%s AS VARCHAR), CAST(%s AS DOUBLE) FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL ORDER BY %s",
		g, v, quoteIdent(in.table), g, v, g))
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var groups [][]float64
	for i := range res.Rows {
		name := res.String(i, 0)
		if len(names) == 0 || names[len(names)-1] != name {
			names, groups = append(names, name), append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], res.Float(i, 1))
	}
	return names, groups, nil
}

// contingency counts the rows of each pair of values of a and b.
func (r *run) contingency(ctx context.Context, in *output, a, b string) ([][]float64, error) {
	qa, qb := quoteIdent(a), quoteIdent(b)
	res, err := r.statRows(ctx, fmt.Sprintf("SELECT CAST(%s AS VARCHAR) AS a, CAST(%s AS VARCHAR) AS b, count(*) FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
		qa, qb, quoteIdent(in.table), qa, qb))
	if err != nil {
		return nil, err
	}
	ai, bi := map[string]int{}, map[string]int{}
	for i := range res.Rows {
		if _, ok := ai[res.String(i, 0)]; !ok {
			ai[res.String(i, 0)] = len(ai)
		}
		if _, ok := bi[res.String(i, 1)]; !ok {
			bi[res.String(i, 1)] = len(bi)
		}
	}
	if len(ai)*len(bi) > maxStatRows {
		return nil, quarry.Errorf(quarry.ECodeResourceLimit, "%s and %s have %d x %d values, too many for a contingency table", a, b, len(ai), len(bi))
	}
	t := make([][]float64, len(ai))
	for i := range t {
		t[i] = make([]float64, len(bi))
	}
	for i := range res.Rows {
		t[ai[res.String(i, 0)]][bi[res.String(i, 1)]] = res.Float(i, 2)
	}
	return t, nil
}

// statQuery is the query of an operation that keeps the input's rows
// (outliers, impute, feature), with what the observation says besides
// them: the bounds of an outlier, the values filled in.
func (r *run) statQuery(ctx context.Context, in *output, a *analysis.TransformArgs) (string, map[string]any, error) {
	from := quoteIdent(in.table)
	method := analysis.StatMethod(a.Operation, a.Method)
	switch a.Operation {
	case analysis.OpOutliers:
		xs, err := r.numbers(ctx, in, a.Column)
		if err != nil {
			return "", nil, err
		}
		lo, hi, err := outlierBounds(method, a.Threshold, xs[0])
		if err != nil {
			return "", nil, err
		}
		c := "CAST(" + quoteIdent(a.Column) + " AS DOUBLE)"
		return fmt.Sprintf("SELECT * FROM %s WHERE %s < %s OR %s > %s", from, c, floatSQL(lo), c, floatSQL(hi)),
			map[string]any{"method": method, "lower_bound": lo, "upper_bound": hi}, nil
	case analysis.OpImpute:
		var repl []string
		filled := map[string]any{}
		for _, col := range a.Columns {
			q := quoteIdent(col)
			var fill string
			switch method {
			case "mean", "median":
				if err := numeric(in, col); err != nil {
					return "", nil, err
				}
				agg := "avg"
				if method == "median" {
					agg = "median"
				}
				fill = fmt.Sprintf("coalesce(CAST(%s AS DOUBLE), (SELECT %s(CAST(%s AS DOUBLE)) FROM %s))", q, agg, q, from)
			default:
				fill = fmt.Sprintf("coalesce(%s, (SELECT %s FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY count(*) DESC, %s LIMIT 1))", q, q, from, q, q, q)
			}
			res, err := r.ws.Query(ctx, fmt.Sprintf("SELECT count(*) - count(%s), any_value(%s) FILTER (WHERE %s IS NULL) FROM %s", q, fill, q, from))
			if err != nil {
				return "", nil, err
			}
			filled[col] = map[string]any{"missing": res.Rows[0][0], "value": quarry.JSONRows([][]any{{res.Rows[0][1]}})[0][0]}
			repl = append(repl, fill+" AS "+q)
		}
		return fmt.Sprintf("SELECT * REPLACE (%s) FROM %s", strings.Join(repl, ", "), from), map[string]any{"method": method, "filled": filled}, nil
	case analysis.OpFeature:
		if _, ok := in.column(a.Name); ok {
			return "", nil, quarry.Errorf(quarry.ECodeInvalid, "column %q already exists in %s", a.Name, a.Input)
		}
		expr, err := compileExpression(a.Expression, in, a.Input)
		if err != nil {
			return "", nil, err
		}
		return fmt.Sprintf("SELECT *, %s AS %s FROM %s", expr, quoteIdent(a.Name), from), map[string]any{"expression": a.Expression}, nil
	}
	return "", nil, quarry.Errorf(quarry.ECodeInvalid, "operation %s keeps no rows", a.Operation)
}

// outlierBounds are the values outside of which a value is an outlier:
// Q1 - k IQR and Q3 + k IQR (numpy's linear quantiles, k 1.5 by default),
// or the mean -/+ k standard deviations (the population standard
// deviation, as scipy.stats.zscore; k 3 by default).
func outlierBounds(method string, k float64, xs []float64) (float64, float64, error) {
	if len(xs) < 2 {
		return 0, 0, enough("the column", len(xs), 2)
	}
	if method == "zscore" {
		if k == 0 {
			k = 3
		}
		m, s := mean(xs), std(xs, 0)
		return m - k*s, m + k*s, nil
	}
	if k == 0 {
		k = 1.5
	}
	s := sorted(xs)
	q1, q3 := quantileSorted(s, 0.25), quantileSorted(s, 0.75)
	return q1 - k*(q3-q1), q3 + k*(q3-q1), nil
}

// floatSQL writes x as an exact DOUBLE literal.
func floatSQL(x float64) string {
	return "CAST('" + strconv.FormatFloat(x, 'g', -1, 64) + "' AS DOUBLE)"
}

// compileExpression turns a feature's arithmetic into SQL: numbers, the
// input's columns (plain words, or in double quotes), + - * / and
// parentheses, nothing else, so that an expression cannot reach beyond
// the row it computes on.
func compileExpression(expr string, in *output, where string) (string, error) {
	toks, err := exprTokens(expr)
	if err != nil {
		return "", err
	}
	p := &exprParser{toks: toks, in: in, where: where}
	out, err := p.sum()
	if err != nil {
		return "", err
	}
	if p.i < len(p.toks) {
		return "", quarry.Errorf(quarry.ECodeInvalid, "the expression has %q where it should end", p.toks[p.i].text)
	}
	return "(" + out + ")", nil
}

// exprToken is a token of a feature's expression: a number, a column name
// (quoted or not) or one of + - * / ( ).
type exprToken struct {
	kind byte // 'n' number, 'c' column, or the operator itself
	text string
}

func exprTokens(s string) ([]exprToken, error) {
	var toks []exprToken
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case strings.ContainsRune("+-*/()", c):
			toks = append(toks, exprToken{byte(c), string(c)})
			i++
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.' || rs[j] == 'e' || rs[j] == 'E' ||
				(rs[j] == '-' || rs[j] == '+') && j > i && (rs[j-1] == 'e' || rs[j-1] == 'E')) {
				j++
			}
			v, err := strconv.ParseFloat(string(rs[i:j]), 64)
			if err != nil || math.IsInf(v, 0) {
				return nil, quarry.Errorf(quarry.ECodeInvalid, "%q in the expression is not a number", string(rs[i:j]))
			}
			toks = append(toks, exprToken{'n', strconv.FormatFloat(v, 'g', -1, 64)})
			i = j
		case c == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			if j == len(rs) {
				return nil, quarry.Errorf(quarry.ECodeInvalid, "the expression has a column name without its closing quote")
			}
			toks = append(toks, exprToken{'c', string(rs[i+1 : j])})
			i = j + 1
		case c == '_' || unicode.IsLetter(c):
			j := i
			for j < len(rs) && (rs[j] == '_' || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			toks = append(toks, exprToken{'c', string(rs[i:j])})
			i = j
		default:
			return nil, quarry.Errorf(quarry.ECodeInvalid, "the expression may hold numbers, column names, + - * / and parentheses, not %q", string(c))
		}
	}
	return toks, nil
}

// exprParser reads sum := product (('+'|'-') product)*, product := unary
// (('*'|'/') unary)*, unary := '-' unary | number | column | '(' sum ')'.
type exprParser struct {
	toks  []exprToken
	i     int
	depth int
	in    *output // the input step, whose columns the expression names
	where string  // the input step's id
}

// maxExprDepth bounds the nesting of parentheses and signs.
const maxExprDepth = 100

func (p *exprParser) sum() (string, error) {
	out, err := p.product()
	for err == nil && p.i < len(p.toks) && (p.toks[p.i].kind == '+' || p.toks[p.i].kind == '-') {
		op := p.toks[p.i].text
		p.i++
		var rhs string
		if rhs, err = p.product(); err == nil {
			out += " " + op + " " + rhs
		}
	}
	return out, err
}

func (p *exprParser) product() (string, error) {
	out, err := p.unary()
	for err == nil && p.i < len(p.toks) && (p.toks[p.i].kind == '*' || p.toks[p.i].kind == '/') {
		op := p.toks[p.i].text
		p.i++
		var rhs string
		if rhs, err = p.unary(); err == nil {
			out += " " + op + " " + rhs
		}
	}
	return out, err
}

func (p *exprParser) unary() (string, error) {
	if p.i >= len(p.toks) {
		return "", quarry.Errorf(quarry.ECodeInvalid, "the expression ends where a value should be")
	}
	if p.depth++; p.depth > maxExprDepth {
		return "", quarry.Errorf(quarry.ECodeInvalid, "the expression nests deeper than %d", maxExprDepth)
	}
	defer func() { p.depth-- }()
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case '-':
		v, err := p.unary()
		return "(-" + v + ")", err
	case 'n':
		return "CAST('" + t.text + "' AS DOUBLE)", nil
	case 'c':
		for _, c := range p.in.columns {
			if strings.EqualFold(c.Name, t.text) {
				if err := numeric(p.in, c.Name); err != nil {
					return "", err
				}
				return "CAST(" + quoteIdent(c.Name) + " AS DOUBLE)", nil
			}
		}
		names := make([]string, len(p.in.columns))
		for i, c := range p.in.columns {
			names[i] = c.Name
		}
		return "", missingColumn(t.text, names, p.where)
	case '(':
		v, err := p.sum()
		if err != nil {
			return "", err
		}
		if p.i >= len(p.toks) || p.toks[p.i].kind != ')' {
			return "", quarry.Errorf(quarry.ECodeInvalid, "the expression has a parenthesis left open")
		}
		p.i++
		return "(" + v + ")", nil
	}
	return "", quarry.Errorf(quarry.ECodeInvalid, "the expression has %q where a value should be", t.text)
}

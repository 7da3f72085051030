package analyze

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// Plan is the offline planner: it reads the request with the intent
// parser against the sources' tables and lays out the steps an analyst
// would take by hand: the totals of the measures in the period (and the
// period compared with), the trend over time with its chart, the breakdown
// by each grouping with its chart and shares, the distribution, a profile
// for summary statistics, outliers, normality and missing values, and a
// regression when asked. A table in a database source is first filtered
// there (sql.run with its source), and the rest runs in the workspace.
// Errors: INVALID when the request names nothing computable, saying what
// was understood and what is needed.
func Plan(req *analysis.Request, tables []analysis.SourceTable, now time.Time) (*analysis.Plan, error) {
	in, err := parseIntent(req.Intent, tables, now)
	if err != nil {
		return nil, err
	}
	return planFor(req, in, tables, false)
}

// parseIntent reads a request against the sources' tables.
func parseIntent(text string, tables []analysis.SourceTable, now time.Time) (*intent.Intent, error) {
	schema := intent.Schema{}
	for _, t := range tables {
		it := intent.Table{Name: t.Name, Rows: t.Rows, Joined: t.Joined, Aliases: t.Aliases}
		for _, c := range t.Columns {
			it.Columns = append(it.Columns, intent.Column{Name: c.Name, Type: c.Type, Values: c.Values, Min: c.Min, Max: c.Max, Via: c.Via, Blanks: c.Blanks})
		}
		schema.Tables = append(schema.Tables, it)
	}
	return intent.Parse(text, schema, now)
}

// planFor lays out the plan of a parsed request.
// With needChart, a plan that draws nothing gets a chart of the measure
// over time (or by its first dimension).
func planFor(req *analysis.Request, in *intent.Intent, tables []analysis.SourceTable, needChart bool) (*analysis.Plan, error) {
	var table analysis.SourceTable
	for _, t := range tables {
		if strings.EqualFold(t.Name, in.Table) {
			table = t
		}
	}
	if table.Name == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the request is about no table of the sources")
	}
	b := &planBuilder{req: req, in: in, table: table}
	if len(req.Policy.AllowedColumns) > 0 {
		// Queries name the allowed columns rather than *.
		keep := []analysis.SourceColumn{}
		for _, c := range table.Columns {
			if req.Policy.Allows(table.Name, c.Name) {
				keep = append(keep, c)
			}
		}
		b.allowed = keep
	}
	b.build()
	if needChart && !slices.ContainsFunc(b.steps, func(t analysis.Subtask) bool { return t.ToolName == analysis.ToolPlot }) {
		b.someChart()
	}
	if words := b.unapplied(); len(words) > 0 {
		var parts []string
		for _, w := range words {
			parts = append(parts, fmt.Sprintf("%q (%s)", w.Word, w.Reason))
		}
		return nil, quarry.Errorf(quarry.ECodeNeedsClarification, "I could not answer this as asked: no step could apply %s: %w",
			strings.Join(parts, ", "), &notApplied{words}).WithHint("say it another way, or ask for what the data can give")
	}
	p := &analysis.Plan{Subtasks: b.steps, Reasoning: b.reasoning(), Status: analysis.PlanDraft}
	return p, nil
}

// notApplied is what a plan could not apply of a request it understood:
// a kind of analysis or a ranking no step carries out.
type notApplied struct{ words []analysis.UnknownWord }

func (e *notApplied) Error() string {
	return fmt.Sprintf("%d parts of the request not applied", len(e.words))
}

// unapplied lists what the request asked for that no step of the plan
// carries out (a growth without a date, a share of an average, a ranking
// of rows with no measure to rank by): a plan without it would answer
// another question.
func (b *planBuilder) unapplied() []analysis.UnknownWord {
	has := func(match func(t analysis.Subtask) bool) bool { return slices.ContainsFunc(b.steps, match) }
	id := func(pred func(id string) bool) bool {
		return has(func(t analysis.Subtask) bool { return pred(t.TaskID) })
	}
	var out []analysis.UnknownWord
	miss := func(kind, why string) {
		out = append(out, analysis.UnknownWord{Word: kind, Reason: why})
	}
	for _, kind := range b.in.Analyses {
		switch kind {
		case intent.AnalysisTrend:
			byYear := slices.ContainsFunc(b.in.GroupBy, func(g intent.Group) bool { return b.isYearColumn(g.Column) })
			if !byYear && !id(func(s string) bool { return strings.HasPrefix(s, "trend") }) {
				miss(kind, "the table has no date column to follow over time")
			}
		case intent.AnalysisGrowth:
			if !id(func(s string) bool { return strings.HasSuffix(s, "_growth") }) {
				miss(kind, "a change needs periods to compare: a date column or two years")
			}
		case intent.AnalysisCorrelation:
			if g := b.in.GroupBy; len(g) > 0 {
				miss(kind, "a correlation is computed over all the rows in scope, not for each "+g[0].Column+"; filter to one instead")
			}
			if numeric, _ := b.statColumns(); !id(func(s string) bool { return s == "correlate" }) {
				why := "a correlation is between two numeric columns: name them"
				if len(numeric) > 0 {
					why = fmt.Sprintf("a correlation is between two numeric columns; %d named (%s)", len(numeric), strings.Join(numeric, ", "))
				}
				if slices.ContainsFunc(b.in.Measures, func(m intent.Measure) bool { return m.Times != "" || m.Per != "" || m.Over != "" }) {
					why += "; a computed measure (a ratio or a product) is not correlated"
				}
				miss(kind, why)
			}
		case intent.AnalysisShare:
			if !id(func(s string) bool {
				return s == "share" || strings.HasSuffix(s, "_share") || strings.HasPrefix(s, "rate_by_")
			}) {
				miss(kind, "a share needs a total or count split by a grouping or a filter")
			}
		case intent.AnalysisDistribution, intent.AnalysisHistogram:
			if !id(func(s string) bool { return s == "values" }) {
				miss(kind, "a distribution needs a numeric column")
			}
		case intent.AnalysisRegression:
			if !id(func(s string) bool { return s == "regression" }) {
				miss(kind, "a regression needs two numeric columns, or one and a date")
			}
		}
	}
	if t := b.in.Top; t != nil && t.Column != "" && b.has(intent.AnalysisGrowth) && !b.isYearColumn(t.Column) &&
		!slices.ContainsFunc(b.in.GroupBy, func(g intent.Group) bool { return g.Column == t.Column }) &&
		!id(func(s string) bool { return strings.HasSuffix(s, "_change") }) {
		miss("ranking by change", "a ranking by a change is computed between two years of an integer year column; name the two years")
	}
	if t := b.in.Top; t != nil && t.N > 0 {
		limit := fmt.Sprintf(" LIMIT %d", t.N)
		if !has(func(s analysis.Subtask) bool {
			q, _ := s.Arguments["query"].(string)
			return strings.HasSuffix(q, limit)
		}) {
			miss(fmt.Sprintf("top %d", t.N), "a ranking needs what to rank (a grouping) and a measure to rank by")
		}
	}
	return out
}

// planBuilder lays out one plan.
type planBuilder struct {
	req   *analysis.Request
	in    *intent.Intent
	table analysis.SourceTable
	steps []analysis.Subtask
	from  string // FROM clause of the workspace queries
	where string // their WHERE clause ("" after a pushed-down filter)
	// srcFrom and srcWhere read the table where it is: a database
	// source's queries run there.
	srcFrom, srcWhere string
	deps              []string
	// allowed are the table's columns the policy allows, when it limits
	// them: queries list them instead of *.
	allowed []analysis.SourceColumn
}

// portable reports whether the request's aggregates are written the same
// in DuckDB, SQLite and PostgreSQL, so that they can run in a database
// source: sums, averages, counts, minimums and maximums.
func (b *planBuilder) portable() bool {
	for _, m := range b.measures() {
		if m.Since != "" || m.PerPeriod != "" {
			return false // date_diff and date_trunc are DuckDB's
		}
		switch m.Agg {
		case "sum", "avg", "count", "count_distinct", "min", "max":
		default:
			return false
		}
	}
	return true
}

// at returns where an aggregating step reads: in the database source
// itself, filtered there, when the step is portable (aggregations run
// where the data is, and only their result comes here); otherwise the
// rows loaded into the workspace.
func (b *planBuilder) at(portable bool) (from, where string, deps []string, args map[string]any) {
	args = map[string]any{}
	if b.table.Source != "" && portable && b.portable() {
		args["source"] = b.table.Source
		return b.srcFrom, b.srcWhere, []string{}, args
	}
	b.needLoad()
	return b.from, b.where, slices.Clone(b.deps), args
}

// needLoad makes sure a database source's rows in scope are in the
// workspace (the load step, filtered in the database), for the steps that
// need rows rather than aggregates.
func (b *planBuilder) needLoad() {
	if b.table.Source == "" || slices.Contains(b.deps, "load") {
		return
	}
	cols := b.neededColumns()
	sel := b.star()
	if len(cols) > 0 {
		var q []string
		for _, c := range cols {
			q = append(q, quoteIdent(c))
		}
		sel = strings.Join(q, ", ")
	}
	b.add(analysis.Subtask{TaskID: "load", ToolName: analysis.ToolSQL, Description: "Rows of " + b.table.Name + b.scopeText(),
		Arguments:            map[string]any{"query": "SELECT " + sel + " FROM " + quoteIdent(b.table.Name) + b.srcWhere, "source": b.table.Source},
		Invariants:           []string{"filter in the database before anything is aggregated"},
		EstimatedCostSeconds: b.cost(0.5)})
	b.from, b.where, b.deps = quoteIdent(analysis.StepTable("load")), "", []string{"load"}
}

// star is the select list of every column a query may read.
func (b *planBuilder) star() string {
	if b.allowed == nil {
		return "*"
	}
	var q []string
	for _, c := range b.allowed {
		q = append(q, quoteIdent(c.Name))
	}
	if len(q) == 0 {
		return "NULL AS nothing_allowed"
	}
	return strings.Join(q, ", ")
}

func (b *planBuilder) wantsCharts() bool {
	return b.req.Wants(analysis.DeliverCharts) || b.req.Wants(analysis.DeliverReports)
}

func (b *planBuilder) has(kinds ...string) bool {
	return slices.ContainsFunc(kinds, func(k string) bool { return slices.Contains(b.in.Analyses, k) })
}

// cost estimates a step's seconds from the rows it reads.
func (b *planBuilder) cost(base float64) float64 {
	return base + float64(b.table.Rows)/4e6
}

func (b *planBuilder) add(t analysis.Subtask) {
	if t.Dependencies == nil {
		t.Dependencies = []string{}
	}
	if t.Invariants == nil {
		t.Invariants = []string{}
	}
	t.Status = analysis.TaskPending
	b.steps = append(b.steps, t)
}

func (b *planBuilder) build() {
	conds := b.conditions()
	b.from, b.where = quoteIdent(b.table.Name), ""
	if b.table.From != "" {
		b.from = b.table.From // a table widened by its keys
	}
	if len(conds) > 0 {
		b.where = " WHERE " + strings.Join(conds, " AND ")
	}
	b.srcFrom, b.srcWhere = b.from, b.where
	if b.table.Source != "" && !b.portable() {
		b.needLoad()
	}
	measures := b.measures()
	if !b.in.PerPeriodOnly {
		b.totals(measures)
	}
	var dims []string
	hasGrain := false
	for _, g := range b.in.GroupBy {
		if g.Grain != "" {
			hasGrain = true
		} else {
			dims = append(dims, g.Column)
		}
	}
	for _, g := range b.in.GroupBy {
		switch {
		case b.in.RateOf != "" && b.has(intent.AnalysisShare) && len(b.in.GroupBy) == 1:
			b.rateBy(g) // "reopen rate by channel": the rate within each
		case g.Grain != "" && b.in.Top != nil && b.in.Top.Column == g.Column:
			b.rankPeriods(measures[0], g, b.in.Top)
		case g.Grain != "":
			b.trend(measures, g)
		case len(dims) >= 2 && !hasGrain:
			// "by species and sex": one table with a row per pair, not a
			// table per dimension.
			if g.Column == dims[0] {
				b.crossBreakdown(measures, dims)
			}
		default:
			b.breakdown(measures, g.Column)
			if b.has(intent.AnalysisGrowth) && !b.isYearColumn(g.Column) {
				b.changeBy(measures[0], g.Column)
			}
		}
	}
	if b.in.Top != nil && b.in.Top.Column != "" && !slices.ContainsFunc(b.in.GroupBy, func(g intent.Group) bool { return g.Column == b.in.Top.Column }) {
		if year, lo, hi, ok := b.yearPair(); ok && b.has(intent.AnalysisGrowth) && measures[0].Per == "" {
			b.rankByChange(measures[0], b.in.Top, year, lo, hi)
		} else if b.in.RateOf != "" && b.has(intent.AnalysisShare) {
			b.rateBy(intent.Group{Column: b.in.Top.Column}) // "the channel with the highest reopen rate"
		} else if !b.has(intent.AnalysisGrowth) {
			b.breakdown(measures, b.in.Top.Column)
		}
	}
	if b.has(intent.AnalysisShare) && len(dims) == 0 && !hasGrain {
		b.shareOfFilter(measures[0])
	}
	if t := b.in.Top; t != nil && t.Column == "" && t.N > 0 && measures[0].Column != "" && measures[0].Times == "" && measures[0].Per == "" && measures[0].Over == "" {
		b.topRows(measures[0].Measure, t)
	}
	if b.has(intent.AnalysisTrend, intent.AnalysisGrowth) && !slices.ContainsFunc(b.steps, func(t analysis.Subtask) bool { return t.TaskID == "trend" }) {
		if dc := b.dateColumn(); dc != "" {
			b.trend(measures, intent.Group{Column: dc, Grain: b.trendGrain()})
		}
	}
	if b.has(intent.AnalysisDistribution, intent.AnalysisHistogram) && measures[0].Column != "" && measures[0].Times == "" && measures[0].Per == "" && measures[0].Over == "" &&
		measures[0].Since == "" {
		b.distribution(measures[0].Column)
	}
	if b.has(intent.AnalysisCorrelation, intent.AnalysisSummary, intent.AnalysisOutliers, intent.AnalysisNormality, intent.AnalysisMissing) {
		b.profile(measures)
	}
	if b.has(intent.AnalysisRegression) {
		b.regression(measures)
	}
	b.stats() // the statistical tests the request names (plan_stats.go)
}

// someChart charts the first measure over time, or else by the first
// text column with few values, for a request that asked for charts but
// named nothing to draw.
func (b *planBuilder) someChart() {
	m := b.measures()[0]
	if dc := b.dateColumn(); dc != "" {
		b.trend([]measure{m}, intent.Group{Column: dc, Grain: b.trendGrain()})
		return
	}
	for _, c := range b.table.Columns {
		if c.Type == quarry.TypeString && len(c.Values) > 1 && len(c.Values) <= 50 {
			b.breakdown([]measure{m}, c.Name)
			return
		}
	}
}

// conditions are the WHERE conditions of the request's filters and period.
func (b *planBuilder) conditions() []string {
	var conds []string
	for _, f := range b.in.Filters {
		if c := b.condition(f); c != "" {
			conds = append(conds, c)
		}
	}
	if tr := b.in.Time; tr != nil && tr.Column != "" {
		conds = append(conds, periodCondition(tr))
	}
	return conds
}

// condition writes one filter as SQL.
func (b *planBuilder) condition(f intent.Filter) string {
	col := quoteIdent(f.Column)
	var lits []string
	for _, v := range f.Values {
		lits = append(lits, b.literal(f.Column, v))
	}
	switch {
	case f.Op == "is null":
		return col + " IS NULL"
	case f.Op == "is not null":
		return col + " IS NOT NULL"
	case f.Op == "in" || len(lits) > 1 && f.Op == "=":
		return col + " IN (" + strings.Join(lits, ", ") + ")"
	case f.Op == "!=" && len(lits) > 1:
		return col + " NOT IN (" + strings.Join(lits, ", ") + ")"
	case len(lits) == 1:
		return col + " " + f.Op + " " + lits[0]
	}
	return ""
}

// literal writes a filter value for a column: a number as is for a
// numeric column, else a quoted string.
func (b *planBuilder) literal(col, v string) string {
	for _, c := range b.table.Columns {
		if strings.EqualFold(c.Name, col) && (c.Type == quarry.TypeInteger || c.Type == quarry.TypeFloat) {
			if _, err := fmt.Sscanf(v, "%g", new(float64)); err == nil {
				return v
			}
		}
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// neededColumns are the columns the later steps read, for a pushed-down
// load; nil means all.
func (b *planBuilder) neededColumns() []string {
	if b.has(intent.AnalysisSummary, intent.AnalysisMissing, intent.AnalysisCorrelation, intent.AnalysisOutliers, intent.AnalysisNormality) {
		return nil
	}
	var cols []string
	add := func(c string) {
		if c != "" && !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	for _, m := range b.in.Measures {
		add(m.Column)
		add(m.Times)
		add(m.Over)
		add(m.Per)
		add(m.PerEach)
		add(m.Since)
	}
	for _, g := range b.in.GroupBy {
		add(g.Column)
	}
	if b.in.Top != nil {
		add(b.in.Top.Column)
	}
	add(b.dateColumn())
	if len(cols) == 0 {
		return nil
	}
	return cols
}

// measure is a measure with its SQL and its result column's name.
type measure struct {
	intent.Measure
	sql, alias, label string
	period            string // for PerPeriod, the SQL of each row's period
}

func (b *planBuilder) measures() []measure {
	ms := b.in.Measures
	if len(ms) == 0 {
		ms = []intent.Measure{{Agg: "count"}}
	}
	var out []measure
	for _, m := range ms {
		mm := measure{Measure: m}
		switch {
		case m.Per != "":
			// a ratio of totals: "deaths per capita"
			num, what := "count(*)", "rows"
			if m.Column != "" {
				expr, w := quoteIdent(m.Column), m.Column
				if m.Times != "" {
					expr, w = expr+" * "+quoteIdent(m.Times), w+" × "+m.Times
				}
				num, what = aggregate(m.Agg, expr), w
			}
			mm.sql = num + " / NULLIF(sum(" + quoteIdent(m.Per) + "), 0)"
			mm.alias, mm.label = strings.ReplaceAll(what, " × ", "_x_")+"_per_"+m.Per, what+" per "+m.Per
		case m.PerEach != "":
			// a total shared among distinct things: "average cost per patient"
			num, what := "count(*)", "rows"
			if m.Column != "" {
				expr, w := quoteIdent(m.Column), m.Column
				if m.Times != "" {
					expr, w = expr+" * "+quoteIdent(m.Times), w+" × "+m.Times // an order's value: price × quantity
				}
				num, what = aggregate("sum", expr), w
			}
			mm.sql = num + " / NULLIF(count(DISTINCT " + quoteIdent(m.PerEach) + "), 0)"
			mm.alias, mm.label = strings.ReplaceAll(what, " × ", "_x_")+"_per_"+m.PerEach, what+" per "+m.PerEach
		case m.PerPeriod != "":
			// "average daily revenue": each day's total, averaged over the
			// days that have rows
			num, what := "count(*)", "rows"
			if m.Column != "" {
				num, what = aggregate("sum", quoteIdent(m.Column)), m.Column
			}
			mm.period = periodExpr(m.PerPeriod, quoteIdent(b.dateColumn()))
			mm.sql = num + " / NULLIF(count(DISTINCT " + mm.period + "), 0)"
			adv := cmp.Or(periodAdverbs[m.PerPeriod], m.PerPeriod)
			mm.alias = "avg_" + adv + "_" + fileName(strings.ToLower(what))
			mm.label = fmt.Sprintf("average %s total %s (over the %ss with rows)", adv, what, m.PerPeriod)
		case m.Column == "":
			mm.sql, mm.alias, mm.label = "count(*)", "rows", "rows"
		case m.Since != "":
			// "median days from booking to check-in", row by row
			mm.sql, mm.alias, mm.label = aggregate(m.Agg, spanSQL(m)), m.Agg+"_"+spanName(m), cmp.Or(aggWord(m.Agg), "total")+" days from "+m.Since+" to "+m.Column
		case m.Over != "":
			// each row's ratio, then aggregated: "the average price per
			// horsepower" of cars
			name := m.Column + "_per_" + m.Over
			mm.sql, mm.alias, mm.label = aggregate(m.Agg, rowRatio(m)), m.Agg+"_"+name, aggWord(m.Agg)+" "+m.Column+" ÷ "+m.Over+" (row by row; a row whose "+m.Over+" is 0 has none)"
		case m.Times != "":
			// price × quantity, row by row
			name := m.Column + "_x_" + m.Times
			mm.sql, mm.alias, mm.label = aggregate(m.Agg, quoteIdent(m.Column)+" * "+quoteIdent(m.Times)), m.Agg+"_"+name, aggWord(m.Agg)+" "+m.Column+" × "+m.Times
			if m.Agg == "sum" {
				mm.alias, mm.label = name, "total "+m.Column+" × "+m.Times
			}
		case m.Agg == "sum":
			mm.sql, mm.alias, mm.label = aggregate("sum", quoteIdent(m.Column)), m.Column, "total "+m.Column
		case m.Agg == "count_distinct" && b.qualifier(m.Column) != "":
			// "how many counties": each name once in each state, written
			// so that SQLite and PostgreSQL count the pairs too
			q := b.qualifier(m.Column)
			mm.sql = "count(DISTINCT " + quoteIdent(m.Column) + " || ' | ' || " + quoteIdent(q) + ")"
			mm.alias, mm.label = "count_distinct_"+m.Column, "distinct "+m.Column+" (told apart by "+q+")"
		default:
			mm.sql, mm.alias, mm.label = aggregate(m.Agg, quoteIdent(m.Column)), m.Agg+"_"+m.Column, aggWord(m.Agg)+" "+m.Column
		}
		if m.PerHowMany > 1 && (m.Per != "" || m.Over != "") {
			// "doctors per 1,000 people": the ratio for that many
			n := strconv.FormatFloat(m.PerHowMany, 'f', -1, 64)
			mm.sql = "(" + mm.sql + ") * " + n
			mm.alias += "_per_" + n
			mm.label += " (per " + n + ")"
		}
		if m.DataScale > 1 {
			// a column said to be in millions, in a ratio: back in ones
			mm.sql = "(" + mm.sql + ") * " + strconv.FormatFloat(m.DataScale, 'f', 1, 64)
		}
		if m.Scale != 0 && m.Scale != 1 {
			// "in $k": the result in the unit asked for
			mm.sql = scaled(mm.sql, m.Scale)
			mm.alias += "_" + scaleName(m.Scale)
			mm.label += " in " + scaleWords(m.Scale)
		}
		out = append(out, mm)
	}
	return out
}

func aggWord(agg string) string { return aggWords[agg] }

// periodAdverbs say a period's total: "average daily total".
var periodAdverbs = map[string]string{"day": "daily", "week": "weekly", "month": "monthly", "quarter": "quarterly", "year": "yearly"}

// aggWords are the aggregates a measure's column is named after ("avg_"),
// with their words; a total's column is the measured column's name.
var aggWords = map[string]string{"avg": "average", "count": "count of", "count_distinct": "distinct", "min": "lowest", "max": "highest", "median": "median", "std": "standard deviation of", "range": "range of"}

// scopeText says the filters and period in words, for descriptions.
func (b *planBuilder) scopeText() string {
	var parts []string
	for _, f := range b.in.Filters {
		vals := strings.Join(f.Values, ", ")
		if (f.Op == "=" || f.Op == "in") && slices.ContainsFunc(f.Values, isNumber) {
			parts = append(parts, f.Column+" "+f.Op+" "+vals) // a number does not: "remote = 1"
		} else if f.Op == "=" || f.Op == "in" {
			parts = append(parts, vals) // a value says its column: "Arizona"
		} else if f.Op == "is null" {
			parts = append(parts, f.Column+" empty")
		} else if f.Op == "is not null" {
			parts = append(parts, f.Column+" not empty")
		} else {
			parts = append(parts, f.Column+" "+f.Op+" "+vals) // "discount > 0", "state != Texas"
		}
	}
	if b.in.Time != nil {
		parts = append(parts, b.in.Time.Label)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func (b *planBuilder) dateColumn() string {
	if b.in.Time != nil && b.in.Time.Column != "" {
		return b.in.Time.Column
	}
	for _, g := range b.in.GroupBy {
		if g.Grain != "" {
			return g.Column
		}
	}
	if b.in.DateColumn != "" {
		return b.in.DateColumn // the one chosen among several
	}
	for _, c := range b.table.Columns {
		if c.Type == quarry.TypeDate || c.Type == "timestamp" {
			return c.Name
		}
	}
	return ""
}

// trendGrain is month for a period over two months, else day.
func (b *planBuilder) trendGrain() string {
	start, end := "", ""
	if tr := b.in.Time; tr != nil {
		start, end = tr.Start, tr.End
	} else {
		for _, c := range b.table.Columns {
			if c.Name == b.dateColumn() {
				start, end = c.Min, c.Max
			}
		}
	}
	s, err1 := quarry.ParseDate(start)
	e, err2 := quarry.ParseDate(end)
	if err1 == nil && err2 == nil && e.Time().Sub(s.Time()) <= 62*24*time.Hour {
		return "day"
	}
	return "month"
}

// totals: one row per period with every measure and the row count.
func (b *planBuilder) totals(ms []measure) {
	from, bwhere, deps, args := b.at(true)
	sel := func(where string) string {
		var cols []string
		for _, m := range ms {
			cols = append(cols, m.sql+" AS "+quoteIdent(m.alias))
		}
		if ms[0].Column != "" && !slices.ContainsFunc(ms, func(m measure) bool { return m.sql == "count(*)" }) {
			cols = append(cols, `count(*) AS "rows"`)
		}
		return strings.Join(cols, ", ") + " FROM " + from + where
	}
	q := "SELECT " + sel(bwhere)
	desc := "Totals of " + b.table.Name + b.scopeText()
	if c := b.in.Compare; c != nil && b.in.Time != nil {
		cur := b.in.Time
		compWhere := strings.Replace(bwhere, fmt.Sprintf("'%s' AND %s < '%s'", cur.Start, quoteIdent(cur.Column), cur.End),
			fmt.Sprintf("'%s' AND %s < '%s'", c.Start, quoteIdent(c.Column), c.End), 1)
		q = fmt.Sprintf("SELECT '%s' AS period, %s UNION ALL SELECT '%s' AS period, %s", sqlText(c.Label), sel(compWhere), sqlText(cur.Label), sel(bwhere))
		desc = fmt.Sprintf("Totals of %s, %s against %s", b.table.Name, cur.Label, c.Label)
	}
	args["query"] = q
	b.add(analysis.Subtask{TaskID: "totals", ToolName: analysis.ToolSQL, Description: desc, Dependencies: deps,
		Arguments: args, Invariants: []string{"filter before aggregate"}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
}

func sqlText(s string) string { return strings.ReplaceAll(s, "'", "''") }

// rankPeriods: the periods of the grain ranked by the measure ("which 3
// years had the highest volume"), the top N of them, periods without a
// date left out.
func (b *planBuilder) rankPeriods(m measure, g intent.Group, t *intent.TopN) {
	b.needLoad()
	order, word := "DESC", "Top"
	if !t.Desc {
		order, word = "ASC", "Bottom"
	}
	where := b.where
	if where == "" {
		where = " WHERE " + quoteIdent(g.Column) + " IS NOT NULL"
	} else {
		where += " AND " + quoteIdent(g.Column) + " IS NOT NULL"
	}
	q := fmt.Sprintf("SELECT %s AS %s, %s AS %s FROM %s%s GROUP BY 1 ORDER BY 2 %s NULLS LAST, 1",
		periodExpr(g.Grain, quoteIdent(g.Column)), quoteIdent(g.Grain), m.sql, quoteIdent(m.alias), b.from, where, order)
	desc := fmt.Sprintf("Every %s ranked by %s%s", g.Grain, m.label, b.scopeText())
	if t.N > 0 {
		q += fmt.Sprintf(" LIMIT %d", t.N)
		desc = fmt.Sprintf("%s %d %ss by %s%s", word, t.N, g.Grain, m.label, b.scopeText())
	}
	b.add(analysis.Subtask{TaskID: "by_" + g.Grain, ToolName: analysis.ToolSQL, Description: desc, Dependencies: slices.Clone(b.deps),
		Arguments: map[string]any{"query": q}, Invariants: []string{"group by " + g.Grain + " before " + m.Agg}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
}

// trend: the measures per period of the grain, its chart of the first
// and, when asked, their growth. Every measure the request names is a
// column: "sessions and revenue per day" is one table of both.
func (b *planBuilder) trend(ms []measure, g intent.Group) {
	m := ms[0]
	b.needLoad()
	id := "trend"
	if slices.ContainsFunc(b.steps, func(t analysis.Subtask) bool { return t.TaskID == id }) {
		id = "trend_" + g.Grain
	}
	period := periodExpr(g.Grain, quoteIdent(g.Column))
	sel := ""
	for _, m := range ms {
		sel += ", " + m.sql + " AS " + quoteIdent(m.alias)
	}
	q := fmt.Sprintf("SELECT %s AS period%s FROM %s%s GROUP BY 1 ORDER BY 1", period, sel, b.from, b.where)
	series := ""
	for _, og := range b.in.GroupBy {
		if og.Grain == "" {
			series = og.Column
			q = fmt.Sprintf("SELECT %s AS period, %s%s FROM %s%s GROUP BY 1, 2 ORDER BY 1, 2",
				period, quoteIdent(og.Column), sel, b.from, b.where)
			break
		}
	}
	desc := fmt.Sprintf("%s by %s%s", capitalize(m.label), g.Grain, b.scopeText())
	if series != "" {
		desc = fmt.Sprintf("%s by %s and %s%s", capitalize(m.label), g.Grain, series, b.scopeText())
	}
	b.add(analysis.Subtask{TaskID: id, ToolName: analysis.ToolSQL, Description: desc, Dependencies: slices.Clone(b.deps),
		Arguments: map[string]any{"query": q}, Invariants: []string{"group by " + g.Grain + " before " + m.Agg}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
	if b.wantsCharts() {
		args := map[string]any{"input": id, "type": "line", "x_col": "period", "y_col": m.alias, "title": desc}
		if series != "" {
			args["series_col"] = series
		}
		b.add(analysis.Subtask{TaskID: id + "_chart", ToolName: analysis.ToolPlot, Description: "Chart: " + desc, Dependencies: []string{id},
			Arguments: args, Deliverable: analysis.DeliverCharts, EstimatedCostSeconds: 0.3})
	}
	for i, m := range ms {
		if !b.has(intent.AnalysisGrowth) || series != "" {
			break
		}
		gid := id + "_growth"
		if i > 0 {
			gid += "_" + fileName(strings.ToLower(m.alias))
		}
		b.add(analysis.Subtask{TaskID: gid, ToolName: analysis.ToolDF, Description: fmt.Sprintf("Change of %s from %s to %s", m.label, g.Grain, g.Grain),
			Dependencies: []string{id}, Arguments: map[string]any{"input": id, "operation": analysis.OpGrowth, "columns": []any{m.alias}, "group_by": []any{"period"}},
			Deliverable: analysis.DeliverTables, EstimatedCostSeconds: 0.1})
	}
}

// periodExpr labels the period of a date as people write it, in an order
// that sorts as text: 2021-03, 2021-Q1, 2021; days and weeks stay dates.
func periodExpr(grain, col string) string {
	switch grain {
	case "month":
		return fmt.Sprintf("strftime(%s::DATE, '%%Y-%%m')", col)
	case "quarter":
		return fmt.Sprintf("strftime(%s::DATE, '%%Y') || '-Q' || quarter(%s::DATE)", col, col)
	case "year":
		return fmt.Sprintf("strftime(%s::DATE, '%%Y')", col)
	case "weekday":
		return fmt.Sprintf("isodow(%s::DATE) || ' ' || dayname(%s::DATE)", col, col) // "1 Monday": in the week's order
	case "daytype":
		return fmt.Sprintf("CASE WHEN isodow(%s::DATE) >= 6 THEN 'weekend' ELSE 'weekday' END", col)
	}
	return fmt.Sprintf("date_trunc('%s', %s::DATE)::DATE", grain, col)
}

// breakdown: the measures per value of a dimension, by the first largest
// first (top N when asked), its bar chart and shares. Every measure the
// request names is a column: "total sales and average profit by store"
// is one table of both.
func (b *planBuilder) breakdown(ms []measure, dim string) {
	m := ms[0]
	id := "by_" + fileName(strings.ToLower(dim))
	if slices.ContainsFunc(b.steps, func(t analysis.Subtask) bool { return t.TaskID == id }) {
		return
	}
	order := "DESC"
	limit := ""
	desc := fmt.Sprintf("%s by %s%s", capitalize(m.label), dim, b.scopeText())
	from, where, deps, args := b.at(true)
	if t := b.in.Top; t != nil && t.Column == "" && !t.Desc {
		order = "ASC" // beside a ranking of rows lowest first ("the cheapest car"), lowest first too
	}
	if t := b.in.Top; t != nil && strings.EqualFold(t.Column, dim) && t.N >= 0 {
		if !t.Desc {
			order = "ASC"
		}
		word := "Top"
		if !t.Desc {
			word = "Bottom"
		}
		desc = fmt.Sprintf("%s %d %s by %s%s", word, t.N, dim, m.label, b.scopeText())
		if t.N > 0 {
			limit = fmt.Sprintf(" LIMIT %d", t.N)
		} else {
			desc = fmt.Sprintf("%s ranked by %s%s", capitalize(dim), m.label, b.scopeText())
		}
		// A ranking is of things that have a name: rows without one are
		// not a contender.
		if where == "" {
			where = " WHERE " + quoteIdent(dim) + " IS NOT NULL"
		} else {
			where += " AND " + quoteIdent(dim) + " IS NOT NULL"
		}
	}
	orderBy := fmt.Sprintf("2 %s NULLS LAST, 1", order)
	ranked := b.in.Top != nil && strings.EqualFold(b.in.Top.Column, dim)
	growth := b.has(intent.AnalysisGrowth) && b.isYearColumn(dim)
	if b.isYearColumn(dim) && !ranked {
		orderBy = "1" // years, and a change from year to year, in the order of the years
	}
	sel, group, by := quoteIdent(dim), "1", dim
	qual := b.qualifier(dim)
	if qual != "" {
		// namesakes are told apart: "Washington County" of each state is
		// a group of its own
		sel += ", " + quoteIdent(qual)
		group, by = "1, 2", dim+", "+qual
		orderBy = fmt.Sprintf("3 %s NULLS LAST, 1, 2", order)
		desc = strings.Replace(desc, " by ", fmt.Sprintf(" (%s names repeat: told apart by %s) by ", dim, qual), 1)
	}
	for _, m := range ms {
		sel += ", " + m.sql + " AS " + quoteIdent(m.alias)
	}
	args["query"] = fmt.Sprintf("SELECT %s FROM %s%s GROUP BY %s ORDER BY %s%s", sel, from, where, group, orderBy, limit)
	b.add(analysis.Subtask{TaskID: id, ToolName: analysis.ToolSQL, Description: desc, Dependencies: deps,
		Arguments: args, Invariants: []string{"group by " + by + " before " + m.Agg}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
	if b.wantsCharts() {
		chart := map[string]any{"input": id, "type": "bar", "x_col": dim, "y_col": m.alias, "title": desc}
		if qual != "" {
			chart["series_col"] = qual
		}
		b.add(analysis.Subtask{TaskID: id + "_chart", ToolName: analysis.ToolPlot, Description: "Chart: " + desc, Dependencies: []string{id},
			Arguments: chart, Deliverable: analysis.DeliverCharts, EstimatedCostSeconds: 0.3})
	}
	if growth {
		b.add(analysis.Subtask{TaskID: id + "_growth", ToolName: analysis.ToolDF, Description: fmt.Sprintf("Change of %s from %s to %s", m.label, dim, dim),
			Dependencies: []string{id}, Arguments: map[string]any{"input": id, "operation": analysis.OpGrowth, "columns": []any{m.alias}, "group_by": []any{dim}},
			Deliverable: analysis.DeliverTables, EstimatedCostSeconds: 0.1})
	}
	pinned := slices.ContainsFunc(b.in.Filters, func(f intent.Filter) bool {
		return strings.EqualFold(f.Column, dim) && (f.Op == "=" || f.Op == "in") && len(f.Values) == 1
	})
	if b.has(intent.AnalysisShare) && (m.Agg == "sum" || m.Agg == "count") && !pinned {
		// one value of dim kept: its share of itself says nothing
		b.add(analysis.Subtask{TaskID: id + "_share", ToolName: analysis.ToolDF, Description: fmt.Sprintf("Share of %s by %s", m.label, dim),
			Dependencies: []string{id}, Arguments: map[string]any{"input": id, "operation": analysis.OpShare, "columns": []any{m.alias}},
			Deliverable: analysis.DeliverTables, EstimatedCostSeconds: 0.1})
	}
	if b.has(intent.AnalysisShare) && m.Agg == "count_distinct" && !pinned && qual == "" {
		// "share of bookings by deposit type": each group's distinct
		// bookings over all the distinct bookings, which the groups' sum
		// is not when one booking is in two groups
		sargs := maps.Clone(args)
		sargs["query"] = fmt.Sprintf("SELECT %s, %s AS %s, 100.0 * %s / NULLIF((SELECT %s FROM %s%s), 0) AS share_pct FROM %s%s GROUP BY 1 ORDER BY 2 DESC NULLS LAST, 1",
			quoteIdent(dim), m.sql, quoteIdent(m.alias), m.sql, m.sql, from, where, from, where)
		b.add(analysis.Subtask{TaskID: id + "_share", ToolName: analysis.ToolSQL, Description: fmt.Sprintf("Share of %s by %s", m.label, dim),
			Dependencies: deps, Arguments: sargs, Invariants: []string{"share of the distinct values of all rows in scope"},
			Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.3)})
	}
}

// qualifier returns the column that tells apart the namesakes of a
// dimension whose values repeat (SourceColumn.Within), "" when there is
// none, the policy hides it, or a filter keeps one value of it (within
// one state, county names do not repeat).
func (b *planBuilder) qualifier(dim string) string {
	for _, c := range b.table.Columns {
		if !strings.EqualFold(c.Name, dim) || c.Within == "" {
			continue
		}
		if b.allowed != nil && !slices.ContainsFunc(b.allowed, func(a analysis.SourceColumn) bool { return strings.EqualFold(a.Name, c.Within) }) {
			return ""
		}
		if slices.ContainsFunc(b.in.Filters, func(f intent.Filter) bool {
			return strings.EqualFold(f.Column, c.Within) && (f.Op == "=" || f.Op == "in") && len(f.Values) == 1
		}) {
			return ""
		}
		return c.Within
	}
	return ""
}

// yearPair returns the integer year column and the two years a change
// is asked between ("between 1955 and 2005": year in (1955, 2005)).
func (b *planBuilder) yearPair() (col, lo, hi string, ok bool) {
	for _, f := range b.in.Filters {
		if f.Op == "in" && len(f.Values) == 2 && b.isYearColumn(f.Column) {
			lo, hi = f.Values[0], f.Values[1]
			if lo > hi {
				lo, hi = hi, lo
			}
			return f.Column, lo, hi, true
		}
	}
	return "", "", "", false
}

// rankByChange ranks the things of a ranking by the change of the
// measure between two years ("which 4 countries had the biggest gain in
// life expectancy between 1955 and 2005"): each one's value in both years
// and the change, the top N by the change. A thing missing from either
// year has no change and is left out.
func (b *planBuilder) rankByChange(m measure, t *intent.TopN, year, lo, hi string) {
	dim := t.Column
	order, word := "DESC", "Top"
	if !t.Desc {
		order, word = "ASC", "Bottom"
	}
	expr := func(y string) string { return m.when(fmt.Sprintf("%s = %s", quoteIdent(year), y)) }
	from, where, deps, args := b.at(true)
	if where == "" {
		where = " WHERE " + quoteIdent(dim) + " IS NOT NULL"
	} else {
		where += " AND " + quoteIdent(dim) + " IS NOT NULL"
	}
	limit := ""
	desc := fmt.Sprintf("%s ranked by the change of %s from %s to %s%s", capitalize(dim), m.label, lo, hi, b.scopeText())
	if t.N > 0 {
		limit = fmt.Sprintf(" LIMIT %d", t.N)
		desc = fmt.Sprintf("%s %d %s by the change of %s from %s to %s%s", word, t.N, dim, m.label, lo, hi, b.scopeText())
	}
	vlo, vhi := m.alias+"_"+lo, m.alias+"_"+hi
	args["query"] = fmt.Sprintf("SELECT %s, %s, %s, %s - %s AS change FROM (SELECT %s, %s AS %s, %s AS %s FROM %s%s GROUP BY 1) "+
		"WHERE %s IS NOT NULL AND %s IS NOT NULL ORDER BY change %s, 1%s",
		quoteIdent(dim), quoteIdent(vlo), quoteIdent(vhi), quoteIdent(vhi), quoteIdent(vlo),
		quoteIdent(dim), expr(lo), quoteIdent(vlo), expr(hi), quoteIdent(vhi), from, where,
		quoteIdent(vlo), quoteIdent(vhi), order, limit)
	b.add(analysis.Subtask{TaskID: "by_" + fileName(strings.ToLower(dim)) + "_change", ToolName: analysis.ToolSQL, Description: desc,
		Dependencies: deps, Arguments: args, Invariants: []string{"group by " + dim + " before " + m.Agg, "change = " + hi + " - " + lo},
		Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.3)})
}

// when is the measure over the rows where cond holds: its aggregate of
// a CASE ("sum(CASE WHEN year = 2005 THEN pop END)"), rows counted by 1.
func (m measure) when(cond string) string {
	in := quoteIdent(m.Column)
	switch {
	case m.Column == "":
		in = "1"
	case m.Since != "":
		in = spanSQL(m.Measure)
	case m.Times != "":
		in += " * " + quoteIdent(m.Times)
	case m.Over != "":
		in = rowRatio(m.Measure)
	}
	agg := m.Agg
	if m.Column == "" {
		agg = "count"
	}
	if m.PerPeriod != "" {
		// each period's total where cond holds, averaged over its periods
		if m.Column != "" {
			agg = "sum"
		}
		return scaled(aggregate(agg, "CASE WHEN "+cond+" THEN "+in+" END")+" / NULLIF(count(DISTINCT CASE WHEN "+cond+" THEN "+m.period+" END), 0)", m.Scale)
	}
	return scaled(aggregate(agg, "CASE WHEN "+cond+" THEN "+in+" END"), m.Scale)
}

// spanSQL is the days from m.Since to m.Column, row by row: the time
// between them in days, so that a timestamp's hours count (a ticket open
// 20 minutes across midnight is 0.01 of a day, not a day).
func spanSQL(m intent.Measure) string {
	return fmt.Sprintf("(epoch(CAST(%s AS TIMESTAMP)) - epoch(CAST(%s AS TIMESTAMP))) / 86400.0", quoteIdent(m.Column), quoteIdent(m.Since))
}

// spanName names a span's column: days_booked_on_to_arrival_dt.
func spanName(m intent.Measure) string { return "days_" + m.Since + "_to_" + m.Column }

// scaled divides the SQL expression by f, the scale a measure is shown
// in; as it is when f is 0 or 1. The divisor is written as a decimal, so
// that SQLite and PostgreSQL do not divide integers.
func scaled(sql string, f float64) string {
	if f == 0 || f == 1 {
		return sql
	}
	g := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(g, ".") {
		g += ".0"
	}
	return "(" + sql + ") / " + g
}

// scaleName and scaleWords name what a measure was divided by: "k",
// "thousands"; a ratio that is no power of a thousand is written out.
func scaleName(f float64) string {
	switch f {
	case 0.01:
		return "pct"
	case 1e3:
		return "k"
	case 1e6:
		return "m"
	case 1e9:
		return "bn"
	}
	return "div_" + strings.ReplaceAll(strconv.FormatFloat(f, 'g', -1, 64), ".", "_")
}

func scaleWords(f float64) string {
	switch f {
	case 0.01:
		return "percent"
	case 1e3:
		return "thousands"
	case 1e6:
		return "millions"
	case 1e9:
		return "billions"
	}
	return "units of " + strconv.FormatFloat(f, 'g', -1, 64)
}

// changeBy: each value of dim with the measure in the period compared
// against and in the period asked about, the change and the change in
// percent ("percent change in units from 2023 to 2024 by store"), the
// largest rise first. A value absent from the earlier period has no
// percent change.
func (b *planBuilder) changeBy(m measure, dim string) {
	cur, prev := b.in.Time, b.in.Compare
	if cur == nil || prev == nil || cur.Column == "" || m.Per != "" {
		return
	}
	from, where, deps, args := b.at(true)
	if !strings.Contains(where, periodCondition(cur)) {
		return // the period is not where it can be widened to both
	}
	where = strings.Replace(where, periodCondition(cur), "(("+periodCondition(cur)+") OR ("+periodCondition(prev)+"))", 1)
	vprev, vcur := quoteIdent(m.alias+" "+prev.Label), quoteIdent(m.alias+" "+cur.Label)
	args["query"] = fmt.Sprintf("SELECT %s, %s, %s, %s - %s AS change, round(100.0 * (%s - %s) / nullif(%s, 0), 2) AS pct_change "+
		"FROM (SELECT %s, %s AS %s, %s AS %s FROM %s%s GROUP BY 1) ORDER BY pct_change DESC NULLS LAST, 1",
		quoteIdent(dim), vprev, vcur, vcur, vprev, vcur, vprev, vprev,
		quoteIdent(dim), m.when(periodCondition(prev)), vprev, m.when(periodCondition(cur)), vcur, from, where)
	desc := fmt.Sprintf("Change of %s by %s, %s against %s", m.label, dim, cur.Label, prev.Label)
	b.add(analysis.Subtask{TaskID: "by_" + fileName(strings.ToLower(dim)) + "_growth", ToolName: analysis.ToolSQL, Description: desc,
		Dependencies: deps, Arguments: args, Invariants: []string{"group by " + dim + " before " + m.Agg, "change = " + cur.Label + " - " + prev.Label},
		Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.3)})
}

// isYearColumn reports whether col holds years as integers, by the
// parser's rule.
func (b *planBuilder) isYearColumn(col string) bool {
	for _, c := range b.table.Columns {
		if strings.EqualFold(c.Name, col) {
			return intent.IsYearColumn(c.Name, c.Type)
		}
	}
	return false
}

// shareOfFilter: what share of the whole the rows the request's filters
// keep make ("what share of days in 2015 were sunny"): the measure over
// the filtered rows, over all rows of the period, and the one as a
// percentage of the other. Filters on the period (dates, a year column)
// bound both.
func (b *planBuilder) shareOfFilter(m measure) {
	if len(b.in.Filters) == 0 || b.table.Source != "" || !(m.Agg == "sum" || m.Agg == "count" || m.Agg == "count_distinct") {
		return
	}
	var part, scope []string
	for _, f := range b.in.Filters {
		cond := b.condition(f)
		if b.isYearColumn(f.Column) || slices.Contains(b.in.ShareWithin, f.Column) || b.in.RateOf != "" && f.Column != b.in.RateOf {
			scope = append(scope, cond) // "% of male patients": of the male ones
		} else {
			part = append(part, cond)
		}
	}
	if len(part) == 0 {
		return
	}
	if tr := b.in.Time; tr != nil && tr.Column != "" {
		scope = append(scope, periodCondition(tr))
	}
	where := ""
	if len(scope) > 0 {
		where = " WHERE " + strings.Join(scope, " AND ")
	}
	cond := strings.Join(part, " AND ")
	q := fmt.Sprintf("SELECT part, whole, 100.0 * part / NULLIF(whole, 0) AS share_pct FROM (SELECT %s FILTER (WHERE %s) AS part, %s AS whole FROM %s%s)",
		m.sql, cond, m.sql, quoteIdent(b.table.Name), where)
	if b.table.From != "" {
		q = fmt.Sprintf("SELECT part, whole, 100.0 * part / NULLIF(whole, 0) AS share_pct FROM (SELECT %s FILTER (WHERE %s) AS part, %s AS whole FROM %s%s)",
			m.sql, cond, m.sql, b.table.From, where)
	}
	b.add(analysis.Subtask{TaskID: "share", ToolName: analysis.ToolSQL, Description: fmt.Sprintf("Share of %s%s in the whole", m.label, b.scopeText()),
		Arguments: map[string]any{"query": q}, Invariants: []string{"the same period for the part and the whole"}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
}

// periodCondition is the SQL condition of the rows in a period of its date
// column.
func periodCondition(tr *intent.TimeRange) string {
	return fmt.Sprintf("%s >= '%s' AND %s < '%s'", quoteIdent(tr.Column), tr.Start, quoteIdent(tr.Column), tr.End)
}

// rateBy: a rate within each group ("reopen rate by channel"): the part
// its column's filter picks of each group's rows, the other filters and
// the period scoping the whole, highest first (periods in order).
func (b *planBuilder) rateBy(g intent.Group) {
	var part, scope []string
	for _, f := range b.in.Filters {
		if f.Column == b.in.RateOf {
			part = append(part, b.condition(f))
		} else {
			scope = append(scope, b.condition(f))
		}
	}
	if tr := b.in.Time; tr != nil && tr.Column != "" {
		scope = append(scope, periodCondition(tr))
	}
	key, name, order := quoteIdent(g.Column), g.Column, "2 DESC NULLS LAST, 1"
	if g.Grain != "" {
		key, name, order = periodExpr(g.Grain, g.Column), "period", "1"
	}
	where := " WHERE " + key + " IS NOT NULL"
	if len(scope) > 0 {
		where += " AND " + strings.Join(scope, " AND ")
	}
	limit := ""
	if t := b.in.Top; t != nil && strings.EqualFold(t.Column, g.Column) && t.N > 0 {
		limit = fmt.Sprintf(" LIMIT %d", t.N)
		if !t.Desc {
			order = "2 ASC NULLS LAST, 1"
		}
	}
	from, args := quoteIdent(b.table.Name), map[string]any{}
	if b.table.From != "" {
		from = b.table.From
	}
	if b.table.Source != "" {
		if g.Grain != "" {
			return // a period of a database's dates is the workspace's to cut: left to be reported
		}
		args["source"] = b.table.Source // over every row, where they are
	}
	// rows counted with CASE and the subquery named, as SQLite and
	// PostgreSQL read them
	q := fmt.Sprintf("SELECT %s, 100.0 * part / NULLIF(whole, 0) AS rate_pct, part, whole FROM (SELECT %s AS %s, sum(CASE WHEN %s THEN 1 ELSE 0 END) AS part, count(*) AS whole FROM %s%s GROUP BY %s) AS rates ORDER BY %s%s",
		quoteIdent(name), key, quoteIdent(name), strings.Join(part, " AND "), from, where, key, order, limit)
	args["query"] = q
	id := "rate_by_" + fileName(strings.ToLower(name))
	desc := fmt.Sprintf("Share of rows with %s in each %s", strings.Join(part, " AND "), name)
	if len(scope) > 0 {
		desc += " (" + strings.Join(scope, "; ") + ")"
	}
	b.add(analysis.Subtask{TaskID: id, ToolName: analysis.ToolSQL, Description: desc, Arguments: args,
		Invariants: []string{"the part and the whole of each " + name + " over the same rows"}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
	if b.wantsCharts() {
		b.add(analysis.Subtask{TaskID: id + "_chart", ToolName: analysis.ToolPlot, Description: "Chart: " + desc, Dependencies: []string{id},
			Arguments: map[string]any{"input": id, "type": "bar", "x_col": name, "y_col": "rate_pct", "title": desc}, Deliverable: analysis.DeliverCharts, EstimatedCostSeconds: 0.3})
	}
}

// topRows: the rows with the highest (or lowest) values of a column, for
// a ranking of rows ("the 5 wettest days", "top 10 orders by amount").
func (b *planBuilder) topRows(m intent.Measure, t *intent.TopN) {
	order, word := "DESC", "Top"
	if !t.Desc {
		order, word = "ASC", "Bottom"
	}
	by, what, sel := quoteIdent(m.Column), m.Column, b.star()
	if m.Since != "" {
		// each row with its days, ranked by them
		by, what, sel = spanSQL(m), "the days from "+m.Since+" to "+m.Column, sel+", "+spanSQL(m)+" AS "+quoteIdent(spanName(m))
	}
	from, where, deps, args := b.at(m.Since == "")
	if where == "" {
		where = " WHERE "
	} else {
		where += " AND "
	}
	args["query"] = fmt.Sprintf("SELECT %s FROM %s%s%s IS NOT NULL ORDER BY %s %s LIMIT %d", sel, from, where, by, by, order, t.N)
	desc := fmt.Sprintf("%s %d rows by %s%s", word, t.N, what, b.scopeText())
	b.add(analysis.Subtask{TaskID: "top_rows", ToolName: analysis.ToolSQL, Description: desc, Dependencies: deps,
		Arguments: args, Invariants: []string{"filter before ranking"}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
}

// crossBreakdown: every measure per combination of the dimensions, in
// the order of the dimensions, and a bar chart of the first measure by the
// first dimension with a series per value of the second.
func (b *planBuilder) crossBreakdown(ms []measure, dims []string) {
	var parts, cols, names []string
	for k, d := range dims {
		parts = append(parts, fileName(strings.ToLower(d)))
		cols = append(cols, quoteIdent(d))
		names = append(names, fmt.Sprint(k+1))
	}
	id := "by_" + strings.Join(parts, "_")
	sel := strings.Join(cols, ", ")
	for _, m := range ms {
		sel += ", " + m.sql + " AS " + quoteIdent(m.alias)
	}
	from, where, deps, args := b.at(true)
	args["query"] = fmt.Sprintf("SELECT %s FROM %s%s GROUP BY %s ORDER BY %s", sel, from, where, strings.Join(names, ", "), strings.Join(names, ", "))
	desc := fmt.Sprintf("%s by %s%s", capitalize(ms[0].label), strings.Join(dims, " and "), b.scopeText())
	b.add(analysis.Subtask{TaskID: id, ToolName: analysis.ToolSQL, Description: desc, Dependencies: deps,
		Arguments: args, Invariants: []string{"group by " + strings.Join(dims, ", ") + " before " + ms[0].Agg}, Deliverable: analysis.DeliverTables,
		EstimatedCostSeconds: b.cost(0.3)})
	if b.wantsCharts() {
		b.add(analysis.Subtask{TaskID: id + "_chart", ToolName: analysis.ToolPlot, Description: "Chart: " + desc, Dependencies: []string{id},
			Arguments:   map[string]any{"input": id, "type": "bar", "x_col": dims[0], "y_col": ms[0].alias, "series_col": dims[1], "title": desc},
			Deliverable: analysis.DeliverCharts, EstimatedCostSeconds: 0.3})
	}
}

// distribution: the measure's values (up to the row limit) and their
// histogram.
func (b *planBuilder) distribution(col string) {
	b.needLoad()
	q := fmt.Sprintf("SELECT %s FROM %s%s", quoteIdent(col), b.from, b.where)
	if b.where == "" {
		q += " WHERE " + quoteIdent(col) + " IS NOT NULL"
	} else {
		q += " AND " + quoteIdent(col) + " IS NOT NULL"
	}
	q += fmt.Sprintf(" LIMIT %d", b.req.Constraints.RowLimit)
	b.add(analysis.Subtask{TaskID: "values", ToolName: analysis.ToolSQL, Description: "Values of " + col + b.scopeText(), Dependencies: slices.Clone(b.deps),
		Arguments: map[string]any{"query": q}, EstimatedCostSeconds: b.cost(0.3)})
	if b.wantsCharts() {
		b.add(analysis.Subtask{TaskID: "histogram", ToolName: analysis.ToolPlot, Description: "Distribution of " + col + b.scopeText(), Dependencies: []string{"values"},
			Arguments: map[string]any{"input": "values", "type": "histogram", "x_col": col, "title": "Distribution of " + col + b.scopeText()}, Deliverable: analysis.DeliverCharts, EstimatedCostSeconds: 0.3})
	}
}

// profile: summary statistics, outliers, normality, missing values and
// correlations of the rows in scope (of the measures' columns when named).
func (b *planBuilder) profile(ms []measure) {
	b.needLoad()
	args := map[string]any{}
	deps := slices.Clone(b.deps)
	if b.where == "" && b.table.Source == "" && b.table.From == "" {
		args["table"] = b.table.Name
	} else if b.where == "" && b.table.Source != "" {
		args["input"] = "load"
	} else {
		b.add(analysis.Subtask{TaskID: "rows", ToolName: analysis.ToolSQL, Description: "Rows in scope" + b.scopeText(), Dependencies: deps,
			Arguments: map[string]any{"query": fmt.Sprintf("SELECT %s FROM %s%s LIMIT %d", b.star(), b.from, b.where, b.req.Constraints.RowLimit)}, EstimatedCostSeconds: b.cost(0.3)})
		args["input"], deps = "rows", []string{"rows"}
	}
	var cols []any
	for _, m := range ms {
		if m.Column != "" && m.Since == "" && !slices.Contains(cols, any(m.Column)) {
			cols = append(cols, m.Column)
		}
	}
	if len(cols) > 0 && !b.has(intent.AnalysisCorrelation, intent.AnalysisMissing) {
		args["columns"] = cols
	}
	b.add(analysis.Subtask{TaskID: "profile", ToolName: analysis.ToolProfile, Description: "Summary statistics" + b.scopeText(), Dependencies: deps,
		Arguments: args, Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.5)})
}

// regression: a least-squares line of the first measure over time, or of
// the second measure's column on the first's.
func (b *planBuilder) regression(ms []measure) {
	b.needLoad()
	var y, x string
	if len(ms) >= 2 && ms[0].Column != "" && ms[1].Column != "" {
		y, x = quoteIdent(ms[0].Column), quoteIdent(ms[1].Column)
	} else if dc := b.dateColumn(); dc != "" && ms[0].Column != "" {
		y, x = quoteIdent(ms[0].Column), "epoch("+quoteIdent(dc)+")/86400.0"
	} else {
		return
	}
	q := fmt.Sprintf("SELECT regr_slope(%s, %s) AS slope, regr_intercept(%s, %s) AS intercept, regr_r2(%s, %s) AS r_squared, regr_count(%s, %s) AS n FROM %s%s",
		y, x, y, x, y, x, y, x, b.from, b.where)
	b.add(analysis.Subtask{TaskID: "regression", ToolName: analysis.ToolSQL, Description: "Linear regression of " + strings.Trim(y, `"`) + " on " + strings.Trim(x, `"`),
		Dependencies: slices.Clone(b.deps), Arguments: map[string]any{"query": q}, Deliverable: analysis.DeliverTables, EstimatedCostSeconds: b.cost(0.3)})
}

func (b *planBuilder) reasoning() string {
	s := "Offline planner. "
	if len(b.in.Understood) > 0 {
		s += "Understood: " + strings.Join(b.in.Understood, "; ") + ". "
	}
	if len(b.in.Unparsed) > 0 {
		s += "Not understood: " + strings.Join(b.in.Unparsed, ", ") + ". "
	}
	var ids []string
	for _, t := range b.steps {
		ids = append(ids, t.TaskID)
	}
	return s + "Steps: " + strings.Join(ids, ", ") + "."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rowRatio is the SQL of a measure's column divided by its Over column,
// row by row; a row whose divisor is 0 has no ratio.
func rowRatio(m intent.Measure) string {
	return quoteIdent(m.Column) + " / NULLIF(" + quoteIdent(m.Over) + ", 0)"
}

package intent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
)

// Schema is what the parser knows of the data.
type Schema struct{ Tables []Table }

// Table is one table of the data.
type Table struct {
	Name    string
	Rows    int64
	Columns []Column
	// Joined are the tables whose columns this one has through its keys:
	// naming them names this table too.
	Joined []string
	// Aliases are other names of the table, such as the name of the file
	// it was loaded from ("seattle-weather"): their words name the
	// table's subject ("Seattle") as its name's words do.
	Aliases []string
}

// Column is one column of a table.
type Column struct {
	Name string
	// Type is one of "integer", "float", "string", "date", "timestamp", "boolean".
	Type string
	// Values are the distinct values of a low-cardinality text column (up to
	// 1000), for matching filters.
	Values []string
	// Min and Max are the first and last dates (YYYY-MM-DD) of a date or
	// timestamp column, the lowest and highest number of a numeric one
	// ("" when unknown).
	Min, Max string
	// Via is the table a column joined in comes from; "" for the table's
	// own columns.
	Via string `json:",omitempty"`
	// Blanks is how many rows have no value in a date column (0 when
	// none, or not known).
	Blanks int64 `json:",omitempty"`
}

// Intent is what a request asks for, read against a Schema.
type Intent struct {
	Text string
	// Table is the table the request is about: the one whose columns and
	// values it names most, the only one if there is one.
	Table string
	// Measures are what to compute, in the order the request names them.
	Measures []Measure
	// Filters are row filters; all of them hold (AND). Several "!=" filters
	// on one column exclude each of their values.
	Filters []Filter
	// ShareWithin are the columns whose filters say which rows a share is
	// of: "sex" in "what % of male patients had grade 5" keeps the male
	// rows in both the part and the whole; the other filters pick the
	// part. Empty: a share of all the rows.
	ShareWithin []string `json:",omitempty"`
	// RateOf is the column whose filter picks the part of a rate: in
	// "reopen rate by channel for ana", reopened = 'Y' is the part of each
	// channel's rows, and agent = 'ana' scopes the whole. "" for none.
	RateOf string `json:",omitempty"`
	// DateColumn is the date column chosen among several, which a trend
	// is drawn over; "" when the table has one date column or none.
	DateColumn string `json:",omitempty"`
	// Time is the period asked about, on the table's date column.
	Time *TimeRange
	// Compare is the period to compare Time with ("vs last year", "year over
	// year", "compared to Q4 2020").
	Compare *TimeRange
	// GroupBy are the groupings ("by month", "per region", "for each
	// product"), in the order named.
	GroupBy []Group
	// Top is a ranking ("top 10 products", "bottom 5 regions") by the first
	// measure.
	Top *TopN
	// Analyses are the kinds of analysis asked for, from the Analysis
	// constants, in the order named.
	Analyses []string
	// PerPeriodOnly says a total over all the rows would add up a level
	// (a population) over the periods it is shown for apart: no grand
	// total is computed.
	PerPeriodOnly bool
	// Understood says, for each phrase understood, what it was read as:
	// "Q1 2021 -> order_date from 2021-01-01 to 2021-03-31",
	// "Arizona -> state = 'Arizona'".
	Understood []string
	// Unparsed are the content words not understood (stop words left out).
	Unparsed []string
	// Unknown are what would change the answer and could not be applied:
	// the Unparsed words with their nearest columns and values, words of
	// ranking, comparison or negation left over, a period the data has no
	// date for, and what no tool can do ("forecast"). A caller must not
	// answer a request with Unknown as if it were understood.
	Unknown []Unknown
}

// Measure is one aggregate to compute. Agg is one of "sum", "avg",
// "count", "count_distinct", "min", "max", "median", "std"; Column "" with
// "count" means COUNT(*).
type Measure struct {
	Column, Agg string
	// Times is a second column the first is multiplied by, row by row,
	// before Agg: a unit price times a quantity is a revenue. "" for none.
	Times string
	// Over is a column the first is divided by, row by row, before Agg:
	// "the average price per horsepower" of cars is avg(price / hp), each
	// car's ratio averaged. "" for none.
	Over string `json:",omitempty"`
	// Per is a column whose total the aggregate is divided by: "deaths
	// per capita" is sum(deaths) / sum(pop). "" for none.
	Per string
	// PerHowMany is how many of Per the ratio is given for: 1000 in
	// "doctors per 1,000 people", the ratio times 1000. 0 for one.
	PerHowMany float64 `json:",omitempty"`
	// PerEach is a column whose distinct values the total is divided
	// among: "average cost per patient" is sum(cost) / count(DISTINCT
	// patient_id), however many rows a patient has. "" for none.
	PerEach string
	// PerPeriod is the grain ("day", "month") whose periods a total is
	// averaged over: "average daily revenue" is sum(revenue) / the number
	// of days that have rows, each day's total averaged; Column "" totals
	// the rows. Agg is then "avg". "" for none.
	PerPeriod string `json:",omitempty"`
	// Since is a date column the measure counts the days from: Column is
	// then a date too, and each row's value is the days from Since to
	// Column ("median days from booking to check-in"). "" for none.
	Since string `json:",omitempty"`
	// Scale is what the result is divided by to be in the unit asked for:
	// 1000 for "avg salary in $k" over dollars. 0 for none.
	Scale float64
	// DataScale is the scale the request says the column's numbers are in
	// (1e6 for "gdp is in $ millions"): a ratio of the column is
	// multiplied by it to be in ones. 0 for none.
	DataScale float64 `json:",omitempty"`
}

// Filter is one row condition.
type Filter struct {
	Column string
	// Op is one of "=", "in", "!=", ">", ">=", "<", "<=", or "is null" /
	// "is not null" (no Values): the rows where the column is empty, or
	// not.
	Op string
	// Values are spelled exactly as in Column.Values (the data's spelling),
	// or numbers as text ("100", "2.5").
	Values []string
}

// TimeRange is a period on a date or timestamp column.
type TimeRange struct {
	Column string // the date or timestamp column; "" when the table has none
	// Start and End are YYYY-MM-DD; End is exclusive.
	Start, End string
	Label      string // "Q1 2021", "March 2024", "last 30 days"
}

// Group is one grouping. Grain is "day", "week", "month", "quarter",
// "year", "weekday" (the day of the week) or "daytype" (weekend or
// weekday) for a date column, "" otherwise.
type Group struct {
	Column string
	Grain  string
}

// TopN ranks the values of a dimension by the first measure. Column ""
// ranks rows.
type TopN struct {
	N      int
	Column string // the dimension ranked
	Desc   bool   // true for top, false for bottom
}

// The kinds of analysis a request can ask for.
const (
	AnalysisTrend        = "trend"
	AnalysisChart        = "chart"
	AnalysisDistribution = "distribution"
	AnalysisHistogram    = "histogram"
	AnalysisCorrelation  = "correlation"
	AnalysisOutliers     = "outliers"
	AnalysisSummary      = "summary"
	AnalysisNormality    = "normality"
	AnalysisRegression   = "regression"
	AnalysisMissing      = "missing"
	AnalysisGrowth       = "growth"
	AnalysisShare        = "share"
)

// MaxTextLen is the longest request Parse reads, in characters.
const MaxTextLen = 2000

// Parse reads text against s. now anchors relative periods ("last 30 days",
// "this year", "last month") only when the table has no date column (or its
// last date is unknown); otherwise they are relative to the latest date in
// the data (Column.Max), because exports are historical.
//
// Parse returns a *quarry.Error with code quarry.ECodeNeedsClarification,
// and the Intent read so far, when the request names nothing it can
// compute (no measure, no analysis, no column) or a column that does not
// exist (a quoted name, or a word after "by" or an aggregation close to a
// column's name: the message names the closest column); with code
// quarry.ECodeInvalid and no Intent when s has no table or the request is
// longer than MaxTextLen. A request it reads may still have Unknown words:
// the caller decides what they mean for the answer.
func Parse(text string, s Schema, now time.Time) (*Intent, error) {
	in, err := parse(text, s, now)
	if err != nil || in == nil {
		return in, err
	}
	if u := factTable(in, s); u != nil {
		// "headcount by department": the rows of the table that joins
		// departments, not the departments, one to a group
		alt, aerr := parse(text, Schema{Tables: []Table{*u}}, now)
		if aerr == nil && alt != nil && len(alt.Unknown) <= len(in.Unknown) {
			alt.Understood = append([]string{fmt.Sprintf("table %s, not %s (each %s of %s is one row: counting them counts nothing)",
				u.Name, in.Table, in.GroupBy[0].Column, in.Table)}, alt.Understood...)
			return alt, nil
		}
	}
	return in, err
}

// factTable returns the table that joins in.Table when in counts the rows
// of in.Table by a column with one row to each value (a count of 1 in
// every group): those rows are the ones of the joining table.
func factTable(in *Intent, s Schema) *Table {
	if len(in.GroupBy) == 0 || len(in.Measures) > 1 || len(in.Measures) == 1 && in.Measures[0] != (Measure{Agg: "count"}) {
		return nil
	}
	var t *Table
	for ti := range s.Tables {
		if strings.EqualFold(s.Tables[ti].Name, in.Table) {
			t = &s.Tables[ti]
		}
	}
	if t == nil {
		return nil
	}
	unique := false
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, in.GroupBy[0].Column) && len(c.Values) > 0 && int64(len(c.Values)) == t.Rows {
			unique = true
		}
	}
	if !unique {
		return nil
	}
	for ui := range s.Tables {
		if slices.ContainsFunc(s.Tables[ui].Joined, func(n string) bool { return strings.EqualFold(n, t.Name) }) {
			return &s.Tables[ui]
		}
	}
	return nil
}

func parse(text string, s Schema, now time.Time) (*Intent, error) {
	if n := utf8.RuneCountInString(text); n > MaxTextLen {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the request is %d characters long; at most %d are read", n, MaxTextLen).
			WithHint("say what to analyze in fewer words")
	}
	if len(s.Tables) == 0 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "there is no table to analyze").WithHint("load a data file first")
	}
	p := &parser{text: text, s: s, toks: mergePhrases(text, tokenize(text)), in: &Intent{Text: text}, akind: map[int]string{}, subject: -1, sortVerb: -1}
	p.now = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	steps := []func() error{
		p.resolveQuoted,
		p.chooseTable,
		p.pleasantries,
		p.tableCalled,
		p.joinSaid,
		p.readAbbreviations,
		p.dateSpans,
		p.chooseDateColumn,
		p.verbYears,
		p.times,
		p.yearColumnTimes,
		p.periodInData,
		p.missingValues,
		p.analyses,
		p.topN,
		p.orderWords,
		p.versusNot,
		p.numberedLevels,
		p.perPeople,
		p.conditions,
		p.presence,
		p.versusConditions,
		p.weekends,
		p.ratios,
		p.amountParticiples,
		p.groups,
		p.eventRates,
		p.measures,
		p.priceOfAmount,
		p.impliedMeasure,
		p.extremeOfOneRow,
		p.whenOfAnExtreme,
		p.flagPercent,
		p.shareOfATotal,
		p.adjectiveOfRows,
		p.extremeRow,
		p.exactValues,
		p.bareColumns,
		p.typoValues,
		p.subjects,
		p.periodTotals,
		p.applyPerEach,
		p.asides,
		p.leftovers,
		p.defaults,
		p.acrossOver,
		p.growthBetweenYears,
		p.rankAll,
		p.howMuchOfTheOnlyMeasure,
		p.applyOrder,
		p.listedApart,
		p.applyRatio,
		p.shareOfAFilterBy,
		p.labelFilters,
		p.shareWhole,
		p.runningTotal,
		p.rateAlone,
		p.contradictions,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return p.unclear(err)
		}
	}
	p.unknowns()
	p.finish()
	if err := p.computable(); err != nil {
		return p.unclear(err)
	}
	return p.in, nil
}

// unclear returns what was read with an error that a request needs
// clarifying (NEEDS_CLARIFICATION): the Intent says what was understood
// and what not. Any other error returns no Intent.
func (p *parser) unclear(err error) (*Intent, error) {
	if quarry.ErrorCode(err) != quarry.ECodeNeedsClarification {
		return nil, err
	}
	if p.in.Understood == nil {
		p.finish()
	}
	return p.in, err
}

// parser holds one Parse's state.
type parser struct {
	text string
	s    Schema
	toks []token
	in   *Intent
	now  time.Time

	t     *Table              // the table chosen
	tix   int                 // its index in s.Tables
	qcols map[int]colRef      // quoted tokens that name a column
	qvals map[int][]valRef    // quoted tokens that name a value
	vals  map[string][]valRef // the chosen table's values by normalised spelling
	maxVW int                 // the most tokens a value spans
	fuzzy []fuzzyVal          // values matched despite a typo, read once

	date     *Column   // the date column of t, nil if none
	anchor   time.Time // "today" for relative periods
	fromData bool      // anchor is the latest date in the data
	dateMin  time.Time // the first date in the data, zero if unknown

	compares []compareReq // comparisons, resolved once Time is known
	// described are the tokens of participles read as conditions
	// ("returned" in "how many returned orders"): a count reads past them
	// to its noun.
	described map[int]bool
	// measureEnd is the token after the last measure of a column read
	// ("total units| of orders"), 0 if none.
	measureEnd int
	notes      []note
	named      bool // the request named a column of t (for computable)

	pending        pendingGroup // the dimension dimension() read last
	perRow         bool         // "per order": measures average over rows
	perRowReported bool         // a total asked per row was reported
	topPos         int
	topSrc         string
	rankBy         string             // the superlative of a ranking ("wettest", "best"), if any
	order          *orderNote         // the order phrase read ("longest first"), if any
	sortVerb       int                // the index of a first word asking for an order ("rank ..."), or -1
	sortByGroup    bool               // the sort verb is followed by "by" and a grouping, not a measure
	sortTop        bool               // the ranking is the sort verb's: an order phrase sets its direction
	across         []Group            // groupings read after "across"
	akind          map[int]string     // the kind of analysis whose phrase ends at a token
	subject        int                // the noun a numeric condition is about ("orders" in "orders with 5 units"), -1 if none
	valueEnd       map[int]bool       // the tokens right after a filter's values ("customers" in "Canadian customers")
	valueStart     map[int]bool       // the first tokens of values read as filters
	filterAt       map[string]int     // where the first filter on each column was read
	unnamedWhich   []int              // the nouns of "which X had the most" that name no column
	ratio          *ratioReq          // "per capita": the column to divide by, if asked
	unitOf         map[string]float64 // the scale the request says a column is in ("gdp is in $ millions")
	ratioOfWhich   *ratioReq          // a ratio that may be of each row or of the totals, decided by the filters
	perEach        *ratioReq          // "average cost per patient": the entities to divide among
	gross          bool               // "gross sales", "before discounts": price times quantity as meant
	subjectAt      []int              // the tokens read as the table's subject ("strikes" in birdstrikes)
	perPeriod      *periodAverage     // "average daily volume", if asked
	undecided      []undecidedValue   // values whose column is not said
	byNumber       []int              // the columns of numbers after "by" read as what to rank by ("by revenue")
	glosses        []gloss            // phrases explained by the data names in parentheses after them
	blanksAt       int                // where "excl. blanks" said of no column was read
	blanksSaid     bool               // whether it was
	codeCols       map[*Column]bool   // columns of country codes, as decided
	bareShare      bool               // a share word right before the value it is of ("% female")
	whichValue     [2]int             // the value between "which" and the noun it ranks ("which Asian country"), while read
}

// note is one entry of Understood, kept with its position to sort them.
type note struct {
	pos   int
	text  string // "Q1 2021 -> order_date from 2021-01-01 to 2021-03-31"
	short string // "Q1 2021 (order_date)", for error messages
}

type colRef struct {
	table int
	col   *Column
}

func (p *parser) understood(pos int, text, short string) {
	p.notes = append(p.notes, note{pos: pos, text: text, short: short})
}

// free reports whether token i exists and is not used yet.
func (p *parser) free(i int) bool { return i >= 0 && i < len(p.toks) && !p.toks[i].used }

// low returns the lower-case text of token i if it is a free word or
// punctuation mark, "" otherwise.
func (p *parser) low(i int) string {
	if !p.free(i) || p.toks[i].kind == kQuoted {
		return ""
	}
	return p.toks[i].low
}

// use marks tokens i..j-1 as understood.
func (p *parser) use(i, j int) {
	for k := max(i, 0); k < j && k < len(p.toks); k++ {
		p.toks[k].used = true
	}
}

// src returns the request's text from token i to token j-1.
func (p *parser) src(i, j int) string {
	if i >= j || i < 0 || j > len(p.toks) {
		return ""
	}
	return strings.TrimSpace(p.text[p.toks[i].start:p.toks[j-1].end])
}

// phrase reports how many tokens at i spell phrase (words separated by
// spaces), allowing a hyphen between words ("year-over-year"); 0 if they
// do not. Only free tokens match.
func (p *parser) phrase(i int, phrase string) int {
	j := i
	for k, w := range strings.Fields(phrase) {
		if k > 0 && p.low(j) == "-" && w != "-" {
			j++
		}
		if p.low(j) != w {
			return 0
		}
		j++
	}
	return j - i
}

// anyPhrase returns the longest of phrases spelled at i and its length in
// tokens.
func (p *parser) anyPhrase(i int, phrases []string) (string, int) {
	best, n := "", 0
	for _, ph := range phrases {
		if m := p.phrase(i, ph); m > n {
			best, n = ph, m
		}
	}
	return best, n
}

// skip returns the first index at or after i whose token is not one of
// the filler words.
func (p *parser) skip(i int, filler ...string) int {
	for i < len(p.toks) && slices.Contains(filler, p.low(i)) {
		i++
	}
	return i
}

// finish sorts what was understood into the order of the request and
// fills Understood.
func (p *parser) finish() {
	slices.SortStableFunc(p.notes, func(a, b note) int { return cmp.Compare(a.pos, b.pos) })
	for _, n := range p.notes {
		p.in.Understood = append(p.in.Understood, n.text)
	}
}

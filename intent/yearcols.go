package intent

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Wide tables keep one column per year of a measure: pop2000 and pop2010,
// league86 and league87 (a player's league in 1986 and in 1987). A request
// says the measure and the year apart ("the population in 2010", "1987
// salary"), or says only the measure when the table has it for one year.
// readYearColumns reads such words as the column they name, before any
// other pass takes the year for a period of the data.

// yearColumn is a column whose name ends in a year.
type yearColumn struct {
	name string   // the column's name, lower case
	stem []string // the words before the year
	year int      // the year as written: 86 or 2010
}

var yearSuffixRE = regexp.MustCompile(`^(.*[A-Za-z])[ _.-]?([0-9]+)$`)

// yearColumns returns the columns of the chosen table whose names end in a
// year: four digits from 1800 to 2100, or two digits. A stem written with
// other endings too (item1 ... item12, q1 ... q4) numbers a series, not
// years, and none of its columns is returned.
func (p *parser) yearColumns() []yearColumn {
	var out []yearColumn
	series := map[string]bool{}
	for ci := range p.t.Columns {
		m := yearSuffixRE.FindStringSubmatch(p.t.Columns[ci].Name)
		if m == nil {
			continue
		}
		stem := nameWords(m[1])
		key := strings.Join(stem, " ")
		y, _ := strconv.Atoi(m[2])
		if len(stem) == 0 || len(stem[len(stem)-1]) < 3 || !(len(m[2]) == 2 || len(m[2]) == 4 && y >= 1800 && y <= 2100) {
			series[key] = true
			continue
		}
		out = append(out, yearColumn{strings.ToLower(p.t.Columns[ci].Name), stem, y})
	}
	kept := out[:0]
	for _, yc := range out {
		if !series[strings.Join(yc.stem, " ")] {
			kept = append(kept, yc)
		}
	}
	return kept
}

// inYear reports whether the year the request wrote, w, is yc's year.
func (yc yearColumn) inYear(w string) bool {
	y, err := strconv.Atoi(w)
	if err != nil || len(w) != 4 || y < 1800 || y > 2100 {
		return false
	}
	if yc.year < 100 {
		return y%100 == yc.year
	}
	return y == yc.year
}

// yearWords may stand between a measure and its year: "salary in 1987".
var yearWords = []string{"in", "for", "of", "during"}

// readYearColumns joins the words that name a year column into one token
// spelling its name: "population in 2010" and "2010 population" for
// pop2010 when pop is its stem's abbreviation, "league" for league86 when
// the table has the league of no other year. The stem's words must name no
// other column, and a year the table has no column for is left to be
// reported.
func (p *parser) readYearColumns() {
	ycs := p.yearColumns()
	if len(ycs) == 0 {
		return
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) || p.toks[i].kind != kWord {
			continue
		}
		var named []yearColumn
		n := 0
		for _, yc := range ycs {
			k, ok := p.wordsAt(i, yc.stem)
			if !ok && len(yc.stem) == 1 && abbreviates(p.toks[i].low, yc.stem[0]) {
				k, ok = 1, true // "births in 1979" for BIR79
			}
			switch {
			case !ok || k < n:
			case k > n:
				named, n = []yearColumn{yc}, k
			default:
				named = append(named, yc)
			}
		}
		if len(named) == 0 || p.namesOtherColumn(i, n, ycs) {
			continue
		}
		from, end, found := i, i+n, false
		if j := p.skip(i+n, yearWords...); j < len(p.toks) {
			for _, yc := range named {
				if p.free(j) && yc.inYear(p.toks[j].low) {
					named, end, found = []yearColumn{yc}, j+1, true
					break
				}
			}
		}
		if !found && i > 0 {
			for _, yc := range named {
				if p.free(i-1) && yc.inYear(p.toks[i-1].low) {
					named, from, found = []yearColumn{yc}, i-1, true
					break
				}
			}
		}
		if len(named) != 1 {
			// "births" over BIR74 and BIR79: which year is not said
			var names []string
			for _, yc := range named {
				names = append(names, p.columnNamed(yc.name))
			}
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(i, i+n),
				Reason: "the table has it for several years (" + strings.Join(names, ", ") + "); say which year", Nearest: names})
			p.use(i, i+n)
			continue
		}
		p.join(from, end, named[0].name)
		i = from
	}
}

// namesOtherColumn reports whether the n words at i name a column of the
// chosen table that ends in no year: then they are that column's.
func (p *parser) namesOtherColumn(i, n int, ycs []yearColumn) bool {
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		low := strings.ToLower(c.Name)
		if slices.ContainsFunc(ycs, func(yc yearColumn) bool { return yc.name == low }) {
			continue
		}
		if k, ok := p.wordsAt(i, nameWords(c.Name)); ok && k == n {
			return true
		}
	}
	return false
}

// columnNamed returns the chosen table's column name whose lower case is
// low, as the table spells it.
func (p *parser) columnNamed(low string) string {
	for _, c := range p.t.Columns {
		if strings.ToLower(c.Name) == low {
			return c.Name
		}
	}
	return low
}

// columnByName returns the chosen table's column called name, nil if none.
func (p *parser) columnByName(name string) *Column {
	if p.t == nil {
		return nil
	}
	if i := slices.IndexFunc(p.t.Columns, func(c Column) bool { return c.Name == name }); i >= 0 {
		return &p.t.Columns[i]
	}
	return nil
}

// verbYearOps are the words between a verb and the year it is said of:
// "installed before 2016", "founded in 1990".
var verbYearOps = map[string]string{"before": "<", "after": ">", "in": "=", "since": ">=", "during": "="}

// verbYears reads a year said of a verb that names a year column, beside
// a date column the period would otherwise go to: "batches brewed in
// tanks installed before 2016" over brw_dt and install_yr is install_yr <
// 2016, not a brew date before 2016.
func (p *parser) verbYears() error {
	if p.t == nil || p.date == nil {
		return nil
	}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !p.isYearColumn(c) {
			continue
		}
		i, n := p.verbNames(c)
		if n == 0 {
			continue
		}
		k := i + n
		op, ok := verbYearOps[p.low(k)]
		y := p.low(k + 1)
		if !ok || !p.free(k+1) || len(y) != 4 || !isDigits(y) {
			continue
		}
		if k+2 < len(p.toks) && (p.toks[k+2].kind == kWord && (isMonth(p.low(k+2)) || units[p.low(k+2)] != "") || p.low(k+2) == "-") {
			continue // "in 2016 q1", "in 2016-03": a period, not a year
		}
		p.addCondition(k, k+2, i, i+n, c, op, y)
	}
	return nil
}

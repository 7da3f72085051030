package intent

import "testing"

// hittersSchema is a wide table: a player's hits in 1986 and 1987, his
// league in 1986, his salary in 1987 and the years he has played.
func hittersSchema() Schema {
	return schemaOf("hitters", Column{Name: "name", Type: "string"},
		Column{Name: "league86", Type: "string", Values: []string{"AL", "NL"}},
		Column{Name: "hits86", Type: "integer", Min: "1", Max: "238"}, Column{Name: "hits87", Type: "integer", Min: "0", Max: "225"},
		Column{Name: "salary87", Type: "float", Min: "67.5", Max: "2460"},
		Column{Name: "years", Type: "integer", Min: "1", Max: "24"})
}

// TestAYearInAColumnsName: a measure said with its year names the column
// of that year, before or after it; a measure the table has for one year
// only is that year's; a measure of two years said without one, or with a
// year the table lacks, is reported. A count of years is no calendar.
func TestAYearInAColumnsName(t *testing.T) {
	h := hittersSchema()
	checkCases(t, []parseCase{
		{text: "total hits in 1986 by league", schema: h, want: want{Table: "hitters",
			Measures: []Measure{{Column: "hits86", Agg: "sum"}}, GroupBy: []Group{{"league86", ""}}}},
		{text: "average 1987 hits by league", schema: h, want: want{Table: "hitters",
			Measures: []Measure{{Column: "hits87", Agg: "avg"}}, GroupBy: []Group{{"league86", ""}}}},
		{text: "average salary by league", schema: h, want: want{Table: "hitters",
			Measures: []Measure{{Column: "salary87", Agg: "avg"}}, GroupBy: []Group{{"league86", ""}}}},
	})
	reported(t, h, "total hits in 1988 by league", "average hits by league")

	// pop2000 and pop2010 with a four-digit year and a separator.
	wide := schemaOf("counties", Column{Name: "county", Type: "string", Values: []string{"Adams", "Bent"}},
		Column{Name: "pop_2000", Type: "integer", Min: "300", Max: "90000"}, Column{Name: "pop_2010", Type: "integer", Min: "280", Max: "99000"})
	checkCases(t, []parseCase{
		{text: "total pop in 2010", schema: wide, want: want{Table: "counties", Measures: []Measure{{Column: "pop_2010", Agg: "sum"}}}},
	})

	// BIR74 and BIR79: a stem cut short, read whole; which year is asked.
	sids := schemaOf("sids", Column{Name: "county", Type: "string", Values: []string{"Ashe", "Avery"}},
		Column{Name: "BIR74", Type: "integer", Min: "200", Max: "21000"}, Column{Name: "BIR79", Type: "integer", Min: "300", Max: "30000"})
	checkCases(t, []parseCase{
		{text: "total births in 1979", schema: sids, want: want{Table: "sids", Measures: []Measure{{Column: "BIR79", Agg: "sum"}}}},
	})
	reported(t, sids, "total births by county")

	// q1 ... q4 number a series, not years: "q" is no stem.
	series := schemaOf("survey", Column{Name: "item1", Type: "integer"}, Column{Name: "item12", Type: "integer"},
		Column{Name: "region", Type: "string", Values: []string{"East", "West"}})
	reported(t, series, "average item in 2012 by region")
}

package investigate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// monthly writes one row per month and series from start for n months,
// with the columns cols returns for each (month, series) row.
func monthly(t *testing.T, name, header string, start time.Time, n int, series []string, cols func(m time.Time, i int, s string) string) string {
	lines := []string{header}
	for i := range n {
		m := start.AddDate(0, i, 0)
		for _, s := range series {
			lines = append(lines, cols(m, i, s))
		}
	}
	return writeCSV(t, name, lines)
}

// yearMonthBesideDate is the export of the unemployment-by-industry
// table: year and month columns beside the date, and industry C doubling
// in the second year.
func yearMonthBesideDate(t *testing.T) string { return jobs(t, true) }

// yearAndMonth is the same table without the date: the year and the
// month are the time.
func yearAndMonth(t *testing.T) string { return jobs(t, false) }

func jobs(t *testing.T, withDate bool) string {
	header := "series,year,month,count"
	if withDate {
		header += ",date"
	}
	return monthly(t, "jobs.csv", header, time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC), 24,
		[]string{"A", "B", "C"}, func(m time.Time, i int, s string) string {
			count := map[string]int{"A": 100, "B": 200, "C": 300}[s] + 3*(i%4)
			if s == "C" && m.Year() == 2009 {
				count += 300
			}
			row := fmt.Sprintf("%s,%d,%d,%d", s, m.Year(), int(m.Month()), count)
			if withDate {
				row += "," + m.Format(time.DateOnly)
			}
			return row
		})
}

// regionDays writes one row per day from 2024-01-01 and region (east,
// west) for n days, with the columns cols returns for each.
func regionDays(t *testing.T, name, header string, n int, cols func(day time.Time, d int, region string) string) string {
	lines := []string{header}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range n {
		day := start.AddDate(0, 0, d)
		for _, region := range []string{"east", "west"} {
			lines = append(lines, cols(day, d, region))
		}
	}
	return writeCSV(t, name, lines)
}

// namesBesideDate has daily rows with the month's and the weekday's
// names beside the date, and a region column.
func namesBesideDate(t *testing.T) string {
	return regionDays(t, "sales.csv", "day,month_name,weekday,region,amount", 60, func(day time.Time, d int, region string) string {
		amt := 100 + d%7
		if region == "west" && day.Month() == time.February {
			amt -= 40
		}
		return fmt.Sprintf("%s,%s,%s,%s,%d", day.Format(time.DateOnly), day.Month(), day.Format("Mon"), region, amt)
	})
}

// monthNamesWithATypo has 200 days of rows in two regions with the
// month's name beside the date, one of the 400 misspelt: a word that
// writes no part of a date, on fewer rows than the check tolerates.
func monthNamesWithATypo(t *testing.T) string {
	return regionDays(t, "typo.csv", "day,month_name,region,amount", 200, func(day time.Time, d int, region string) string {
		name := day.Month().String()
		if d == 40 && region == "east" {
			name = "Febuary"
		}
		return fmt.Sprintf("%s,%s,%s,%d", day.Format(time.DateOnly), name, region, 100+d%7)
	})
}

// fiscalQuarters has monthly rows labelled with a fiscal quarter of a
// year starting in July ("FY2021 Q1" is July to September 2020) and the
// calendar quarter ("2020-Q3").
func fiscalQuarters(t *testing.T) string {
	return monthly(t, "fin.csv", "month,fiscal_quarter,quarter,unit,revenue", time.Date(2020, 7, 1, 0, 0, 0, 0, time.UTC), 24,
		[]string{"north", "south"}, func(m time.Time, i int, s string) string {
			fy, fq := m.Year(), (int(m.Month())-7+12)%12/3+1
			if m.Month() >= 7 {
				fy++
			}
			return fmt.Sprintf("%s,FY%d Q%d,%d-Q%d,%s,%d", m.Format(time.DateOnly), fy, fq, m.Year(), (int(m.Month())-1)/3+1, s, 100+i)
		})
}

// lookalikes has columns named like time parts that are not: a "year"
// holding store numbers, a "month" code that changes within a month, and
// a one-row-per-day weather column.
func lookalikes(t *testing.T) string {
	lines := []string{"date,year,month,weather,amount"}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range 56 {
		day := start.AddDate(0, 0, d)
		lines = append(lines, fmt.Sprintf("%s,%d,%d,%s,%d", day.Format(time.DateOnly), 2001+d%3, 1+d%5,
			[]string{"sun", "rain", "fog"}[(d*d)%3], 100+d%7))
	}
	return writeCSV(t, "days.csv", lines)
}

// flagOnMonths is monthly data on the first of each month with a 0/1
// column that is 1 on all rows but one: it agrees with the day of the
// month on 99.5% of the rows, and stays a flag.
func flagOnMonths(t *testing.T) string {
	return monthly(t, "flags.csv", "month,series,promo,amount", time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC), 72,
		[]string{"A", "B", "C"}, func(m time.Time, i int, s string) string {
			promo := 1
			if i == 5 && s == "A" {
				promo = 0
			}
			return fmt.Sprintf("%s,%s,%d,%d", m.Format(time.DateOnly), s, promo, 100+i%5)
		})
}

// TestTimePartsAreTime: columns that restate part of the time column are
// recognised from their values, row by row, and are never segments;
// columns that only look like them stay dimensions.
func TestTimePartsAreTime(t *testing.T) {
	for _, tt := range []struct {
		name, metric, base, cmp string
		file                    func(*testing.T) string
		want                    map[string]string // column -> role, or role:part
		first                   string            // the first explanation's title, when checked
	}{
		{"year and month beside the date", "SELECT SUM(count) FROM jobs", "2008-01-01..2008-12-31", "2009-01-01..2009-12-31", yearMonthBesideDate,
			map[string]string{"year": "time_part:year", "month": "time_part:month", "series": "dimension", "date": "time", "count": "measure"},
			"Higher value per row in series=C: 304.5 to 604.5 (+100.0%)"},
		{"a year and a month, no date", "SELECT SUM(count) FROM jobs", "2008-01-01..2008-12-31", "2009-01-01..2009-12-31", yearAndMonth,
			map[string]string{"year": "time", "month": "time", "series": "dimension"},
			"Higher value per row in series=C: 304.5 to 604.5 (+100.0%)"},
		{"month and weekday names", "SELECT SUM(amount) FROM sales", "2024-01-01..2024-01-31", "2024-02-01..2024-02-29", namesBesideDate,
			map[string]string{"month_name": "time_part:month", "weekday": "time_part:day of the week", "region": "dimension", "day": "time"}, ""},
		{"month names, one misspelt", "SELECT SUM(amount) FROM typo", "2024-01-01..2024-03-31", "2024-04-01..2024-06-30", monthNamesWithATypo,
			map[string]string{"month_name": "time_part:month", "region": "dimension", "day": "time"}, ""},
		{"fiscal and calendar quarters", "SELECT SUM(revenue) FROM fin", "2020-07-01..2021-06-30", "2021-07-01..2022-06-30", fiscalQuarters,
			map[string]string{"fiscal_quarter": "time_part:period", "quarter": "time_part:quarter", "unit": "dimension", "month": "time"}, ""},
		{"a flag on monthly data", "SELECT SUM(amount) FROM flags", "2022-01-01..2022-12-31", "2023-01-01..2023-12-31", flagOnMonths,
			map[string]string{"promo": "measure", "series": "dimension", "month": "time"}, ""},
		{"columns that only look like time", "SELECT SUM(amount) FROM days", "2024-01-01..2024-01-28", "2024-01-29..2024-02-25", lookalikes,
			map[string]string{"year": "dimension", "month": "dimension", "weather": "dimension", "date": "time"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			iv := runFiles(t, tt.metric, tt.base, tt.cmp, tt.file(t))
			got := map[string]string{}
			for _, c := range iv.res.Columns {
				got[c.Column] = c.Role
				if c.Part != "" {
					got[c.Column] += ":" + c.Part
				}
			}
			for col, want := range tt.want {
				if got[col] != want {
					t.Errorf("column %s: role %q; want %q (all: %v)", col, got[col], want, got)
				}
			}
			for _, e := range iv.res.Explanations {
				for _, sv := range e.Segment {
					if want := tt.want[sv.Column]; want != "dimension" {
						t.Errorf("explanation %q slices by %s, a %s", e.Title, sv.Column, want)
					}
				}
			}
			if got := titles(iv.res.Explanations); tt.first != "" && (len(got) == 0 || got[0] != tt.first) {
				t.Errorf("explanations %v; want first %q", got, tt.first)
			}
		})
	}
}

func titles(es []investigation.Explanation) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%s (%+.1f%%)", e.Title, 100*e.ShareOfChange)
	}
	return out
}

// TestIgnoredColumns: a column to ignore is never sliced by and says so;
// a name no file has is INVALID and lists the columns there are.
func TestIgnoredColumns(t *testing.T) {
	path := yearMonthBesideDate(t)
	b, _ := quarry.ParseDateRange("2008-01-01..2008-12-31")
	c, _ := quarry.ParseDateRange("2009-01-01..2009-12-31")
	ic := investigation.Context{MetricSQL: "SELECT SUM(count) FROM jobs", BaselinePeriod: b, ComparisonPeriod: c, IgnoreColumns: []string{"jobs.SERIES"}}
	iv, err := runContextErr(t, ic, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range iv.res.Columns {
		if col.Column == "series" && col.Role != investigation.ColumnIgnored {
			t.Errorf("series: role %s; want ignored", col.Role)
		}
	}
	for _, e := range iv.res.Explanations {
		if len(e.Segment) > 0 {
			t.Errorf("explanation %q slices by an ignored column", e.Title)
		}
	}
	ic.IgnoreColumns = []string{"industry"}
	_, err = runContextErr(t, ic, path)
	want := `INVALID: column "industry" to ignore is in none of the files; their columns are series, year, month, count, date (name a column as COLUMN or TABLE.COLUMN)`
	if err == nil || err.Error() != want {
		t.Errorf("ignoring a column no file has: %v; want %s", err, want)
	}
}

// TestMonthlyChecksAtItsGrain: monthly data gets no weekday check, in
// the plan, the hypotheses, the loop or the report, and its data-quality
// checks and noise name months, not days.
func TestMonthlyChecksAtItsGrain(t *testing.T) {
	iv := runFiles(t, "SELECT SUM(count) FROM jobs", "2008-01-01..2008-12-31", "2009-01-01..2009-12-31", yearMonthBesideDate(t))
	if iv.res.Overall.Grain != investigation.GrainMonth {
		t.Fatalf("grain %q; want monthly", iv.res.Overall.Grain)
	}
	for _, artifact := range []string{"analysis/plan.json", "analysis/memory.md", "report.md"} {
		text := iv.read(t, artifact)
		for _, daily := range []string{"weekday", "daily", "day-to-day", "missing days", "partial days"} {
			if i := strings.Index(strings.ToLower(text), daily); i >= 0 {
				t.Errorf("%s of monthly data says %q: %q", artifact, daily, text[max(0, i-80):min(len(text), i+80)])
			}
		}
	}
	if plan := iv.read(t, "analysis/plan.json"); !strings.Contains(plan, "missing months per segment") || !strings.Contains(plan, "month-to-month variation") {
		t.Errorf("the plan does not check months:\n%s", plan)
	}
}

package investigate

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

func datesFrom(start string, n int, step func(time.Time, int) time.Time) []quarry.Date {
	s := quarry.MustParseDate(start).Time()
	out := make([]quarry.Date, n)
	for i := range out {
		out[i] = quarry.NewDate(step(s, i))
	}
	return out
}

func TestDetectGrain(t *testing.T) {
	days := func(t time.Time, i int) time.Time { return t.AddDate(0, 0, i) }
	weeks := func(t time.Time, i int) time.Time { return t.AddDate(0, 0, 7*i) }
	months := func(t time.Time, i int) time.Time { return t.AddDate(0, i, 0) }
	quarters := func(t time.Time, i int) time.Time { return t.AddDate(0, 3*i, 0) }
	years := func(t time.Time, i int) time.Time { return t.AddDate(i, 0, 0) }
	monthEnds := func(t time.Time, i int) time.Time {
		return time.Date(2023, time.Month(2+i), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	}
	gappy := append(datesFrom("2024-01-01", 3, months), datesFrom("2024-06-01", 4, months)...)
	tests := []struct {
		name  string
		dates []quarry.Date
		want  string
	}{
		{"days", datesFrom("2024-01-01", 28, days), investigation.GrainDay},
		{"one date", datesFrom("2024-01-01", 1, days), investigation.GrainDay},
		{"weeks on sundays", datesFrom("2024-01-07", 8, weeks), investigation.GrainWeek},
		{"months", datesFrom("2022-01-01", 24, months), investigation.GrainMonth},
		{"months with a gap", gappy, investigation.GrainMonth},
		{"month ends", datesFrom("2023-01-01", 12, monthEnds), investigation.GrainMonth},
		{"quarters", datesFrom("2021-01-01", 8, quarters), investigation.GrainQuarter},
		{"years", datesFrom("2010-01-01", 14, years), investigation.GrainYear},
		{"two years", datesFrom("2020-01-01", 2, years), investigation.GrainYear},
		{"daily data that starts on the 1st", append(datesFrom("2024-01-01", 1, days), datesFrom("2024-01-05", 2, days)...), investigation.GrainDay},
	}
	for _, tt := range tests {
		if got := detectGrain(tt.dates); got.unit != tt.want {
			t.Errorf("%s: grain %s; want %s", tt.name, got.unit, tt.want)
		}
	}
}

func TestGrainPeriods(t *testing.T) {
	rg := func(a, b string) quarry.DateRange {
		return quarry.DateRange{Start: quarry.MustParseDate(a), End: quarry.MustParseDate(b)}
	}
	str := func(ds []quarry.Date) string {
		var s []string
		for _, d := range ds {
			s = append(s, d.String())
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		g    grain
		rg   quarry.DateRange
		want string
	}{
		{grain{unit: investigation.GrainMonth, anchor: quarry.MustParseDate("2022-01-01")}, rg("2023-01-01", "2023-04-30"), "2023-01-01 2023-02-01 2023-03-01 2023-04-01"},
		{grain{unit: investigation.GrainMonth, anchor: quarry.MustParseDate("2023-01-31"), endOfMonth: true}, rg("2023-01-01", "2023-03-31"), "2023-01-31 2023-02-28 2023-03-31"},
		{grain{unit: investigation.GrainQuarter, anchor: quarry.MustParseDate("2021-02-01")}, rg("2022-01-01", "2022-12-31"), "2022-02-01 2022-05-01 2022-08-01 2022-11-01"},
		{grain{unit: investigation.GrainYear, anchor: quarry.MustParseDate("2010-01-01")}, rg("2017-01-01", "2019-12-31"), "2017-01-01 2018-01-01 2019-01-01"},
		{grain{unit: investigation.GrainWeek, anchor: quarry.MustParseDate("2024-01-07")}, rg("2024-01-01", "2024-01-31"), "2024-01-07 2024-01-14 2024-01-21 2024-01-28"},
		{daily, rg("2024-02-28", "2024-03-01"), "2024-02-28 2024-02-29 2024-03-01"},
	}
	for _, tt := range tests {
		if got := str(tt.g.periods(tt.rg)); got != tt.want {
			t.Errorf("%s periods in %s = %s; want %s", tt.g.unit, tt.rg, got, tt.want)
		}
	}
}

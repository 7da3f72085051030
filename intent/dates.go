package intent

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// span is a period [start, end) read from the request.
type span struct {
	start, end time.Time
	unit       string // "day", "week", "month", "quarter", "half", "year"; "" for any other length
	label      string
	rel        bool // relative to the anchor ("last 30 days")
	yearGiven  bool // the request wrote the year (or the period needs none)
}

const iso = "2006-01-02"

func ymd(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func monthStart(t time.Time) time.Time { return ymd(t.Year(), t.Month(), 1) }
func quarterStart(t time.Time) time.Time {
	return ymd(t.Year(), time.Month((int(t.Month())-1)/3*3+1), 1)
}
func halfStart(t time.Time) time.Time { return ymd(t.Year(), time.Month((int(t.Month())-1)/6*6+1), 1) }
func yearStart(t time.Time) time.Time { return ymd(t.Year(), 1, 1) }
func weekStart(t time.Time) time.Time { return t.AddDate(0, 0, -(int(t.Weekday())+6)%7) }

// unitStart returns the start of the calendar unit holding t.
func unitStart(t time.Time, unit string) time.Time {
	switch unit {
	case "week":
		return weekStart(t)
	case "month":
		return monthStart(t)
	case "quarter":
		return quarterStart(t)
	case "half":
		return halfStart(t)
	case "year":
		return yearStart(t)
	}
	return t
}

// addUnits moves t by n units.
func addUnits(t time.Time, unit string, n int) time.Time {
	switch unit {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	case "quarter":
		return t.AddDate(0, 3*n, 0)
	case "half":
		return t.AddDate(0, 6*n, 0)
	case "year":
		return t.AddDate(n, 0, 0)
	}
	return t
}

// calendar returns the calendar unit that starts at start.
func calendar(start time.Time, unit string) span {
	s := span{start: start, end: addUnits(start, unit, 1), unit: unit, yearGiven: true}
	s.label = label(s.start, s.end)
	return s
}

var monthFull = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// label names [start, end) the way people do: "2021", "H1 2021",
// "Q1 2021", "March 2021", "2021-03-05", else "2021-01-05 to 2021-02-02"
// (the last day included).
func label(start, end time.Time) string {
	y := start.Year()
	switch {
	case end.Equal(start.AddDate(0, 0, 1)):
		return start.Format(iso)
	case start.Day() != 1:
	case start.Month() == 1 && end.Equal(start.AddDate(1, 0, 0)):
		return strconv.Itoa(y)
	case (start.Month() == 1 || start.Month() == 7) && end.Equal(start.AddDate(0, 6, 0)):
		return fmt.Sprintf("H%d %d", (int(start.Month())-1)/6+1, y)
	case (start.Month()-1)%3 == 0 && end.Equal(start.AddDate(0, 3, 0)):
		return fmt.Sprintf("Q%d %d", (int(start.Month())-1)/3+1, y)
	case end.Equal(start.AddDate(0, 1, 0)):
		return fmt.Sprintf("%s %d", monthFull[start.Month()-1], y)
	}
	return start.Format(iso) + " to " + end.AddDate(0, 0, -1).Format(iso)
}

var months = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

var units = map[string]string{
	"day": "day", "days": "day", "week": "week", "weeks": "week", "wk": "week", "wks": "week",
	"month": "month", "months": "month", "mo": "month", "mos": "month", "mth": "month", "mths": "month",
	"quarter": "quarter", "quarters": "quarter", "qtr": "quarter", "qtrs": "quarter",
	"year": "year", "years": "year", "yr": "year", "yrs": "year",
	// a day of the week is a grain to group by, never a period's length
	"weekday": "weekday",
}

var ordinals = map[string]int{
	"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "dozen": 12,
}

// count reads a small whole number written in digits or words.
func count(w string) (int, bool) {
	if n, ok := numberWords[w]; ok {
		return n, true
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n > 0 && n < 100000
}

// yearOf reads a four-digit year between 1900 and 2100.
func yearOf(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(w)
	return y, err == nil && y >= 1900 && y <= 2100
}

// dayOf reads a day of the month: "5", "05", "5th", "21st".
func dayOf(w string) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, suf)
	}
	d, err := strconv.Atoi(w)
	return d, err == nil && d >= 1 && d <= 31 && len(w) <= 2
}

// validDate returns the date y-m-d if it exists.
func validDate(y, m, d int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2100 {
		return time.Time{}, false
	}
	t := ymd(y, time.Month(m), d)
	return t, t.Month() == time.Month(m) && t.Day() == d
}

// numericDate reads a date written in one token: "2021-01-05",
// "2021/01/05", "01/05/2021" (month first unless the first number is over
// 12), "2024-03", "03/2024", "2020-2021".
func numericDate(w string) (span, bool) {
	sep := "-"
	if strings.Contains(w, "/") {
		sep = "/"
	}
	parts := strings.Split(w, sep)
	nums := make([]int, len(parts))
	for k, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || part == "" {
			return span{}, false
		}
		nums[k] = n
	}
	switch {
	case len(parts) == 3 && len(parts[0]) == 4:
		if t, ok := validDate(nums[0], nums[1], nums[2]); ok {
			return calendar(t, "day"), true
		}
	case len(parts) == 3 && len(parts[2]) == 4 && len(parts[0]) <= 2 && len(parts[1]) <= 2:
		m, d := nums[0], nums[1]
		if m > 12 {
			m, d = d, m
		}
		if t, ok := validDate(nums[2], m, d); ok {
			return calendar(t, "day"), true
		}
	case len(parts) == 2 && len(parts[0]) == 4 && len(parts[1]) == 4:
		a, okA := yearOf(parts[0])
		b, okB := yearOf(parts[1])
		if okA && okB && b >= a {
			s := span{start: ymd(a, 1, 1), end: ymd(b+1, 1, 1), yearGiven: true}
			s.label = label(s.start, s.end)
			return s, true
		}
	case len(parts) == 2 && len(parts[0]) == 4 && len(parts[1]) <= 2:
		if t, ok := validDate(nums[0], nums[1], 1); ok {
			return calendar(t, "month"), true
		}
	case len(parts) == 2 && len(parts[1]) == 4 && len(parts[0]) <= 2:
		if t, ok := validDate(nums[1], nums[0], 1); ok {
			return calendar(t, "month"), true
		}
	}
	return span{}, false
}

// withYear returns s moved to year y (for "Q1 to Q3 2021", where the first
// period takes the second's year).
func (s span) withYear(y int) span {
	d := y - s.start.Year()
	s.start, s.end = s.start.AddDate(d, 0, 0), s.end.AddDate(d, 0, 0)
	s.label = label(s.start, s.end)
	s.yearGiven = true
	return s
}

// days is the length of [start, end) in days.
func (s span) days() int { return int(s.end.Sub(s.start).Hours()/24 + 0.5) }

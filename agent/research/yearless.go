package research

// Dates written without their year: "July 18" in a race report, "Friday
// 21 March" in a listing, "march 17" in a forum post. A reader takes the
// year from the document's own date; so does the research, so that such
// a day is a value like any other.

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// dayMonthRE is a day and a month in either order, in any case ("18
// July", "July 18th", "march 17"); a year after it is checked apart.
var dayMonthRE = regexp.MustCompile(`(?i)\b(?:(\d{1,2})(?:st|nd|rd|th)?(?: of)? (` + monthNames + `)|(` + monthNames + `)\.? (\d{1,2})(?:st|nd|rd|th)?)\b`)

const monthNames = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec`

// yearAfterRE is a year that completes a day and month: "18 July 2024",
// "July 18, 2024".
var yearAfterRE = regexp.MustCompile(`^,? ?(?:\d{3,4}\b|'\d\d\b)`)

// withYears returns s with the year written into each date that has
// none (nearestYear: "December 6" in a report of February 2025 is
// 2024's), and each month name capitalised. An
// undated source's sentence is returned unchanged.
func withYears(s string, published time.Time) string {
	if published.IsZero() {
		return s
	}
	ms := dayMonthRE.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		day, month := m[2:4], m[4:6]
		if day[0] < 0 {
			day, month = m[8:10], m[6:8]
		}
		word := s[month[0]:month[1]]
		mon := strings.ToLower(word[:3])
		d, _ := strconv.Atoi(s[day[0]:day[1]])
		hasYear := yearAfterRE.MatchString(s[m[1]:])
		switch {
		case d < 1 || d > 31 || months[mon] == "":
			continue
		// "may 5", "mar 3" in lower case are no dates; nor is "March 5"
		// before a unit ("March 5 km"), a count.
		case word == strings.ToLower(word) && (mon == "may" || len(word) < 4), !hasYear && unitAfter(s[m[1]:]) != "":
			continue
		}
		b.WriteString(s[last:month[0]])
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		b.WriteString(s[month[1]:m[1]])
		last = m[1]
		if hasYear {
			continue
		}
		mo, _ := strconv.Atoi(months[mon])
		year := strconv.Itoa(nearestYear(mo, d, published))
		if day[0] < month[0] {
			b.WriteString(" " + year) // "18 July 2024"
		} else {
			b.WriteString(", " + year) // "July 18, 2024"
		}
	}
	if last == 0 {
		return s
	}
	return b.String() + s[last:]
}

// nearestYear is the latest year that puts month mo and day d no more
// than a month after published: sources mostly tell what has happened
// ("refloated on 9 November" in a report of September 2025 is 2024's),
// a listing what is about to.
func nearestYear(mo, d int, published time.Time) int {
	limit := published.AddDate(0, 1, 0)
	for y := published.Year() + 1; y > published.Year()-1; y-- {
		if !time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).After(limit) {
			return y
		}
	}
	return published.Year() - 1
}

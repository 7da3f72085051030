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
var yearAfterRE = regexp.MustCompile(`^(?:,? ?\d{4}\b| \d{3}\b|,? ?'\d\d\b)`)

// withYears returns s with the year written into each date that has
// none (nearestYear: "December 6" in a report of February 2025 is
// 2024's), and each month name capitalised. An
// undated source's sentence is returned unchanged.
func withYears(s string, published time.Time) string {
	var last time.Time
	return withYearsAfter(s, published, &last)
}

// withYearsAfter is withYears for one of a document's sentences in
// turn: latest is the latest day the sentences before gave a year, and a
// day that nearestYear would put before it, but that falls within two
// months after it in its year, takes that year (a schedule of 12 August
// whose days run "Sept. 7" to "Sept. 21" is one September's).
func withYearsAfter(s string, published time.Time, latest *time.Time) string {
	if published.IsZero() {
		return s
	}
	ms := dayMonthRE.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	prevEnd, prevYear := -1, 0
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
			prevEnd, prevYear = m[1], 0
			if ym := regexp.MustCompile(`\d{4}`).FindString(s[m[1]:min(len(s), m[1]+7)]); ym != "" {
				prevYear, _ = strconv.Atoi(ym)
			}
			continue
		}
		mo, _ := strconv.Atoi(months[mon])
		y := nearestYear(mo, d, published)
		if !latest.IsZero() {
			day := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
			if then := time.Date(latest.Year(), time.Month(mo), d, 0, 0, 0, 0, time.UTC); day.Before(*latest) && !then.Before(*latest) && then.Before(latest.AddDate(0, 2, 0)) {
				y = latest.Year()
			}
		}
		if later := yearOfRange(s[m[1]:]); later != 0 {
			y = later // "from Thursday 10 July to Sunday 20 July 2025"
		} else if prevYear != 0 && prevEnd >= 0 && rangeJoinRE.MatchString(s[prevEnd:m[0]]) {
			y = prevYear // "opens on July 10th, 2025 and runs until July 20th"
		} else if wd, ok := weekdayBefore(s[:m[0]]); ok {
			// "Thursday 10 July" is in the year 10 July is a Thursday.
			for _, c := range []int{y, y - 1, y + 1} {
				if time.Date(c, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Weekday() == wd {
					y = c
					break
				}
			}
		}
		year := strconv.Itoa(y)
		prevEnd, prevYear = m[1], y
		if day := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC); day.After(*latest) {
			*latest = day
		}
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

// rangeEndRE is the end of a range of days whose last day has a year:
// " to Sunday 20 July 2025", "–20 July 2025", " and 12 March 2024".
var rangeEndRE = regexp.MustCompile(`(?i)^\s*(?:to|until|till|through|and|[-–—])\s*(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:` + monthNames + `)|(?:` + monthNames + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?)\b,?\s+(\d{4})\b`)

// yearOfRange is the year of the day that ends a range begun at a day
// written without one, 0 when rest ends none.
func yearOfRange(rest string) int {
	if m := rangeEndRE.FindStringSubmatch(rest); m != nil {
		y, _ := strconv.Atoi(m[1])
		return y
	}
	return 0
}

// weekdayBeforeRE is a weekday right before a day: "Thursday ", "Thursday, ".
var weekdayBeforeRE = regexp.MustCompile(`(?i)\b(mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:the\s+)?$`)

// weekdayBefore is the weekday written right before a day, if any.
func weekdayBefore(before string) (time.Weekday, bool) {
	m := weekdayBeforeRE.FindStringSubmatch(before)
	if m == nil {
		return 0, false
	}
	days := map[string]time.Weekday{"mon": time.Monday, "tues": time.Tuesday, "wednes": time.Wednesday, "thurs": time.Thursday, "fri": time.Friday, "satur": time.Saturday, "sun": time.Sunday}
	return days[strings.ToLower(m[1])], true
}

// rangeJoinRE is what lies between a range's first day and its last:
// " to ", " and runs until ", "–".
var rangeJoinRE = regexp.MustCompile(`(?i)^[^.;:]{0,25}\b(?:to|until|till|through)\b[^.;:]{0,12}$|^\s*[-–—]\s*$`)

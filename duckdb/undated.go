package duckdb

import (
	"strings"
)

// A part of a date (its year, quarter, month, week, weekday or day) is
// written with digits, or as an English month or weekday name or its
// abbreviation: the words DuckDB's monthname, dayname and strftime's %b
// and %a write. A text value that holds no digit and, upper-cased with
// every character but A-Z and 0-9 removed, is none of those words writes
// no part of any date. An investigation checks text columns against its
// time column row by row (does the column restate the year, the month,
// ...?); the load counts such values over the groups its text tests
// make anyway, so that a column of words can be found to restate no part
// of the date without that check grouping it again by date.

// partWords are the upper-cased English month and weekday names and
// abbreviations.
var partWords = []string{
	"JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER",
	"JAN", "FEB", "MAR", "APR", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
	"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY",
	"MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN",
}

// undated is the SQL condition that the text x writes no part of a
// date: it has no digit (upper-casing adds or removes none) and,
// normalised as the time-part check normalises a value, is no date word.
func undated(x string) string {
	words := make([]string, len(partWords))
	for i, d := range partWords {
		words[i] = quoteString(d)
	}
	return "NOT regexp_matches(" + x + ", '[0-9]') AND regexp_replace(upper(" + x + "), '[^A-Z0-9]', '', 'g') NOT IN (" + strings.Join(words, ", ") + ")"
}

// keepUndated keeps on t's text columns the count of their rows that
// write no part of a date, where the text tests grouped them and the
// column kept its values as they were read (grouped holds no column a
// reading changed).
func keepUndated(t *table, grouped map[string]textValues) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if g, ok := grouped[c.Name]; ok && g.HasUndated && strings.EqualFold(c.Type, "VARCHAR") {
			c.Undated, c.HasUndated = g.Undated, true
		}
	}
}

// UndatedRows returns how many rows of the text column of table hold a
// value that writes no part of any date: one without a digit that is
// no English month or weekday name or abbreviation once upper-cased
// with every character but A-Z and 0-9 removed (an empty text is one;
// NULL is not counted). ok is false when the load did not count them: a
// column that is not text, one the load read in another way (dates,
// numbers, NA as missing), or one of too many distinct values for the
// text tests to group.
func (e *Engine) UndatedRows(table, column string) (rows int64, ok bool) {
	t, found := e.lookup(table)
	if !found {
		return 0, false
	}
	c, found := t.column(column)
	if !found || !c.HasUndated {
		return 0, false
	}
	return c.Undated, true
}

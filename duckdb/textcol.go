package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// A text reading is how the values of a text column are read as dates,
// timestamps or numbers. Exports write dates in many layouts (15-May-2017,
// Sep 17, 2017, 01/01/2015 00:00, 2017-05, 2017 Q1) and numbers with
// thousands separators, currency signs and percent signs; DuckDB's own
// detection knows few of them and leaves such columns as text, where
// SUM(amount) fails. LoadCSV reads every text column whose values all fit
// one of the layouts below as that type, and says so in the column's Note.
//
// A layout is chosen by the column's values, never row by row: the
// candidates are tried on a sample of the column's distinct values, and the
// first one that reads every sampled value is checked against the whole
// column. Month-first layouts come before their day-first twins, so a
// column whose every value reads both ways (no day above 12) is read
// month-first, and the note says the reading was ambiguous; --time-format
// swaps it.
type textReading struct {
	Type   string // the DuckDB type the values become: DATE, TIMESTAMP, DOUBLE, BIGINT or BOOLEAN
	Format string // the strptime layout, or isoFormat, quarterFormat, numberUS, numberEU, truthFormat
	Note   string // one sentence for the schema
	// Swap is the day-first twin of a month-first Format (or the reverse)
	// when that too reads every value: the reading is ambiguous.
	Swap string
}

// Pseudo-formats for readings that are not one strptime layout.
const (
	isoFormat         = "ISO 8601"
	quarterFormat     = "YYYY-Qn"
	numberUS          = "1,234.5"
	numberEU          = "1.234,5"
	truthFormat       = "true/false"
	missingFormat     = "numbers or NA"
	missingTextFormat = "words or NA"
)

// strptimeLayouts are the strptime layouts tried on text columns, in order of
// preference. Month-first layouts come before their day-first twins.
var strptimeLayouts = func() []string {
	var out []string
	times := []string{"", " %H:%M", " %H:%M:%S", " %I:%M %p", " %I:%M:%S %p"}
	for _, d := range []string{"%m/%d/%Y", "%d/%m/%Y", "%m-%d-%Y", "%d-%m-%Y", "%d.%m.%Y"} {
		for _, t := range times {
			out = append(out, d+t)
		}
	}
	out = append(out,
		"%Y-%m", "%Y/%m", "%m/%d/%y", "%d/%m/%y", "%d.%m.%y",
		"%d-%b-%Y", "%d-%b-%y", "%d %b %Y", "%d %B %Y", "%b %d, %Y", "%B %d, %Y",
		"%b %d %Y", "%B %d %Y", "%b %Y", "%B %Y", "%b-%Y", "%b-%y", "%Y%m%d",
	)
	// Month names with a time of day: "Aug 10 2023 01:00", "3 Mar 2021 14:05:09".
	for _, d := range []string{"%b %d %Y", "%b %d, %Y", "%d %b %Y", "%B %d %Y", "%B %d, %Y", "%d %B %Y"} {
		for _, t := range times[1:] {
			out = append(out, d+t)
		}
	}
	return out
}()

// Quarters: 2017-Q1, 2017 Q1, 2017Q1, Q1 2017, Q1-2017.
var (
	quarterYearFirst = `^\s*(\d{4})\s*[-/ ]?\s*[Qq]([1-4])\s*$`
	quarterFirst     = `^\s*[Qq]([1-4])\s*[-/ ]?\s*(\d{4})\s*$`
)

// Numbers written for people: an optional sign or accounting parentheses, a
// currency sign before or after, digits grouped by thousands, and an
// optional percent sign. US style groups with commas and ends with a
// decimal point; European style the other way round.
const (
	numberUSPattern = `^\s*\(?\s*[-+]?\s*[$€£¥]?\s*[-+]?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*%?\s*[$€£¥]?\s*\)?\s*$`
	numberEUPattern = `^\s*\(?\s*[-+]?\s*[$€£¥]?\s*[-+]?\s*(\d{1,3}(\.\d{3})+|\d+)(,\d+)?\s*%?\s*[$€£¥]?\s*\)?\s*$`
)

var (
	numberUSRE = regexp.MustCompile(numberUSPattern)
	numberEURE = regexp.MustCompile(numberEUPattern)
	// offsetRE finds a UTC offset after a time of day: 23:30:00-05:00, 10:00Z.
	offsetRE = `(\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)\s*(Z|UTC|[+-]\d{2}(:?\d{2})?)$`

	offsetPattern = regexp.MustCompile(offsetRE)
)

// sampleValues is how many distinct values of a text column are looked at
// to choose a reading; the choice is then checked on every value.
const sampleValues = 500

// readingExpr returns the SQL expression that reads the text column q
// (quoted) as r.Type.
func readingExpr(r textReading, q string) string {
	v := "trim(" + q + ")"
	switch r.Format {
	case truthFormat:
		return "TRY_CAST(" + v + " AS BOOLEAN)"
	case missingFormat:
		return "TRY_CAST(" + v + " AS " + r.Type + ")"
	case missingTextFormat:
		return "CASE WHEN " + v + " IN (" + missingTextList + ") THEN NULL ELSE " + q + " END"
	case numberUS, numberEU:
		digits := "regexp_replace(" + v + ", '[^0-9.]', '', 'g')"
		if r.Format == numberEU {
			digits = "replace(regexp_replace(" + v + ", '[^0-9,]', '', 'g'), ',', '.')"
		}
		return fmt.Sprintf("(CASE WHEN %s LIKE '%%(%%)%%' OR contains(%s, '-') THEN -1 ELSE 1 END) * TRY_CAST(%s AS DOUBLE)", v, v, digits)
	case isoFormat:
		// The offset is dropped: the file's wall-clock time is its local
		// time. An offset follows a time of day, so a value without a
		// colon has none, and skips the regular expression.
		ts := fmt.Sprintf("TRY_CAST(CASE WHEN contains(%s, ':') THEN regexp_replace(%s, %s, '\\1') ELSE %s END AS TIMESTAMP)", v, v, quoteString(offsetRE), v)
		return castTo(ts, r.Type)
	case quarterFormat:
		a := fmt.Sprintf("make_date(TRY_CAST(regexp_extract(%s, %s, 1) AS INTEGER), (TRY_CAST(regexp_extract(%s, %s, 2) AS INTEGER) - 1) * 3 + 1, 1)",
			v, quoteString(quarterYearFirst), v, quoteString(quarterYearFirst))
		b := fmt.Sprintf("make_date(TRY_CAST(regexp_extract(%s, %s, 2) AS INTEGER), (TRY_CAST(regexp_extract(%s, %s, 1) AS INTEGER) - 1) * 3 + 1, 1)",
			v, quoteString(quarterFirst), v, quoteString(quarterFirst))
		return fmt.Sprintf("(CASE WHEN regexp_full_match(%s, %s) THEN %s WHEN regexp_full_match(%s, %s) THEN %s END)",
			v, quoteString(quarterYearFirst), a, v, quoteString(quarterFirst), b)
	}
	return castTo(fmt.Sprintf("try_strptime(%s, %s)", v, quoteString(r.Format)), r.Type)
}

func castTo(expr, typ string) string {
	if typ == "TIMESTAMP" {
		return expr
	}
	return "CAST(" + expr + " AS " + typ + ")"
}

// swapDayMonth returns layout with %d and %m exchanged, or "" when it has
// not both.
func swapDayMonth(layout string) string {
	if !strings.Contains(layout, "%d") || !strings.Contains(layout, "%m") {
		return ""
	}
	return strings.NewReplacer("%d", "%m", "%m", "%d").Replace(layout)
}

// hasTime reports whether a layout carries a time of day.
func hasTime(layout string) bool {
	return layout == isoFormat || strings.Contains(layout, "%H") || strings.Contains(layout, "%I")
}

// readTextColumn decides how the text column col of table name reads,
// from sample, its distinct values (textSample), cands, the date layouts
// that read every one of them (dateCandidates), and values, how many of
// its values are not empty. ok is false when it stays text; retyped is
// true when the column already has the reading's type (see
// retypeChecked), and readTextColumns is left to retype it otherwise.
func (e *Engine) readTextColumn(ctx context.Context, name, col string, sample, cands []string, values int64) (r textReading, ok, retyped bool, err error) {
	q := quoteIdent(col)
	if len(sample) == 0 {
		return r, false, false, nil
	}
	for _, s := range sample {
		if !strings.ContainsAny(s, "0123456789") || len(s) > 40 {
			return r, false, false, nil
		}
	}
	if r, ok := numberReading(sample); ok {
		if all, err := e.retypeChecked(ctx, name, col, &r, values); err != nil || all {
			return r, all, all, err
		}
	}
	// Each layout tried is a scan of the column; a sample that several
	// read alike is read by the first few or not at all.
	cands = cands[:min(len(cands), maxLayoutTries)]
	for _, f := range cands {
		r := textReading{Type: "DATE", Format: f}
		if hasTime(f) {
			r.Type = "TIMESTAMP"
		}
		if swapDayMonth(f) == "" {
			// No day-first twin to try on the text: the column is
			// read, and read back if a value did not read.
			all, err := e.retypeChecked(ctx, name, col, &r, values)
			if err != nil || !all {
				if err != nil {
					return r, false, false, err
				}
				continue
			}
			r.Note = dateNote(r, sample)
			return r, true, true, nil
		}
		bad, timed, err := e.readCounts(ctx, name, q, r)
		if err != nil {
			return r, false, false, err
		}
		if bad > 0 {
			continue
		}
		if sw := swapDayMonth(f); sw != "" {
			if both, err := e.readsAll(ctx, name, q, textReading{Type: r.Type, Format: sw}); err != nil {
				return r, false, false, err
			} else if both {
				r.Swap = sw
			}
		}
		if r.Type == "TIMESTAMP" && timed == 0 {
			// every time of day is midnight (01/01/2015 00:00)
			r.Type = "DATE"
		}
		r.Note = dateNote(r, sample)
		return r, true, false, nil
	}
	return r, false, false, nil
}

// retypeChecked gives column c of table name the type r reads it as and
// keeps it when r read each of its values, of which values are not empty
// (dates each as a year between 1800 and 2200); otherwise it leaves the
// column as it was. Checking the values read takes one scan of the
// typed column, where checking the text before reading it took a scan
// of the text as costly as the reading. A TIMESTAMP reading whose every
// time of day is midnight becomes a DATE (01/01/2015 00:00).
func (e *Engine) retypeChecked(ctx context.Context, name, c string, r *textReading, values int64) (bool, error) {
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("duckdb: read text column %s of %s: %w", c, name, err)
	}
	defer tx.Rollback() // a no-op once committed
	q, t := quoteIdent(c), quoteIdent(name)
	alter := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DATA TYPE %s USING %s", t, q, r.Type, readingExpr(*r, q))
	if _, err := tx.ExecContext(ctx, alter); err != nil {
		return false, fmt.Errorf("duckdb: read text column %s of %s: %w", c, name, err)
	}
	// An empty value reads as NULL, so the values read are the
	// non-empty ones that read.
	ok, times := readingChecks(*r, q)
	var read, timed int64
	if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FILTER (WHERE %s), %s FROM %s", ok, times, t)).Scan(&read, &timed); err != nil {
		return false, fmt.Errorf("duckdb: check reading of %s: %w", name, err)
	}
	if read != values {
		return false, nil
	}
	if r.Type == "TIMESTAMP" && timed == 0 {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DATA TYPE DATE", t, q)); err != nil {
			return false, fmt.Errorf("duckdb: read text column %s of %s: %w", c, name, err)
		}
		r.Type = "DATE"
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("duckdb: read text column %s of %s: %w", c, name, err)
	}
	return true, nil
}

// textSample returns up to sampleValues distinct trimmed non-empty values.
func (e *Engine) textSample(ctx context.Context, name, q string) ([]string, error) {
	rows, err := e.db.QueryContext(ctx, fmt.Sprintf(
		"SELECT DISTINCT trim(%s) AS v FROM %s WHERE nullif(trim(%s), '') IS NOT NULL LIMIT %d",
		q, quoteIdent(name), q, sampleValues))
	if err != nil {
		return nil, fmt.Errorf("duckdb: sample %s: %w", name, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// numberReading reports whether every sampled value is a number written
// for people, and in which style. Columns of plain numbers are DuckDB's
// already, so one value must carry a separator, sign or currency.
func numberReading(sample []string) (textReading, bool) {
	us, eu, decorated, percent := true, true, false, false
	var signs []string
	for _, s := range sample {
		us = us && numberUSRE.MatchString(s)
		eu = eu && numberEURE.MatchString(s)
		if strings.ContainsAny(s, ",$€£¥%()") {
			decorated = true
		}
		for _, c := range []string{"$", "€", "£", "¥"} {
			if strings.Contains(s, c) && !contains(signs, c) {
				signs = append(signs, c)
			}
		}
		percent = percent || strings.Contains(s, "%")
	}
	if !decorated || !us && !eu {
		return textReading{}, false
	}
	r := textReading{Type: "DOUBLE", Format: numberUS}
	what := "thousands separators"
	if !us {
		r.Format, what = numberEU, "European digit grouping (1.234,5)"
	}
	if len(signs) > 0 {
		what += " and currency signs (" + strings.Join(signs, " ") + ")"
	}
	r.Note = "numbers read from text with " + what
	if percent {
		r.Note = "percentages read as numbers (12.5% is 12.5), from text with " + what
	}
	return r, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maxLayoutTries bounds the layouts checked against a whole column.
const maxLayoutTries = 8

// sniffValues is how many of a sample's values choose the candidate
// layouts: every candidate is then checked on the whole column, so more
// values would only weed out earlier what that check refuses anyway, at
// the cost of every layout on every value (over a minute for 2,048
// columns of codes at 500 values each).
const sniffValues = 50

// dateCandidates returns, for each sample of a column's values, the
// layouts that read its first sniffValues values as dates between the
// years 1800 and 2200, in order of preference. Planning the query of all layouts costs
// about 30 ms whatever the data, so one query answers for profileBatch*4
// columns. A sample that is not valid UTF-8 gets no layouts.
func (e *Engine) dateCandidates(ctx context.Context, samples [][]string) ([][]string, error) {
	formats := append([]string{isoFormat}, strptimeLayouts...)
	formats = append(formats, quarterFormat)
	sel := []string{"c"}
	for _, f := range formats {
		x := readingExpr(textReading{Type: "TIMESTAMP", Format: f}, "v")
		if f == quarterFormat {
			x = "CAST(" + x + " AS TIMESTAMP)"
		}
		sel = append(sel, fmt.Sprintf("count(*) FILTER (WHERE year(%s) BETWEEN 1800 AND 2200)", x))
	}
	// The values are data: they go in as list parameters, never as SQL
	// text, each beside the index of its sample.
	q := "SELECT " + strings.Join(sel, ", ") + " FROM (SELECT unnest(?::INTEGER[]) AS c, unnest(?::VARCHAR[]) AS v) AS s GROUP BY c"
	out := make([][]string, len(samples))
	const batch = 4 * profileBatch
	for start := 0; start < len(samples); start += batch {
		var idx []int32
		var vals []string
		for i := start; i < min(start+batch, len(samples)); i++ {
			if _, ok := textList(samples[i]); !ok || !mayBeDates(samples[i][:min(len(samples[i]), sniffValues)]) {
				continue
			}
			for _, v := range samples[i][:min(len(samples[i]), sniffValues)] {
				idx = append(idx, int32(i))
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if err := e.layoutCounts(ctx, q, idx, vals, func(c int, counts []int64) {
			for k, f := range formats {
				if counts[k] == int64(min(len(samples[c]), sniffValues)) {
					out[c] = append(out[c], f)
				}
			}
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dateWords are the words a value read by one of the layouts can hold:
// month names and their abbreviations (%b, %B), AM and PM (%p), T, Z and
// UTC in ISO 8601 timestamps, and Q in quarters.
var dateWords = func() map[string]bool {
	m := map[string]bool{"am": true, "pm": true, "t": true, "z": true, "utc": true, "q": true}
	for mo := time.January; mo <= time.December; mo++ {
		name := strings.ToLower(mo.String())
		m[name], m[name[:3]] = true, true
	}
	return m
}()

// mayBeDates reports whether every value could be read by a layout: it
// has a digit (May-7 reads as %b-%y), and its words are dateWords. Codes (SKU123,
// A-17) fail at once, which spares the query of every layout over the
// columns of a wide file of codes. FuzzReadText checks that no value a
// layout reads fails here.
func mayBeDates(values []string) bool {
	for _, v := range values {
		digits := 0
		for i := 0; i < len(v); {
			c := v[i]
			switch {
			case c >= '0' && c <= '9':
				digits++
				i++
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				j := i
				for j < len(v) && (v[j] >= 'a' && v[j] <= 'z' || v[j] >= 'A' && v[j] <= 'Z') {
					j++
				}
				if !dateWords[strings.ToLower(v[i:j])] {
					return false
				}
				i = j
			default:
				i++
			}
		}
		if digits == 0 {
			return false
		}
	}
	return true
}

// layoutCounts runs dateCandidates' query and passes each sample's index
// and counts per layout to fn.
func (e *Engine) layoutCounts(ctx context.Context, q string, idx []int32, vals []string, fn func(c int, counts []int64)) error {
	rows, err := e.db.QueryContext(ctx, q, idx, vals)
	if err != nil {
		return fmt.Errorf("duckdb: date layouts: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var c int32
	counts := make([]int64, len(cols)-1)
	dest := []any{&c}
	for i := range counts {
		dest = append(dest, &counts[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("duckdb: date layouts: %w", err)
		}
		fn(int(c), counts)
	}
	return rows.Err()
}

// readsAll reports whether r reads every non-empty value of the column
// (and, for dates, each as a year between 1800 and 2200).
func (e *Engine) readsAll(ctx context.Context, name, q string, r textReading) (bool, error) {
	bad, _, err := e.readCounts(ctx, name, q, r)
	return bad == 0, err
}

// readingChecks returns, for the values x of reading r, the condition a
// value read must meet (for dates, a year between 1800 and 2200) and the
// count of TIMESTAMP values whose time of day is not midnight ("0" for
// other types).
func readingChecks(r textReading, x string) (ok, times string) {
	ok, times = x+" IS NOT NULL", "0"
	if r.Type != "DOUBLE" {
		ok = fmt.Sprintf("year(%s) BETWEEN 1800 AND 2200", x)
	}
	if r.Type == "TIMESTAMP" {
		times = fmt.Sprintf("count(*) FILTER (WHERE %s <> date_trunc('day', %s))", x, x)
	}
	return ok, times
}

// readCounts counts, in one scan of the column, the non-empty values r
// does not read (for dates, as a year between 1800 and 2200), and for a
// TIMESTAMP reading the values whose time of day is not midnight.
func (e *Engine) readCounts(ctx context.Context, name, q string, r textReading) (bad, timed int64, err error) {
	ok, times := readingChecks(r, readingExpr(r, q))
	err = e.db.QueryRowContext(ctx, fmt.Sprintf(
		"SELECT count(*) FILTER (WHERE NOT coalesce(%s, false)), %s FROM %s WHERE nullif(trim(%s), '') IS NOT NULL",
		ok, times, quoteIdent(name), q)).Scan(&bad, &timed)
	if err != nil {
		return 0, 0, fmt.Errorf("duckdb: check reading of %s: %w", name, err)
	}
	return bad, timed, nil
}

// dateNote says in words how a date column was read.
func dateNote(r textReading, sample []string) string {
	kind := "dates"
	if r.Type == "TIMESTAMP" {
		kind = "timestamps"
	}
	note := fmt.Sprintf("%s read from text as %s (e.g. %s)", kind, r.Format, sample[0])
	if r.Format == isoFormat {
		// ISO dates are what everyone expects; only offsets need saying.
		note = ""
		for _, s := range sample {
			if offsetPattern.MatchString(s) {
				note = kind + " with UTC offsets (e.g. " + s + "); the offsets are dropped: dates and times are the file's own local time"
				break
			}
		}
	}
	if r.Swap != "" {
		note += fmt.Sprintf("; ambiguous: no day is above 12, so month-first and day-first both fit; read as %s, pass --time-format %s to read it the other way", r.Format, r.Swap)
	}
	return note
}

// isoDates is the reading of a column of ISO dates without a time of day.
var isoDates = textReading{Type: "DATE", Format: isoFormat}

// readTextColumns reads the table's text columns that hold dates or
// numbers as such, replacing the table once, and returns the readings by
// column name, and what the tests learned of the values of the text
// columns they grouped and that keep them as they are (see textValues).
func (e *Engine) readTextColumns(ctx context.Context, name string) (map[string]textReading, map[string]textValues, error) {
	cols, err := e.catalogColumns(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	var text, dates []string
	for _, c := range cols {
		// Text only: a TIME column (a time of day) is not text to read
		// in other layouts, though quarry calls it a string.
		if strings.EqualFold(c.Type, "VARCHAR") {
			text = append(text, c.Name)
		}
		// DuckDB's reader read ISO dates (see createTable) as the
		// first layout would have.
		if strings.EqualFold(c.Type, "DATE") {
			dates = append(dates, c.Name)
		}
	}
	text, more, values, grouped, err := e.readableColumns(ctx, name, text)
	if err != nil {
		return nil, nil, err
	}
	samples := make([][]string, len(text))
	for i, c := range text {
		if samples[i], err = e.textSample(ctx, name, quoteIdent(c)); err != nil {
			return nil, nil, err
		}
	}
	cands, err := e.dateCandidates(ctx, samples)
	if err != nil {
		return nil, nil, err
	}
	reads := map[string]textReading{}
	for c, r := range more {
		reads[c] = r
	}
	retyped := map[string]bool{}
	for _, c := range dates {
		reads[c], retyped[c] = isoDates, true
		if grouped[c], err = e.dateValues(ctx, name, c); err != nil {
			return nil, nil, err
		}
	}
	for i, c := range text {
		r, ok, done, err := e.readTextColumn(ctx, name, c, samples[i], cands[i], values[c])
		if err != nil {
			return nil, nil, err
		}
		if ok {
			reads[c], retyped[c] = r, done
		}
	}
	for c, r := range reads {
		if r != isoDates {
			delete(grouped, c)
		}
		if retyped[c] {
			continue
		}
		if err := e.retype(ctx, name, c, r); err != nil {
			return nil, nil, err
		}
	}
	return reads, grouped, nil
}

// dateValues groups the values of a DATE column that DuckDB's reader read
// (at most one a day from 1800 to 2200, a few hundred thousand, which
// datesInRange checked) for what the profile would otherwise estimate
// in two more scans (see textValues).
func (e *Engine) dateValues(ctx context.Context, name, col string) (textValues, error) {
	var v textValues
	var top any
	q := quoteIdent(col)
	err := e.db.QueryRowContext(ctx, fmt.Sprintf(
		"SELECT count(v), coalesce((list(CAST(v AS VARCHAR) ORDER BY n DESC, v) FILTER (WHERE v IS NOT NULL))[1:%d], []), coalesce(sum(n) FILTER (WHERE v IS NOT NULL), 0)::BIGINT FROM (SELECT %s AS v, count(*) AS n FROM %s GROUP BY %s)",
		quarry.MaxSampleValues, q, quoteIdent(name), q)).Scan(&v.Distinct, &top, &v.NonNull)
	if err != nil {
		return v, fmt.Errorf("duckdb: dates of %s: %w", name, err)
	}
	v.Top = toStrings(top)
	return v, nil
}

// textValues is what grouping a column's values told (the text tests'
// groups, see textCounts, or dateValues): how many distinct values it
// holds, its most frequent ones (quarry.MaxSampleValues at most, most
// rows first, ties in value order) and how many rows hold a value. They
// are exact, where the profile of a large table would count with
// HyperLogLog and guess the most frequent with approx_top_k, two more
// scans of the column, and count its values in a third.
type textValues struct {
	Distinct int64
	Top      []string
	NonNull  int64
	// Undated is how many rows hold a text value that writes no part
	// of a date (see UndatedRows), when HasUndated: the text tests
	// count it over their groups.
	Undated    int64
	HasUndated bool
}

// retype gives column c of table name the type r reads it as. Only that
// column is written again: rewriting the whole table for a date column of
// 500,000 rows cost five times as much.
func (e *Engine) retype(ctx context.Context, name, c string, r textReading) error {
	q := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DATA TYPE %s USING %s",
		quoteIdent(name), quoteIdent(c), r.Type, readingExpr(r, quoteIdent(c)))
	if _, err := e.db.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("duckdb: read text column %s of %s: %w", c, name, err)
	}
	return nil
}

// readableColumns returns the text columns of table name that may read as
// numbers or dates: those with a value and whose every non-empty value has
// a digit and at most 40 characters, which every reading needs (see
// readTextColumn). It also returns the columns read here and now: true
// and false as words are a boolean (yes and no stay the data's words, for
// answers to show them as written), numbers beside a missing-value
// marker ("NA", as R writes them) are numbers with those missing, and
// words beside NA are words with NA missing (see missingWords); and for
// each column that may read, how many of its values are not empty. Two
// scans at most answer every test of profileBatch columns (textCounts:
// one over the distinct values of the columns with few, one over the
// rows of the others), so that a wide file of words costs a few queries
// rather than several per column; and a column with a plain word among
// its first rows is text without the tests of readings.
func (e *Engine) readableColumns(ctx context.Context, name string, cols []string) (readable []string, read map[string]textReading, values map[string]int64, grouped map[string]textValues, err error) {
	read, values, grouped = map[string]textReading{}, map[string]int64{}, map[string]textValues{}
	cands, few, err := e.notPlainText(ctx, name, cols)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	maybe := map[string]bool{}
	for _, c := range cands {
		maybe[c] = true
	}
	markers := map[string]int64{}
	for start := 0; start < len(cols); start += profileBatch {
		batch := cols[start:min(start+profileBatch, len(cols))]
		var byValue, byRow []string
		for _, c := range batch {
			if few[c] {
				byValue = append(byValue, c)
			} else {
				byRow = append(byRow, c)
			}
		}
		counts := map[string][]int64{}
		for i, part := range [][]string{byValue, byRow} {
			if err := e.textCounts(ctx, name, part, maybe, i == 0, counts, grouped); err != nil {
				return nil, nil, nil, nil, err
			}
		}
		for _, c := range batch {
			markers[c] = counts[c][0]
			if !maybe[c] {
				continue
			}
			n := counts[c][1:]
			values[c] = n[0]
			switch {
			case n[0] == 0:
			case n[1] == 0:
				readable = append(readable, c)
			case n[2] == 0:
				read[c] = textReading{Type: "BOOLEAN", Format: truthFormat, Note: "read as a boolean: every value is true or false"}
			case n[3] == 0 && n[1] < n[0]:
				// some values are numbers, and every other one a marker
				r := textReading{Type: "DOUBLE", Format: missingFormat, Note: "read as numbers; " + missingMarkers + " are missing values"}
				if n[4] == 0 {
					r.Type = "BIGINT"
				}
				read[c] = r
			}
		}
	}
	var words []string
	for _, c := range cols {
		if _, ok := read[c]; !ok && !slices.Contains(readable, c) && markers[c] > 0 {
			words = append(words, c)
		}
	}
	return readable, read, values, grouped, e.missingWords(ctx, name, words, read)
}

// textCounts counts, in one query, for each of cols of table name: the
// values that are NA and the like (missingWords), and for a column that
// may read (maybe), how many values are not empty, and of those how many
// are over 40 characters or have no digit, are not true or false, are
// neither a number nor a marker, and are neither an integer nor a marker.
// Each count is of a test of the value alone, so byValue counts over the
// column's distinct values, each weighed by its rows (one GROUP BY per
// column, one after the other, under UNION ALL: GROUPING SETS would hold
// every column's hash table at once): for a column of a few hundred
// values, as dates and categories are, that costs a tenth of testing
// every row. counts gets the column's counts in that order, and grouped
// what the groups tell of each column's values (textValues).
func (e *Engine) textCounts(ctx context.Context, name string, cols []string, maybe map[string]bool, byValue bool, counts map[string][]int64, grouped map[string]textValues) error {
	if len(cols) == 0 {
		return nil
	}
	var sel, groups, tops []string
	for i, c := range cols {
		x := quoteIdent(c)
		where := func(cond string) string {
			return fmt.Sprintf("count(*) FILTER (WHERE %s)", cond)
		}
		if byValue {
			groups = append(groups, fmt.Sprintf("SELECT %d AS k, %s AS v, count(*) AS n FROM %s GROUP BY %s", i, x, quoteIdent(name), x))
			x = "v"
			// CASEs rather than FILTERs over the groups: the same
			// counts, but with FILTERs DuckDB took a fifth longer over
			// the whole query (six columns of 500,000 rows).
			where = func(cond string) string {
				return fmt.Sprintf("coalesce(sum(CASE WHEN k = %d AND (%s) THEN n END), 0)::BIGINT", i, cond)
			}
			tops = append(tops, fmt.Sprintf("count(CASE WHEN k = %d AND v IS NOT NULL THEN 1 END)", i),
				fmt.Sprintf("coalesce((list(v ORDER BY n DESC, v) FILTER (WHERE k = %d AND v IS NOT NULL))[1:%d], [])", i, quarry.MaxSampleValues),
				fmt.Sprintf("coalesce(sum(CASE WHEN k = %d AND v IS NOT NULL THEN n END), 0)::BIGINT", i),
				fmt.Sprintf("coalesce(sum(CASE WHEN k = %d AND v IS NOT NULL AND %s THEN n END), 0)::BIGINT", i, undated("v")))
		}
		v := "nullif(trim(" + x + "), '')"
		sel = append(sel, where(fmt.Sprintf("%s IN (%s)", v, missingTextList)))
		if !maybe[c] {
			continue
		}
		value := fmt.Sprintf("%s NOT IN (%s)", v, missingList)
		sel = append(sel, where(v+" IS NOT NULL"),
			where(fmt.Sprintf("length(%s) > 40 OR NOT regexp_matches(%s, '[0-9]')", v, v)),
			where(fmt.Sprintf("lower(%s) NOT IN ('true', 'false')", v)),
			where(fmt.Sprintf("%s AND TRY_CAST(%s AS DOUBLE) IS NULL", value, v)),
			where(fmt.Sprintf("%s AND NOT regexp_full_match(%s, '[+-]?[0-9]+')", value, v)))
	}
	query := "SELECT " + strings.Join(append(sel, tops...), ", ") + " FROM " + quoteIdent(name)
	if byValue {
		// The groups are materialized before the counts: read straight
		// from the UNION ALL, each of its GROUP BYs is a pipeline of its
		// own with its own state of every aggregate (six of them sorted
		// lists), a fixed cost that was half the query on a small table
		// (0.035-0.045 CPU s at 2,000 rows, 0.019-0.025 materialized;
		// 0.01-0.02 less at 500,000 rows too).
		query = "WITH g AS MATERIALIZED (" + strings.Join(groups, " UNION ALL ") + ") SELECT " + strings.Join(append(sel, tops...), ", ") + " FROM g"
	}
	got := make([]int64, len(sel))
	dest := make([]any, len(sel), len(sel)+len(tops))
	for i := range got {
		dest[i] = &got[i]
	}
	distinct, nonNull, undated := make([]int64, len(cols)), make([]int64, len(cols)), make([]int64, len(cols))
	top := make([]any, len(cols))
	for i := range len(tops) / 4 {
		dest = append(dest, &distinct[i], &top[i], &nonNull[i], &undated[i])
	}
	if err := e.db.QueryRowContext(ctx, query).Scan(dest...); err != nil {
		return fmt.Errorf("duckdb: text columns of %s: %w", name, err)
	}
	for i, c := range cols {
		k := 1
		if maybe[c] {
			k += 5
		}
		counts[c], got = got[:k], got[k:]
		if byValue {
			grouped[c] = textValues{Distinct: distinct[i], Top: toStrings(top[i]), NonNull: nonNull[i], Undated: undated[i], HasUndated: true}
		}
	}
	return nil
}

// missingWords adds to read the columns of words (columns of text that
// hold NA or the like beside their words, as R writes a missing value)
// whose NA is read as missing: those that hold no other codes in
// capitals (Namibia's is NA, and so is North America's beside EMEA and
// APAC). Only columns with a marker come here, so most files skip the
// regular expression's scan. One query answers for profileBatch columns.
func (e *Engine) missingWords(ctx context.Context, name string, words []string, read map[string]textReading) error {
	for start := 0; start < len(words); start += profileBatch {
		batch := words[start:min(start+profileBatch, len(words))]
		sel := make([]string, 0, len(batch))
		for _, c := range batch {
			v := "nullif(trim(" + quoteIdent(c) + "), '')"
			sel = append(sel, fmt.Sprintf("count(*) FILTER (WHERE %s NOT IN (%s) AND regexp_full_match(%s, '[A-Z]{2,5}'))", v, missingTextList, v))
		}
		counts := make([]int64, len(sel))
		dest := make([]any, len(sel))
		for i := range counts {
			dest[i] = &counts[i]
		}
		if err := e.db.QueryRowContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+quoteIdent(name)).Scan(dest...); err != nil {
			return fmt.Errorf("duckdb: missing words of %s: %w", name, err)
		}
		for i, c := range batch {
			if counts[i] == 0 {
				read[c] = textReading{Type: "VARCHAR", Format: missingTextFormat, Note: missingText + " are missing values"}
			}
		}
	}
	return nil
}

// witnessRows is how many of a table's first rows notPlainText looks at.
const witnessRows = 2048

// groupValues is the most distinct values among the witnessRows rows of a
// column whose text tests are counted over its distinct values (see
// textCounts). A column of more, ids or free text, is tested row by row:
// grouping it would hold every value in memory to save nothing.
const groupValues = witnessRows / 4

// notPlainText returns the columns of cols that readableColumns must
// scan: those without a value, among the table's first witnessRows rows,
// that no reading takes (a word that is not true or false, not a number
// and not a missing-value marker, or one over 40 characters). One such
// value keeps a column text whatever the other rows hold, so the columns
// of names and categories cost a look at a few rows instead of a scan of
// every row with regular expressions. few says which of cols have at most
// groupValues distinct values among those rows.
func (e *Engine) notPlainText(ctx context.Context, name string, cols []string) (out []string, few map[string]bool, err error) {
	few = map[string]bool{}
	for start := 0; start < len(cols); start += profileBatch {
		batch := cols[start:min(start+profileBatch, len(cols))]
		sel := make([]string, 0, 2*len(batch))
		for _, c := range batch {
			v := "nullif(trim(" + quoteIdent(c) + "), '')"
			sel = append(sel, fmt.Sprintf("bool_or((length(%s) > 40 OR NOT regexp_matches(%s, '[0-9]')) AND lower(%s) NOT IN ('true', 'false') AND %s NOT IN (%s) AND TRY_CAST(%s AS DOUBLE) IS NULL)",
				v, v, v, v, missingList, v),
				fmt.Sprintf("count(DISTINCT %s)", quoteIdent(c)))
		}
		plain := make([]sql.NullBool, len(batch))
		distinct := make([]int64, len(batch))
		dest := make([]any, 0, 2*len(batch))
		for i := range plain {
			dest = append(dest, &plain[i], &distinct[i])
		}
		q := fmt.Sprintf("SELECT %s FROM (SELECT * FROM %s LIMIT %d)", strings.Join(sel, ", "), quoteIdent(name), witnessRows)
		if err := e.db.QueryRowContext(ctx, q).Scan(dest...); err != nil {
			return nil, nil, fmt.Errorf("duckdb: text columns of %s: %w", name, err)
		}
		for i, c := range batch {
			if !plain[i].Bool {
				out = append(out, c)
			}
			few[c] = distinct[i] <= groupValues
		}
	}
	return out, few, nil
}

// missingMarkers are the words exports write for a missing number.
const missingMarkers = "NA, N/A, NaN, null, None, #N/A and -"

var missingList = "'NA', 'N/A', 'n/a', 'NaN', 'nan', 'null', 'NULL', 'None', '#N/A', '-'"

// missingText are the words exports write for a missing word.
const missingText = "NA, N/A, #N/A and NULL"

var missingTextList = "'NA', 'N/A', 'n/a', '#N/A', 'NULL'"

// annotate records on the table and its schema how columns were read.
func annotate(t *table, schema *quarry.FileSchema, reads map[string]textReading, renamed string) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if r, ok := reads[c.Name]; ok {
			r := r
			c.Read = &r
			schema.Columns[i].Format = r.Format
			schema.Columns[i].Note = r.Note
		}
		if i == 0 && renamed != "" && c.Name == renamed {
			schema.Columns[i].Note = "the first column has no name in the file (an index such as pandas writes); it is called " + renamed
		}
	}
}

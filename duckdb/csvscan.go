package duckdb

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// scanner is the RFC 4180 state machine behind checkCSV. It counts fields
// per record and keeps the text of the first two records; everything else
// is only counted, which keeps the pass fast.
type scanner struct {
	delim byte
	file  string

	line       int64 // current physical line, 1-based
	recStart   int64 // line on which the current record started
	quoted     bool  // inside a quoted field
	quoteEnd   bool  // saw a quote inside a quoted field: end or escape
	prevCR     bool  // last byte was \r, so a following \n ends nothing new
	fields     int   // delimiters seen in the current record, plus one
	recBytes   int   // bytes in the current record, to skip blank lines
	fieldBytes int   // bytes in the current field, quotes included

	keep   bool     // collecting the text of this record
	field  []byte   // text of the current field when keep
	rec    []string // fields of the current record when keep
	header []string
	first  []string
	// title is a title line above the column names ("Q1 report,,,"),
	// and skip the lines up to the column names, when there is one; see
	// settleTitle.
	title     string
	skip      int64
	titleRec  []string // the title record while the first data row is awaited
	titleCols int
	titleLine int64 // where the names after the title start
	ncols     int
	rows      int64
	eof       bool // the last, unterminated line is being closed
}

// scan consumes one chunk of the file.
func (s *scanner) scan(chunk []byte) error {
	// The bytes that can end a field, a record or a quote; a run of
	// others, once the first records are kept, is only counted, in one
	// step: most of a file is such runs.
	var special [256]bool
	special[s.delim], special['\n'], special['\r'], special['"'] = true, true, true, true
	delim := []byte{s.delim}
	for i := 0; i < len(chunk); i++ {
		if s.recordStart() {
			// A whole line in the chunk without a quote or a lone \r is
			// one record of its delimiters plus one fields: counted with
			// the vectorised byte searches, most files' every line.
			if n := s.plainLine(chunk[i:], delim); n > 0 {
				if err := s.endRecord(); err != nil {
					return err
				}
				s.line++
				s.recStart = s.line
				i += n - 1
				continue
			}
		}
		c := chunk[i]
		if !s.keep && !s.quoteEnd && !special[c] {
			j := i + 1
			for j < len(chunk) && !special[chunk[j]] {
				j++
			}
			s.fieldBytes += j - i
			if !s.quoted {
				s.recBytes += j - i
			}
			s.prevCR = false
			i = j - 1
			continue
		}
		if s.quoteEnd {
			s.quoteEnd = false
			if c == '"' { // "" is an escaped quote
				s.put(c)
				continue
			}
			s.quoted = false // the quote closed the field; c follows it
		}
		if s.quoted {
			switch {
			case c == '"':
				s.quoteEnd = true
				s.fieldBytes++
				continue
			case c == '\n' && !s.prevCR, c == '\r':
				s.line++
			}
			s.prevCR = c == '\r'
			s.put(c)
			continue
		}
		switch c {
		case s.delim:
			s.endField()
			s.recBytes++
			if s.fields >= MaxColumns {
				return s.tooManyFields()
			}
		case '\n':
			if s.prevCR {
				s.prevCR = false
				continue // second half of \r\n
			}
			if err := s.endRecord(); err != nil {
				return err
			}
			s.line++
			s.recStart = s.line
		case '\r':
			if err := s.endRecord(); err != nil {
				return err
			}
			s.line++
			s.recStart = s.line
			s.prevCR = true
			continue
		case '"':
			if s.fieldBytes == 0 {
				s.quoted = true
				s.fieldBytes++
			} else {
				s.put(c) // a stray quote inside an unquoted field is text
			}
			s.recBytes++
		default:
			s.put(c)
			s.recBytes++
		}
		s.prevCR = false
	}
	return nil
}

// recordStart reports whether the scanner stands at the start of a
// record that is only counted, with no state carried from before.
func (s *scanner) recordStart() bool {
	return !s.keep && !s.quoted && !s.quoteEnd && !s.prevCR && s.recBytes == 0 && s.fields == 0 && s.fieldBytes == 0
}

// plainLine takes the line at the start of rest when it ends in rest (\n
// or \r\n) and holds no quote, no other \r and fewer than MaxColumns
// delimiters: it sets the record's field and byte counts as the byte by
// byte scan would and returns the bytes taken, its line break included.
// Otherwise it returns 0 and the line is scanned byte by byte.
func (s *scanner) plainLine(rest, delim []byte) int {
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return 0
	}
	body := rest[:nl]
	if len(body) > 0 && body[len(body)-1] == '\r' {
		body = body[:len(body)-1]
	}
	if bytes.IndexByte(body, '"') >= 0 || bytes.IndexByte(body, '\r') >= 0 {
		return 0
	}
	d := bytes.Count(body, delim)
	if d >= MaxColumns {
		return 0 // the byte-by-byte scan says where the fields run over
	}
	s.fields, s.recBytes = d, len(body)
	return nl + 1
}

// tooManyFields reports a record with more than MaxColumns fields: in the
// header a budget, later a row that does not fit the header.
func (s *scanner) tooManyFields() error {
	if s.header == nil {
		return quarry.Errorf(quarry.ECodeResourceLimit, "%s has more than %d columns; Quarry reads at most %d", s.file, MaxColumns, MaxColumns).
			WithHint("keep the columns the question needs (the metric, its date and the dimensions to break it down by), or reshape repeated columns into rows")
	}
	return quarry.Errorf(quarry.ECodeMalformedCSV, "%s line %d has more than %d fields; the header has %d",
		s.file, s.recStart, MaxColumns, s.ncols).
		WithHint("every row needs one value per column; quote values that contain " + delimName(s.delim))
}

func (s *scanner) put(c byte) {
	s.fieldBytes++
	if s.keep {
		s.field = append(s.field, c)
	}
}

func (s *scanner) endField() {
	s.fields++
	s.fieldBytes = 0
	if s.keep {
		s.rec = append(s.rec, string(s.field))
		s.field = s.field[:0]
	}
}

// endRecord closes the current record at a line break (or end of file).
func (s *scanner) endRecord() error {
	if s.recBytes == 0 {
		// A blank line. DuckDB skips it, except in a one-column file where
		// it is a NULL value; count it the same way so the row counts agree.
		if s.ncols == 1 && s.header != nil && !s.eof {
			s.rows++
		}
		return nil
	}
	s.endField()
	n := s.fields
	if s.titleRec != nil {
		if err := s.settleTitle(n); err != nil {
			return err
		}
	}
	switch {
	case s.header == nil:
		s.header, s.ncols = s.rec, n
	case s.first == nil && s.title == "" && isTitle(s.header) && looksLikeHeader(s.rec):
		// Perhaps a title above the names; the first data row decides.
		s.titleRec, s.titleCols, s.titleLine = s.header, s.ncols, s.recStart
		s.title, s.skip = strings.TrimSpace(s.header[0]), s.recStart-1
		s.header, s.ncols, s.rows = s.rec, n, 0
	case n != s.ncols:
		return quarry.Errorf(quarry.ECodeMalformedCSV, "%s line %d has %d %s; the header has %d",
			s.file, s.recStart, n, plural(n, "field"), s.ncols).
			WithHint("every row needs one value per column; quote values that contain " + delimName(s.delim))
	default:
		if s.first == nil {
			s.first = s.rec
		}
		s.rows++
	}
	s.fields, s.recBytes, s.fieldBytes = 0, 0, 0
	s.keep = s.first == nil
	s.rec = nil
	return nil
}

// settleTitle decides, at the first data row (of n fields), whether the
// line taken for a title was one: it was when the row has a value (a
// number, a date) under a name, which is how a header differs from data.
// Otherwise the first line is the header after all, and the names are the
// first data row; a different number of fields is then an error.
func (s *scanner) settleTitle(n int) error {
	names := s.header
	title, cols := s.titleRec, s.titleCols
	s.titleRec = nil
	if n == s.ncols && valuesUnderNames(names, s.rec) {
		return nil
	}
	s.title, s.skip = "", 0
	s.header, s.ncols, s.first, s.rows = title, cols, names, 1
	if len(names) != cols {
		return quarry.Errorf(quarry.ECodeMalformedCSV, "%s line %d has %d %s; the header has %d",
			s.file, s.titleLine, len(names), plural(len(names), "field"), cols).
			WithHint("every row needs one value per column; quote values that contain " + delimName(s.delim))
	}
	return nil
}

// valuesUnderNames reports whether a data row has a value (number, date)
// under one of the names.
func valuesUnderNames(names, row []string) bool {
	for i, name := range names {
		if i < len(row) && strings.TrimSpace(name) != "" && valueKind(strings.TrimSpace(row[i])) != "" {
			return true
		}
	}
	return false
}

// finish handles the last record when the file does not end in a newline.
func (s *scanner) finish() error {
	if s.quoted && !s.quoteEnd {
		return quarry.Errorf(quarry.ECodeMalformedCSV, "%s has a quote opened on line %d that is never closed", s.file, s.recStart)
	}
	s.quoted, s.quoteEnd, s.eof = false, false, true
	if err := s.endRecord(); err != nil {
		return err
	}
	if s.titleRec != nil && s.first == nil {
		// Names after a title and no row: the first line is the header.
		s.rec = nil
		return s.settleTitle(-1)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func delimName(d byte) string {
	switch d {
	case '\t':
		return "tabs"
	case ',':
		return "commas"
	case ';':
		return "semicolons"
	}
	return fmt.Sprintf("%q", d)
}

// checkHeader decides whether the first record is a header. DuckDB only
// guesses, and a guess that is wrong either loses the first row or names
// columns after data, so Quarry asks for a header and refuses files that
// look like they have none: names that are empty or repeated, a row made
// only of numbers and dates, or a number or date standing above a value of
// the same kind (a header of "region,2023" above "north,17" is refused too;
// such wide files need reshaping anyway).
func checkHeader(file string, shape *csvShape) error {
	seen := map[string]int{}
	valueLike, named := 0, 0
	if len(shape.Header) > 1 && strings.TrimSpace(shape.Header[0]) == "" {
		// pandas writes its index as a first column without a name.
		shape.Renamed = unnamedFirst(shape.Header)
	}
	for i, raw := range shape.Header {
		name := strings.TrimSpace(raw)
		if i == 0 && shape.Renamed != "" {
			seen[shape.Renamed] = 0
			continue
		}
		if name == "" {
			// A delimiter at the end of every line, or an empty spacer
			// column in a spreadsheet export: checked after loading,
			// where empty ones are dropped.
			shape.Unnamed = append(shape.Unnamed, i)
			continue
		}
		named++
		key := strings.ToLower(name)
		if j, dup := seen[key]; dup {
			return quarry.Errorf(quarry.ECodeNoHeaders, "%s: columns %d and %d are both named %q in the first row", file, j+1, i+1, name).
				WithHint("the first row must give every column a different name")
		}
		seen[key] = i
		kind := valueKind(name)
		if kind == "" {
			continue
		}
		valueLike++
		if i < len(shape.First) && valueKind(strings.TrimSpace(shape.First[i])) == kind {
			return quarry.Errorf(quarry.ECodeNoHeaders, "%s: the first row looks like data, not column names (column %d is %q)", file, i+1, name).
				WithHint("add a first row with column names")
		}
	}
	if named == 0 {
		return quarry.Errorf(quarry.ECodeNoHeaders, "%s: the first row names no column", file).
			WithHint("add a first row with column names")
	}
	if valueLike == named {
		return quarry.Errorf(quarry.ECodeNoHeaders, "%s: the first row looks like data, not column names", file).
			WithHint("add a first row with column names")
	}
	return nil
}

// isTitle reports whether a first record is a title above the column
// names rather than the names: one text field, the others (if any)
// empty, as spreadsheets export a heading cell.
func isTitle(rec []string) bool {
	if len(rec) == 0 || strings.TrimSpace(rec[0]) == "" || valueKind(strings.TrimSpace(rec[0])) != "" {
		return false
	}
	for _, f := range rec[1:] {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// looksLikeHeader reports whether the record after a title can be the
// column names: at least two names, none of them a value.
func looksLikeHeader(rec []string) bool {
	named := 0
	for _, f := range rec {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if valueKind(f) != "" {
			return false
		}
		named++
	}
	return named >= 2
}

// unnamedFirst names a first column that has no name: row_index, or
// row_index_2 ... when another column is called that.
func unnamedFirst(header []string) string {
	name := "row_index"
	for n := 2; ; n++ {
		taken := false
		for _, h := range header[1:] {
			taken = taken || strings.EqualFold(strings.TrimSpace(h), name)
		}
		if !taken {
			return name
		}
		name = fmt.Sprintf("row_index_%d", n)
	}
}

var dateLayouts = []string{
	time.DateOnly, "2006/01/02", "01/02/2006", "1/2/2006", "02.01.2006",
	time.DateTime, "2006-01-02T15:04:05", time.RFC3339,
}

// valueKind returns "number", "date" or "bool" when s reads as a data value
// of that kind, and "" for anything that could be a name.
func valueKind(s string) string {
	if s == "" {
		return ""
	}
	if _, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil && strings.ContainsAny(s, "0123456789") {
		return "number"
	}
	for _, layout := range dateLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return "date"
		}
	}
	switch strings.ToLower(s) {
	case "true", "false":
		return "bool"
	}
	return ""
}

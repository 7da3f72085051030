package duckdb

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
)

// csvShape is what the structural pass learned about a CSV file.
type csvShape struct {
	Delim  byte
	Header []string // first record, the column names
	First  []string // second record, the first data row
	Rows   int64    // data records, blank lines not counted
	// Renamed is the name given to a first column whose header is empty
	// (the index pandas writes), "" when every column has a name.
	Renamed string
	// Unnamed are the indexes of columns without a name other than the
	// first: a delimiter closing every line ("a,b,c,") or an empty spacer
	// column; they are loaded under placeholder names and dropped when
	// empty.
	Unnamed []int
	// Title is a title line above the column names, and Skip the lines
	// up to the names, when the file has one.
	Title string
	Skip  int64
}

// Candidate delimiters, in the order that breaks ties.
var delimiters = []byte{',', ';', '\t', '|'}

// MaxColumns is the most columns a file may have. DuckDB sets no limit and
// neither does the specification, but every column costs a few queries at
// load, a line in the schema the model reads, and a candidate in the
// dimension search; 2,048 is above what spreadsheets export for people
// (SQLite's default limit is 2,000 and PostgreSQL's 1,600) and keeps a
// 50 MB file of commas from becoming millions of columns.
const MaxColumns = 2048

// checkCSV makes one streaming pass over a CSV file and checks what DuckDB's
// reader would guess around: every record has as many fields as the header
// (DuckDB's sniffer answers a ragged file by picking another delimiter, so
// it cannot be trusted to report one), the text is UTF-8 without NUL bytes,
// quotes are closed, the first row is a header, and there are at most
// MaxColumns columns. It reads about 400 MB/s on one core, a seventh of the
// time of the DuckDB load and profile that follow, and holds only the first
// two records, so its memory is bounded by MaxColumns and the longest of
// their values. file names the file in error messages.
//
// Errors: EMPTY_FILE, NO_HEADERS, MALFORMED_CSV, RESOURCE_LIMIT for more
// than MaxColumns columns, or the reader's error.
func checkCSV(r io.Reader, file string) (*csvShape, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if p, _ := br.Peek(3); bytes.Equal(p, utf8BOM) {
		// Skip a byte-order mark so it does not end up in the first name.
		br.Discard(3)
	}
	head, err := br.Peek(64 << 10)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if len(bytes.TrimSpace(head)) == 0 {
		// 64 KiB of blanks and nothing else is an empty file for all
		// practical purposes.
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", file)
	}
	s := &scanner{delim: sniffDelim(head), file: file, line: 1, recStart: 1, keep: true}
	buf := make([]byte, 1<<20)
	var carry []byte // an incomplete UTF-8 sequence at a chunk's end
	for {
		n, rerr := br.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if err := s.checkUTF8(carry, chunk); err != nil {
				return nil, err
			}
			carry = utf8Tail(chunk)
			if i := bytes.IndexByte(chunk, 0); i >= 0 {
				// Scan up to the NUL so that the error can say where it is.
				if err := s.scan(chunk[:i]); err != nil {
					return nil, err
				}
				return nil, s.nulByte()
			}
			if err := s.scan(chunk); err != nil {
				return nil, err
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return nil, rerr
		}
	}
	if len(carry) > 0 {
		return nil, quarry.Errorf(quarry.ECodeMalformedCSV, "%s is not valid UTF-8 text (line %d)", file, s.line)
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	shape := &csvShape{Delim: s.delim, Header: s.header, First: s.first, Rows: s.rows, Title: s.title, Skip: s.skip}
	if shape.Header == nil {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", file)
	}
	if err := checkHeader(file, shape); err != nil {
		return nil, err
	}
	if shape.Rows == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "%s has a header but no rows", file)
	}
	return shape, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// sniffDelim picks the candidate delimiter that occurs most often outside
// quotes in the first line; a comma when none occurs.
func sniffDelim(head []byte) byte {
	counts := map[byte]int{}
	quoted := false
	for _, c := range head {
		if c == '"' {
			quoted = !quoted
			continue
		}
		if !quoted && (c == '\n' || c == '\r') {
			break
		}
		if !quoted {
			counts[c]++
		}
	}
	best := byte(',')
	for _, d := range delimiters {
		if counts[d] > counts[best] {
			best = d
		}
	}
	return best
}

// utf8Tail returns the bytes at the end of chunk that start a multi-byte
// sequence not completed within chunk.
func utf8Tail(chunk []byte) []byte {
	for i := 1; i <= 3 && i <= len(chunk); i++ {
		c := chunk[len(chunk)-i]
		if c < 0x80 {
			return nil // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(chunk[len(chunk)-i:]) {
				return append([]byte(nil), chunk[len(chunk)-i:]...)
			}
			return nil
		}
	}
	return nil
}

// checkUTF8 validates chunk, given the incomplete sequence carried over
// from the previous chunk.
func (s *scanner) checkUTF8(carry, chunk []byte) error {
	start := 0
	if len(carry) > 0 {
		// Complete the carried sequence with this chunk's first bytes.
		need := min(4-len(carry), len(chunk))
		joined := append(append([]byte(nil), carry...), chunk[:need]...)
		r, size := utf8.DecodeRune(joined)
		if r == utf8.RuneError && size <= 1 || size <= len(carry) {
			return s.badUTF8(0, chunk)
		}
		start = size - len(carry)
	}
	body := chunk[start : len(chunk)-len(utf8Tail(chunk))]
	if utf8.Valid(body) {
		return nil
	}
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && size == 1 {
			return s.badUTF8(start+i, chunk)
		}
		i += size
	}
	return nil
}

// nulByte reports a NUL byte at the scanner's position. A NUL is never
// text: a file full of them is UTF-16 (Excel's "Unicode Text") or not a
// CSV file at all, and DuckDB's SQL cannot carry one.
func (s *scanner) nulByte() error {
	return quarry.Errorf(quarry.ECodeMalformedCSV, "%s holds a NUL byte on line %d, field %d; CSV text has none", s.file, s.line, s.fields+1).
		WithHint("the file may be saved as UTF-16 (Unicode Text) or be binary: save it as CSV UTF-8")
}

// badUTF8 reports invalid UTF-8 at offset off of chunk, which the scanner
// has not consumed yet, so its line counter is at the chunk's start.
func (s *scanner) badUTF8(off int, chunk []byte) error {
	line := s.line + int64(bytes.Count(chunk[:off], []byte{'\n'}))
	return quarry.Errorf(quarry.ECodeMalformedCSV, "%s is not valid UTF-8 text: invalid byte on line %d", s.file, line).
		WithHint("save the file as UTF-8 (in Excel: CSV UTF-8)")
}

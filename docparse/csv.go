package docparse

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"github.com/quarry-dev/quarry"
)

// extractCSV renders a CSV file as a text table: the header line, then one
// line a row, cells separated by " | ". Each page holds CSVPageRows rows
// under the header line. The delimiter (comma, semicolon, tab or pipe) is
// detected from the first lines.
func extractCSV(data []byte, name string, o Options) (*Document, error) {
	s, err := decodeText(data, name)
	if err != nil {
		return nil, err
	}
	delim := sniffDelimiter(s)
	doc, err := csvPages(s, name, delim, false, o)
	if errors.Is(err, csv.ErrBareQuote) {
		// A quote inside an unquoted field is harmless; an unclosed
		// quoted field is not, and stays an error.
		doc, err = csvPages(s, name, delim, true, o)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not valid CSV: line %d: %v", name, pe.StartLine, pe.Err).
			WithHint("check the quoting on that line")
	}
	return doc, err
}

// csvPages reads the records of s into pages.
func csvPages(s, name string, delim rune, lazy bool, o Options) (*Document, error) {
	r := newCSVReader(s, delim)
	r.LazyQuotes = lazy
	var header string
	var rows []string
	doc := &Document{}
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		if len(doc.Pages) == o.MaxPages {
			return quarry.Errorf(quarry.ECodeFileTooLarge, "%s has more than %s pages of %d rows; the limit is %s pages",
				name, count(o.MaxPages), CSVPageRows, count(o.MaxPages)).
				WithHint("split the file, or load it as data rather than as a document")
		}
		doc.Pages = append(doc.Pages, Page{Text: normalize(header + "\n" + strings.Join(rows, "\n"))})
		rows = rows[:0]
		return nil
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line, ok := csvLine(rec)
		if !ok {
			continue
		}
		if header == "" {
			header = line
			continue
		}
		rows = append(rows, line)
		if len(rows) == CSVPageRows {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(doc.Pages) == 0 && header != "" {
		doc.Pages = append(doc.Pages, Page{Text: normalize(header)})
	}
	return doc, nil
}

// csvLine joins a record's cells with " | ", each on one line; ok is false
// for a record without text.
func csvLine(rec []string) (string, bool) {
	end := 0
	for i, c := range rec {
		c = strings.Join(strings.Fields(c), " ")
		rec[i] = c
		if c != "" {
			end = i + 1
		}
	}
	if end == 0 {
		return "", false
	}
	return strings.Join(rec[:end], " | "), true
}

func newCSVReader(s string, delim rune) *csv.Reader {
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	return r
}

// sniffDelimiter picks the delimiter on which most of the first lines
// agree about their number of fields (more than one), the most fields
// breaking ties; a comma when no delimiter splits them.
func sniffDelimiter(s string) rune {
	sample := s[:min(len(s), 64<<10)]
	if len(sample) < len(s) {
		if i := strings.LastIndexByte(sample, '\n'); i > 0 {
			sample = sample[:i+1]
		}
	}
	best, bestAgree, bestFields := ',', 0, 1
	for _, d := range []rune{',', ';', '\t', '|'} {
		r := newCSVReader(sample, d)
		counts := map[int]int{}
		for range 20 {
			rec, err := r.Read()
			if err != nil {
				break
			}
			counts[len(rec)]++
		}
		for fields, agree := range counts {
			if fields > 1 && (agree > bestAgree || agree == bestAgree && fields > bestFields) {
				best, bestAgree, bestFields = d, agree, fields
			}
		}
	}
	return best
}

package sampledata

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
)

// csvWriter writes CSV rows of plain values. None of the generated values
// contain commas, quotes or line breaks, so fields are written unquoted,
// which is several times faster than encoding/csv for the large files.
type csvWriter struct {
	w     *bufio.Writer
	buf   []byte
	first bool
}

func newCSVWriter(w io.Writer) *csvWriter {
	return &csvWriter{w: bufio.NewWriterSize(w, 256<<10), buf: make([]byte, 0, 256), first: true}
}

// header writes the header row.
func (c *csvWriter) header(cols ...string) {
	c.buf = append(c.buf, strings.Join(cols, ",")...)
	c.end()
}

func (c *csvWriter) sep() {
	if !c.first {
		c.buf = append(c.buf, ',')
	}
	c.first = false
}

func (c *csvWriter) str(s string) {
	c.sep()
	c.buf = append(c.buf, s...)
}

func (c *csvWriter) integer(n int64) {
	c.sep()
	c.buf = strconv.AppendInt(c.buf, n, 10)
}

// money writes v rounded to cents with exactly two decimals.
func (c *csvWriter) money(v float64) {
	c.sep()
	cents := int64(math.Round(v * 100))
	if cents < 0 {
		c.buf = append(c.buf, '-')
		cents = -cents
	}
	c.buf = strconv.AppendInt(c.buf, cents/100, 10)
	c.buf = append(c.buf, '.', byte('0'+cents%100/10), byte('0'+cents%10))
}

// end finishes the row.
func (c *csvWriter) end() {
	c.buf = append(c.buf, '\n')
	c.w.Write(c.buf) // a write error sticks in the bufio.Writer; flush reports it
	c.buf = c.buf[:0]
	c.first = true
}

// flush writes buffered rows and returns the first write error.
func (c *csvWriter) flush() error { return c.w.Flush() }

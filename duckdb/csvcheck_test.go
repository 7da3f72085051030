package duckdb

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/quarry-dev/quarry"
)

func TestCheckCSVShape(t *testing.T) {
	tests := []struct {
		in     string
		delim  byte
		header string
		rows   int64
	}{
		{"a,b\n1,2\n", ',', "a|b", 1},
		{"a;b;c\n1;2,5;3\n", ';', "a|b|c", 1},
		{"a\tb\n1\t2\n3\t4\n", '\t', "a|b", 2},
		{"a|b\n1|2\n", '|', "a|b", 1},
		{"\"x,y\";z\n1;2\n", ';', "x,y|z", 1},
		{"\"say \"\"hi\"\"\",b\n1,2\n", ',', "say \"hi\"|b", 1},
		{"a,b\r1,2\r3,4\r", ',', "a|b", 2}, // old Mac line ends
	}
	for _, tt := range tests {
		s, err := checkCSV(strings.NewReader(tt.in), "f.csv")
		if err != nil {
			t.Errorf("checkCSV(%q): %v", tt.in, err)
			continue
		}
		if s.Delim != tt.delim || strings.Join(s.Header, "|") != tt.header || s.Rows != tt.rows {
			t.Errorf("checkCSV(%q) = delim %q header %q rows %d; want %q %q %d",
				tt.in, s.Delim, strings.Join(s.Header, "|"), s.Rows, tt.delim, tt.header, tt.rows)
		}
	}
}

func TestCheckCSVChunkBoundaries(t *testing.T) {
	// Multi-byte characters and quotes that straddle the 1 MiB read chunks
	// must not be reported as invalid.
	var b strings.Builder
	b.WriteString("id,name\n")
	for b.Len() < 3<<20 {
		b.WriteString("1,\"Zoë \"\"Ünal\"\"\"\n2,日本語\n")
	}
	s, err := checkCSV(strings.NewReader(b.String()), "big.csv")
	if err != nil {
		t.Fatalf("checkCSV(3 MiB of UTF-8): %v", err)
	}
	if s.Rows != int64(strings.Count(b.String(), "\n")-1) {
		t.Errorf("checkCSV rows = %d; want %d", s.Rows, strings.Count(b.String(), "\n")-1)
	}
	bad := b.String() + "3,\xc3\n"
	if _, err := checkCSV(strings.NewReader(bad), "big.csv"); quarry.ErrorCode(err) != quarry.ECodeMalformedCSV {
		t.Errorf("checkCSV(truncated UTF-8 at the end) = %v; want MALFORMED_CSV", err)
	}
}

// FuzzCheckCSV checks that the CSV pass never panics and answers with a
// shape or one of LoadCSV's validation codes; a shape has at most
// MaxColumns names and no NUL byte.
func FuzzCheckCSV(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n", "a,b\n1\n", "\"a\nb\",c\n1,2\n", "a;b\r\n1;2\r\n", "", "\xef\xbb\xbfa\n1\n",
		"a,b\n1,\"x\"\"y\"\n", "a,b\n1,\"open\n", "1,2\n3,4\n", "a,a\n1,2\n", "a\n\xff\n",
		"a,b\n1,\x00\n", "a\x00,b\n1,2\n", "a,b\n1,\"x\n\x00\"\n", "d\x00a\x00y\x00\n\x00",
		strings.Repeat("c,", MaxColumns) + "c\n" + strings.Repeat("1,", MaxColumns) + "1\n",
		"a,b\n" + strings.Repeat(",", MaxColumns+1) + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := checkCSV(strings.NewReader(in), "f.csv")
		switch quarry.ErrorCode(err) {
		case "":
			if s == nil || len(s.Header) == 0 || s.Rows < 1 || len(s.Header) > MaxColumns {
				t.Fatalf("checkCSV(%q) = %+v without error; want a header of at most %d names and rows", in, s, MaxColumns)
			}
			if strings.Contains(strings.Join(s.Header, ""), "\x00") || strings.Contains(strings.Join(s.First, ""), "\x00") {
				t.Fatalf("checkCSV(%q) = %+v; a NUL byte passed", in, s)
			}
		case quarry.ECodeEmptyFile, quarry.ECodeNoHeaders, quarry.ECodeMalformedCSV, quarry.ECodeResourceLimit:
		default:
			t.Fatalf("checkCSV(%q) error = %v; want a CSV validation code", in, err)
		}
	})
}

// FuzzCheckCSVLines checks that whole lines counted at once (plainLine)
// give what the byte-by-byte scan gives: the same input read one byte at
// a time, where no line is ever whole in a chunk, has the same shape or
// the same error.
func FuzzCheckCSVLines(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n3,4\n", "a,b\r\n1,2\r\n\r\n3,4\r\n", "a,b\n1,2\n3\n", "a,b\n1,\"x\ny\"\n2,3\n",
		"a;b\n1;2\n\n", "a,b\n1,2\r3,4\n", "a,b\n1,2\n5\" x,3\n", "t,,\na,b,c\n1,2,3\n4,5,6\n",
		"a,b\n" + strings.Repeat(",", MaxColumns+1) + "\n", "a\n\n\n1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		whole, werr := checkCSV(strings.NewReader(in), "f.csv")
		bytewise, berr := checkCSV(iotest.OneByteReader(strings.NewReader(in)), "f.csv")
		if fmt.Sprint(werr) != fmt.Sprint(berr) || !reflect.DeepEqual(whole, bytewise) {
			t.Fatalf("checkCSV(%q) = %+v, %v; read a byte at a time %+v, %v", in, whole, werr, bytewise, berr)
		}
	})
}

// Package evidence keeps model-written numbers honest: every number in
// model-written text is checked against recorded results, and a number that
// matches nothing is marked unverified, never shown as fact.
//
// A Set collects the numbers of the recorded evidence (findings written
// offline, query results, report text, passages quoted from documents);
// Check finds the numbers in a text and appends Marker to each one the Set
// does not contain. It is the one number checker of every job: the
// investigation's and analysis's model-written text, research's claims and
// a data room's answers (each sentence against the passages it cites).
//
// # Which numbers count
//
// A number is digits with an optional sign (-, +, −), currency ($ € £),
// thousands separators (1,234,567), decimals, and a suffix: % or pp (a
// percentage), k K thousand, M mn million, B bn billion, trillion, or x ×
// (a multiple). "1.2 million" and "12.3 %" may have a space before the
// suffix, and a word suffix may follow a line break. Parentheses around the digits are an accountant's minus sign:
// "(1,577)" and "$(1,577) million" are negative amounts.
//
// These are never checked, never counted and never marked:
//   - small integers 0..10 standing alone, without unit or decimals
//     ("3 hypotheses");
//   - years 1900..2100 standing alone ("in 2024");
//   - dates and times (2024-01-31, 2024-01-31T10:00:00Z, 10:00, 2024-03,
//     the day of "December 31, 2023" or "31 Dec 2023");
//   - references to a part of a document (page 12, pp. 12-14, Note 7,
//     Item 7A, Exhibit 31);
//   - identifiers: digits glued to letters or underscores (hyp_003,
//     find_001, output_001.txt, Q1, H2, 5xx, 3rd, 250ms, 1e-5), to a path
//     or anchor (/, \, #) or to a word by a hyphen (COVID-19);
//   - citation markers ([1], [^2], [1, 3]) and list numbers at the start of
//     a line ("12. ");
//   - version-like tokens with two or more dots (1.2.3, 10.0.0.1).
//
// # When a number matches
//
// A written number matches a recorded value v when it equals v at the
// precision written: it stands for the interval of values that round to it,
// half a unit of its last digit either side, ends included. "12.3%" matches
// 12.25 to 12.35, "1.2M" matches 1,150,000 to 1,250,000, "$48,120" matches
// 48,119.5 to 48,120.5. Integers are exact to the unit: trailing zeros are
// written digits, so "48,000" does not match 48,120 (write "48k").
//
// Signs are ignored, because prose states a change of -1,234 as "fell by
// 1,234". A percentage also matches its fraction (12.3% matches 0.1234,
// since shares are stored as fractions), and a plain number matches the
// fraction of a percentage in recorded text (0.123 matches "12.3%").
// Recorded values are exact points: a model may round them, but not state
// them more precisely than they were recorded.
//
// A passage quoted from a document (AddPassage) may say the unit its
// amounts are in, as a financial statement's "(In millions)" does; its
// amounts written without a unit of their own then also count in that
// unit, so "$1.6 billion" matches "1,577" under "(Millions)". Without such
// a statement "812" is 812, never $812 million.
package evidence

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Marker follows every number that matched no evidence.
const Marker = "[unverified]"

// Set is the numbers that recorded evidence contains. Its zero value is an
// empty set, ready to use; it is not safe for concurrent use.
type Set struct {
	// values are the absolute values recorded; fractions are the
	// percentages of recorded text divided by 100.
	values, fractions sorted
}

// AddText adds every number appearing in text: offline-written findings,
// query output tables, report text. Dates, identifiers, citation markers
// and version-like tokens are not numbers and add nothing.
func (s *Set) AddText(text string) {
	scan(text, func(n number) {
		s.values.add(n.value)
		if n.percent {
			s.fractions.add(n.value / 100)
		}
	})
}

// AddValue adds v. NaN and infinities are ignored.
func (s *Set) AddValue(v float64) { s.values.add(v) }

// AddResult adds every numeric cell of res: integers, floats, numbers in
// other numeric types (anything with a Float64 method or a numeric String),
// and strings, which are read as a number or else as text (see AddText).
func (s *Set) AddResult(res *quarry.QueryResult) {
	if res == nil {
		return
	}
	for _, row := range res.Rows {
		for _, cell := range row {
			s.addCell(cell)
		}
	}
}

func (s *Set) addCell(cell any) {
	switch v := cell.(type) {
	case nil, bool:
	case int:
		s.AddValue(float64(v))
	case int8:
		s.AddValue(float64(v))
	case int16:
		s.AddValue(float64(v))
	case int32:
		s.AddValue(float64(v))
	case int64:
		s.AddValue(float64(v))
	case uint:
		s.AddValue(float64(v))
	case uint8:
		s.AddValue(float64(v))
	case uint16:
		s.AddValue(float64(v))
	case uint32:
		s.AddValue(float64(v))
	case uint64:
		s.AddValue(float64(v))
	case float32:
		s.AddValue(float64(v))
	case float64:
		s.AddValue(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			s.AddValue(f)
		}
	case string:
		s.addString(v)
	case []byte:
		s.addString(string(v))
	case interface{ Float64() float64 }: // decimals of database drivers
		s.AddValue(v.Float64())
	case interface{ String() string }: // big integers; times add nothing
		if f, err := strconv.ParseFloat(v.String(), 64); err == nil {
			s.AddValue(f)
		}
	}
}

// addString adds a string cell: a number such as "1.5e-3" as a number,
// anything else as text.
func (s *Set) addString(v string) {
	if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
		s.AddValue(f)
		return
	}
	s.AddText(v)
}

// Len returns how many distinct values the set holds; v and -v count once.
func (s *Set) Len() int { return len(s.values.sorted()) }

// contains reports whether the set holds a value that n matches.
func (s *Set) contains(n number) bool {
	lo, hi := n.bounds(1)
	if s.values.within(lo, hi) {
		return true
	}
	if n.percent {
		lo, hi := n.bounds(0.01)
		return s.values.within(lo, hi)
	}
	return s.fractions.within(lo, hi)
}

// bounds returns the interval of values that n, scaled by scale, stands
// for, widened a little for floating-point error.
func (n number) bounds(scale float64) (lo, hi float64) {
	lo = (n.value - n.step/2) * scale
	hi = (n.value + n.step/2) * scale
	slack := 1e-9 * math.Max(math.Abs(hi), 1e-300)
	return lo - slack, hi + slack
}

// sorted is a set of absolute values, kept sorted and distinct lazily.
type sorted struct {
	vals []float64
	ok   bool // vals is sorted and distinct
}

func (s *sorted) add(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	s.vals = append(s.vals, math.Abs(v))
	s.ok = false
}

func (s *sorted) sorted() []float64 {
	if !s.ok {
		sort.Float64s(s.vals)
		out := s.vals[:0]
		for i, v := range s.vals {
			if i == 0 || v != out[len(out)-1] {
				out = append(out, v)
			}
		}
		s.vals, s.ok = out, true
	}
	return s.vals
}

// within reports whether a value lies in [lo, hi].
func (s *sorted) within(lo, hi float64) bool {
	vals := s.sorted()
	i := sort.SearchFloat64s(vals, lo)
	return i < len(vals) && vals[i] <= hi
}

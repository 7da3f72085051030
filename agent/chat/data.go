package chat

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
)

// Data is what a question about numbers is answered from when the memory
// does not hold the number: the investigation's metric and periods, the
// dimensions of its tables, and a read-only query over the session's tables
// that the caller records in the audit log.
type Data struct {
	Metric     investigation.Metric // parsed; TimeColumn is a DATE-valued expression
	Base, Cmp  quarry.DateRange
	Dimensions []Dimension
	// Query runs one read-only SELECT, recording it and its result in the
	// session's audit log, and returns the result with the sequence number
	// of the observation entry, which the answer cites.
	Query func(ctx context.Context, purpose, sql string) (*quarry.QueryResult, int, error)
}

// Dimension is a column a question may name a value of.
type Dimension struct {
	Name   string   // as people read it: "country"
	Expr   string   // SQL over the metric's FROM clause
	Values []string // its values, as text
}

// dataQuestion is what a question asks of the data.
type dataQuestion struct {
	seg      *segment   // a value the question names
	without  bool       // "without X", "excluding X"
	day      string     // a date it names
	period   int        // 0 both, 1 baseline, 2 comparison
	movers   *Dimension // "which countries fell most"
	down     bool       // movers: falls first
	n        int        // movers: how many
	moversUp bool       // movers: direction said
}

type segment struct {
	dim   *Dimension
	value string
}

var (
	dateRE   = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
	topNRE   = regexp.MustCompile(`\btop\s+(\d{1,2})\b`)
	downWord = []string{"fell", "fall", "drop", "declin", "decreas", "lost", "los", "down", "worst", "shrank", "shrink", "lower"}
	upWord   = []string{"grew", "grow", "rose", "rise", "increas", "gain", "up", "best", "higher", "improv"}
	without  = []string{"without", "excluding", "exclude", "except", "ignoring", "ignore", "minus"}
	baseWord = []string{"baseline", "before", "first"}
	cmpWord  = []string{"comparison", "after", "second"}
	moverW   = []string{"most", "top", "biggest", "largest", "movers", "which", "what"}
)

// parseData recognises a question about the data; nil when it is not one.
func parseData(text string, d *Data) *dataQuestion {
	words := retrieve.Words(text)
	lower := strings.ToLower(text)
	q := &dataQuestion{n: 3}
	if m := dateRE.FindStringSubmatch(text); m != nil {
		q.day = m[1]
	}
	switch {
	case indexOf(words, baseWord, true) >= 0:
		q.period = 1
	case indexOf(words, cmpWord, true) >= 0:
		q.period = 2
	}
	q.without = indexOf(words, without, false) >= 0
	q.seg = findSegment(text, d.Dimensions)
	isDown, isUp := indexOf(words, downWord, true) >= 0, indexOf(words, upWord, true) >= 0
	if m := topNRE.FindStringSubmatch(lower); m != nil {
		q.n, _ = strconv.Atoi(m[1])
	}
	if (isDown || isUp || indexOf(words, []string{"movers", "top"}, false) >= 0) && indexOf(words, moverW, false) >= 0 {
		for i := range d.Dimensions {
			dim := &d.Dimensions[i]
			if mentionsDimension(words, dim.Name) && (q.seg == nil || q.seg.dim != dim) {
				q.movers, q.down, q.moversUp = dim, isDown && !isUp, isDown || isUp
				break
			}
		}
	}
	if q.seg == nil && q.day == "" && q.period == 0 && q.movers == nil {
		return nil
	}
	return q
}

// findSegment finds the longest dimension value the question names, as a
// whole word or phrase, or through an alias (Germany for DE).
func findSegment(original string, dims []Dimension) *segment {
	lower := strings.ToLower(original)
	terms := retrieve.Terms(original)
	aliases := retrieve.Expand(terms)[len(terms):]
	var best *segment
	for i := range dims {
		for _, v := range dims[i].Values {
			lv := strings.ToLower(strings.TrimSpace(v))
			if len(lv) < 2 || best != nil && len(lv) <= len(best.value) {
				continue
			}
			if isCode(v) {
				// A short code (IN, US, DE) is matched as written, so the
				// word "in" is not India; an alias (Germany) still finds DE.
				if containsPhrase(original, v) || indexOf(aliases, []string{lv}, false) >= 0 {
					best = &segment{dim: &dims[i], value: v}
				}
				continue
			}
			if containsPhrase(lower, lv) {
				best = &segment{dim: &dims[i], value: v}
			}
		}
	}
	return best
}

// containsPhrase reports whether phrase occurs in s between non-letters.
func containsPhrase(s, phrase string) bool {
	for i := strings.Index(s, phrase); i >= 0; {
		end := i + len(phrase)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		j := strings.Index(s[i+1:], phrase)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

// mentionsDimension reports whether the words name the dimension, in the
// singular or plural ("country", "countries", "regions").
func mentionsDimension(words []string, name string) bool {
	n := strings.ToLower(name)
	if i := strings.LastIndex(n, "."); i >= 0 {
		n = n[i+1:]
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(n, "y"), "s")
	for _, w := range words {
		if w == n || len(stem) >= 3 && strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}

// answerData answers a data question with one recorded query.
func (a *Answerer) answerData(ctx context.Context, d *Data, q *dataQuestion) (Reply, error) {
	m := d.Metric
	den := m.Denominator
	if den == "" {
		den = "1"
	}
	inRange := func(r quarry.DateRange) string {
		return fmt.Sprintf("CAST(%s AS DATE) BETWEEN DATE '%s' AND DATE '%s'", m.TimeColumn, r.Start, r.End)
	}
	where := func(extra ...string) string {
		var c []string
		if m.Where != "" {
			c = append(c, "("+m.Where+")")
		}
		for _, e := range extra {
			if e != "" {
				c = append(c, e)
			}
		}
		if len(c) == 0 {
			return ""
		}
		return " WHERE " + strings.Join(c, " AND ")
	}
	segCond := ""
	if q.seg != nil {
		segCond = fmt.Sprintf("CAST(%s AS VARCHAR) = '%s'", q.seg.dim.Expr, strings.ReplaceAll(q.seg.value, "'", "''"))
		if q.without {
			segCond = fmt.Sprintf("(%s IS NULL OR NOT %s)", q.seg.dim.Expr, segCond)
		}
	}
	periods := []quarry.DateRange{d.Base, d.Cmp}
	names := []string{"baseline", "comparison"}
	byPeriod := func(extra string) string {
		return fmt.Sprintf("SELECT CASE WHEN %s THEN 0 ELSE 1 END AS period, %s AS num, %s AS den FROM %s%s GROUP BY 1 ORDER BY 1",
			inRange(d.Base), m.Numerator, den, m.From, where("("+inRange(d.Base)+" OR "+inRange(d.Cmp)+")", extra))
	}
	title := metricTitle(m)
	who := ""
	if q.seg != nil {
		who = " for " + q.seg.dim.Name + "=" + q.seg.value
		if q.without {
			who = " without " + q.seg.dim.Name + "=" + q.seg.value
		}
	}
	switch {
	case q.movers != nil:
		dim := q.movers
		sql := fmt.Sprintf("SELECT CAST(%s AS VARCHAR) AS value, CASE WHEN %s THEN 0 ELSE 1 END AS period, %s AS num, %s AS den FROM %s%s GROUP BY 1, 2 ORDER BY 1, 2",
			dim.Expr, inRange(d.Base), m.Numerator, den, m.From, where("("+inRange(d.Base)+" OR "+inRange(d.Cmp)+")", segCond))
		res, seq, err := d.Query(ctx, "chat: change of "+title+" by "+dim.Name, sql)
		if err != nil {
			return Reply{}, err
		}
		type mover struct {
			value         string
			before, after float64
			change        float64
		}
		byValue := map[string]*mover{}
		var ms []*mover
		for i := range res.Rows {
			v := res.String(i, 0)
			x := byValue[v]
			if x == nil {
				x = &mover{value: v}
				byValue[v] = x
				ms = append(ms, x)
			}
			if val := m.Value(res.Float(i, 2), res.Float(i, 3)); res.Float(i, 1) == 0 {
				x.before = val
			} else {
				x.after = val
			}
		}
		for _, x := range ms {
			x.change = x.after - x.before
		}
		sort.Slice(ms, func(i, j int) bool {
			if q.moversUp {
				if q.down {
					return ms[i].change < ms[j].change
				}
				return ms[i].change > ms[j].change
			}
			return math.Abs(ms[i].change) > math.Abs(ms[j].change)
		})
		var parts []string
		for _, x := range ms[:min(len(ms), q.n)] {
			if q.moversUp && (q.down && x.change >= 0 || !q.down && x.change <= 0) {
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s (%s → %s)", x.value, signedNum(x.change), fmtNum(x.before), fmtNum(x.after)))
		}
		what := "Largest moves"
		if q.moversUp {
			what = map[bool]string{true: "Largest falls", false: "Largest rises"}[q.down]
		}
		if len(parts) == 0 {
			return cite(fmt.Sprintf("No %s moved that way%s between the baseline and the comparison period.", dim.Name, who), seq), nil
		}
		return cite(fmt.Sprintf("%s of %s by %s%s, baseline to comparison: %s.", what, title, dim.Name, who, strings.Join(parts, "; ")), seq), nil

	case q.day != "":
		day, err := quarry.ParseDate(q.day)
		if err != nil {
			return Reply{}, nil
		}
		sql := fmt.Sprintf("SELECT %s AS num, %s AS den, count(*) AS n FROM %s%s", m.Numerator, den, m.From,
			where(fmt.Sprintf("CAST(%s AS DATE) = DATE '%s'", m.TimeColumn, day), segCond))
		res, seq, err := d.Query(ctx, "chat: "+title+" on "+q.day+who, sql)
		if err != nil {
			return Reply{}, err
		}
		if len(res.Rows) == 0 || res.Float(0, 2) == 0 {
			return cite(fmt.Sprintf("No rows%s on %s: the data has nothing on that day.", who, q.day), seq), nil
		}
		return cite(fmt.Sprintf("%s: %s%s on %s.", fmtNum(m.Value(res.Float(0, 0), res.Float(0, 1))), title, who, q.day), seq), nil

	default:
		res, seq, err := d.Query(ctx, "chat: "+title+" in both periods"+who, byPeriod(segCond))
		if err != nil {
			return Reply{}, err
		}
		var v [2]float64
		var have [2]bool
		for i := range res.Rows {
			p := int(res.Float(i, 0))
			if p == 0 || p == 1 {
				v[p], have[p] = m.Value(res.Float(i, 1), res.Float(i, 2)), true
			}
		}
		if q.period > 0 {
			p := q.period - 1
			if !have[p] {
				return cite(fmt.Sprintf("No rows%s in the %s period (%s).", who, names[p], periods[p]), seq), nil
			}
			return cite(fmt.Sprintf("%s: %s%s in the %s period (%s).", fmtNum(v[p]), title, who, names[p], periods[p]), seq), nil
		}
		change := fmt.Sprintf("%s → %s (%s", fmtNum(v[0]), fmtNum(v[1]), signedNum(v[1]-v[0]))
		if v[0] != 0 {
			change += fmt.Sprintf(", %+.1f%%", 100*(v[1]-v[0])/math.Abs(v[0]))
		}
		change += ")"
		return cite(fmt.Sprintf("%s: %s%s, baseline (%s) to comparison (%s).", change, title, who, d.Base, d.Cmp), seq), nil
	}
}

// cite ends an answer with the audit entry of the query behind its numbers.
func cite(text string, seq int) Reply {
	ref := fmt.Sprintf("audit.jsonl#%d", seq)
	return Reply{Text: fmt.Sprintf("%s [1]\n\n[1] the query and its result, audit entry %d", text, seq), ArtifactsReferenced: []string{ref}}
}

// metricTitle names the metric in a sentence: "sum(amount)".
func metricTitle(m investigation.Metric) string {
	if m.Denominator != "" {
		return m.Numerator + " / " + m.Denominator
	}
	return m.Numerator
}

// fmtNum prints a number the way people read it: 1,234,568 or 12.35.
func fmtNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a >= 1000:
		s = strconv.FormatFloat(a, 'f', 0, 64)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
	case a == math.Trunc(a):
		s = strconv.FormatFloat(a, 'f', 0, 64)
	case a >= 1:
		s = strconv.FormatFloat(a, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(a, 'g', 4, 64)
	}
	if v < 0 {
		return "-" + s
	}
	return s
}

func signedNum(v float64) string {
	if v > 0 {
		return "+" + fmtNum(v)
	}
	return fmtNum(v)
}

// isCode reports whether a value is a short code in capitals (US, DE, IN).
func isCode(v string) bool {
	if len(v) > 3 {
		return false
	}
	for _, r := range v {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

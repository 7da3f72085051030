package research

// Namesakes of another time: the question dates its subject ("the 2024
// Cedar Hollow Fire", "the 2025 Kestrel Bay Theatre Festival"), and a
// document about one of the same name decades before ("The 1998 Cedar
// Hollow Fire started on", "the 1987 festival opened") describes
// another event, whose figures stay in its note.

import (
	"regexp"
	"strconv"
	"strings"
)

// otherEra is the year a document gives the subject's kind of thing
// ("the 1998 fire", "Cedar Hollow Fire of 1998", "theatre festival,
// 1987") when that year is at least a decade from every year the
// question names (or, naming none, from the year its corpus writes
// most), is the year the document writes most, and the
// document never dates the subject's kind with the question's years;
// "" otherwise.
func otherEra(text string, q question, corpusYear int) string {
	asked := yearsIn(q.Text)
	// A question of no year is of the year its documents write most.
	if len(asked) == 0 && corpusYear != 0 {
		asked = []int{corpusYear}
	}
	if len(asked) == 0 || len(q.SubjectWords) == 0 {
		return ""
	}
	heads := append([]string{q.SubjectWords[len(q.SubjectWords)-1]}, q.KindWords...)
	// "after the October 2024 floods": what the question dates is of
	// the subject's time too; "the Great Flood of 1968" is another's.
	for _, m := range datedNounRE.FindAllStringSubmatch(q.Text, -1) {
		heads = append(heads, singular(strings.ToLower(m[1])))
	}
	dated := map[int]int{}
	for _, h := range heads {
		h = regexp.QuoteMeta(h) + `s?`
		before := regexp.MustCompile(`(?i)\b(1[5-9]\d\d|20\d\d)\s+(?:[\p{L}'’-]+\s+){0,3}?` + h + `\b`)
		after := regexp.MustCompile(`(?i)\b` + h + `(?:,|\s+(?:of|in))\s+(1[5-9]\d\d|20\d\d)\b`)
		for _, re := range []*regexp.Regexp{before, after} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				y, _ := strconv.Atoi(m[1])
				dated[y]++
			}
		}
	}
	era, n := 0, 0
	for y, c := range dated {
		for _, a := range asked {
			if y == a {
				return "" // "the 2024 fire": the subject's own
			}
		}
		if c > n || c == n && y < era {
			era, n = y, c
		}
	}
	if era == 0 {
		return ""
	}
	for _, a := range asked {
		if abs(float64(era-a)) < 10 {
			return ""
		}
	}
	// The year the document is about, not one it looks back to.
	all := map[int]int{}
	for _, y := range yearsIn(text) {
		all[y]++
	}
	for y, c := range all {
		if y != era && c > all[era] {
			return ""
		}
	}
	return strconv.Itoa(era)
}

// datedNounRE is a noun a year is set before: "the October 2024
// floods", "the 2025 season".
var datedNounRE = regexp.MustCompile(`\b(?:1[5-9]|20)\d\d\s+(\p{L}{4,})\b`)

// commonestYear is the year a corpus's documents write most, 0 when
// they write none.
func commonestYear(texts map[string]string, order []string) int {
	counts := map[int]int{}
	best := 0
	for _, d := range order {
		for _, y := range yearsIn(texts[d]) {
			counts[y]++
			if counts[y] > counts[best] || counts[y] == counts[best] && y > best {
				best = y
			}
		}
	}
	return best
}

// yearsIn are the years (1500-2099) a text writes, each time it writes
// one.
func yearsIn(text string) []int {
	var out []int
	for _, m := range eraYearRE.FindAllString(text, -1) {
		y, _ := strconv.Atoi(m)
		out = append(out, y)
	}
	return out
}

var eraYearRE = regexp.MustCompile(`\b(?:1[5-9]\d\d|20\d\d)\b`)

// eraName is the name of a namesake of another time: "Kestrel Bay
// Theatre Festival (1987)".
func eraName(subject, era string) string {
	return strings.TrimSpace(subject) + " (" + era + ")"
}

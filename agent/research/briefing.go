package research

// A briefing, not a paste: a discrepancy is written as a plain sentence
// from its claims, with its numbers and their [cite:] markers, and each
// number is checked by the shared evidence checker against the
// sentences it cites before it is written.

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/agent/evidence"
	rs "github.com/quarry-dev/quarry/research"
)

// disagreement writes discrepancy d as one sentence: "Stops was reported
// as 18 stops by the council report [cite:a] and 16 stops by the blog
// [cite:b]; 18 stops is preferred: more sources agree on it." It returns
// "" when a number it would write is not in the passages it cites.
func disagreement(d rs.Discrepancy, facts map[string]*rs.Fact) string {
	var ev evidence.Set
	var sides, plain []string
	for _, s := range d.Sides {
		var marks []string
		for _, id := range s.FactIDs {
			marks = append(marks, rs.Cite(id))
			if f := facts[id]; f != nil {
				ev.AddText(f.Passage)
				ev.AddText(f.Text)
			}
		}
		by := ""
		if f := facts[s.FactIDs[0]]; f != nil && f.SourceTitle != "" {
			by = " by " + f.SourceTitle
			if n := len(s.FactIDs); n > 1 {
				by += fmt.Sprintf(" and %d more", n-1)
			}
		}
		sides = append(sides, fmt.Sprintf("%s%s %s", s.Value, by, strings.Join(marks, " ")))
		plain = append(plain, s.Value+by)
	}
	topic := d.Topic
	// "employees (2024)" reads "employees in 2024".
	if m := topicYearRE.FindStringSubmatchIndex(topic); m != nil {
		topic = topic[:m[0]] + " in " + topic[m[2]:m[3]]
	}
	// The numbers are checked without the markers, whose ids may look
	// like numbers.
	if !ev.Check(fmt.Sprintf("%s was reported as %s; %s.", topic, joinAnd(plain), verdict(d))).OK() {
		return ""
	}
	return fmt.Sprintf("%s was reported as %s; %s.", capitalise(topic), joinAnd(sides), verdict(d))
}

// verdict says which side is preferred and why, in words.
func verdict(d rs.Discrepancy) string {
	if d.Preferred == "" || d.Strategy == rs.StrategyUncertainty {
		return "neither can be preferred, so both are reported"
	}
	why := map[string]string{
		rs.StrategyRecency:     "the later source gives it",
		rs.StrategyConsensus:   "more sources agree on it",
		rs.StrategyCredibility: "its source is the more credible",
	}[d.Strategy]
	if strings.Contains(d.Resolution, "corrects") {
		why = "the later source corrects the earlier figure"
	}
	if why == "" {
		return d.Preferred + " is preferred"
	}
	return d.Preferred + " is preferred: " + why
}

var topicYearRE = regexp.MustCompile(` \((\d{4})\)$`)

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

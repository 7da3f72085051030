package research

import (
	"sort"
	"strings"

	rs "github.com/quarry-dev/quarry/research"
)

// maxAnswerChars bounds the sentence quoted for each entity.
const maxAnswerChars = 300

// Answer is the short answer to the question itself: for each entity the
// sources describe, the most confident believed claim of the first
// sub-question, one sentence each, naming the entity when the name is
// shared. Claims that lost a discrepancy are left out; "" when no source
// answers.
func Answer(res *rs.Result) string {
	if res.Plan == nil || len(res.Plan.SubQuestions) == 0 {
		return ""
	}
	direct := res.Plan.SubQuestions[0].ID
	lost := map[string]bool{}
	for _, d := range res.Discrepancies {
		if d.Preferred == "" {
			continue
		}
		for _, s := range d.Sides[1:] {
			for _, id := range s.FactIDs {
				lost[id] = true
			}
		}
	}
	best := map[string]*rs.Fact{}
	var entities []string
	for i := range res.Facts {
		f := &res.Facts[i]
		if f.SubQuestionID != direct || lost[f.ID] {
			continue
		}
		cur := best[f.Entity]
		if cur == nil {
			entities = append(entities, f.Entity)
		}
		if cur == nil || better(f, cur) {
			best[f.Entity] = f
		}
	}
	sort.SliceStable(entities, func(i, j int) bool { return better(best[entities[i]], best[entities[j]]) })
	var parts []string
	seen := map[string]bool{}
	for _, e := range entities {
		f := best[e]
		s := clipAround(f.Passage, Value{Start: max(0, strings.Index(f.Passage, f.Value))}, maxAnswerChars)
		if seen[s] {
			continue
		}
		seen[s] = true
		if len(entities) > 1 {
			s = e + ": " + s
		}
		parts = append(parts, strings.TrimSpace(s))
	}
	return strings.Join(parts, " ")
}

func better(a, b *rs.Fact) bool {
	if a.Verified != b.Verified {
		return a.Verified
	}
	return a.Confidence > b.Confidence
}

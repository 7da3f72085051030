package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry/retrieve"
)

// A data problem a question may ask about, with the words that name it in
// a question and the words the data-quality findings use for it.
type dataProblem struct {
	name     string
	asked    []string // stems in the question
	reported []string // phrases in the findings
}

var dataProblems = []dataProblem{
	{"double counting", []string{"double", "twice", "total", "overcount"}, []string{"totals of other rows", "sum of the other", "twice", "duplicate"}},
	{"duplicate rows", []string{"duplicat", "dupe", "repeated"}, []string{"duplicate"}},
	{"missing data", []string{"missing", "gap", "hole", "absent"}, []string{"no rows on", "missing"}},
	{"a partial last day", []string{"partial", "incomplete"}, []string{"partial"}},
	{"a spike of empty values", []string{"null", "empty", "blank"}, []string{"null"}},
}

// problemAsked returns the data problem a question asks about, if any.
func problemAsked(text string) *dataProblem {
	words := retrieve.Words(text)
	for i := range dataProblems {
		if indexOf(words, dataProblems[i].asked, true) >= 0 {
			return &dataProblems[i]
		}
	}
	return nil
}

// problem answers whether a data problem exists: the data-quality findings
// that report it, quoted, or "no" with the verdict of the data-quality
// hypothesis. ok is false when the memory holds neither.
func (a *Answerer) problem(ctx context.Context, sessionID string, p *dataProblem) (Reply, bool, error) {
	hits, err := a.Index.Search(ctx, sessionID, "data quality broken data duplicate missing partial null totals "+p.name, maxHypothesisHits)
	if err != nil {
		return Reply{}, false, err
	}
	var ans answer
	seen := map[string]bool{}
	headed := false
	for _, h := range hits {
		// Only findings count: the plan and the method name every check.
		where := strings.ToLower(h.Title + " " + h.Ref)
		if !strings.Contains(where, "data quality") && !strings.Contains(where, "data-quality") && !strings.HasPrefix(h.Ref, "results/explanations.json") {
			continue
		}
		for _, s := range sentencesOf(h.Text, false) {
			ls := strings.ToLower(s)
			found := false
			for _, r := range p.reported {
				found = found || strings.Contains(ls, r)
			}
			if found && !seen[s] && !strings.Contains(ls, "no missing days, partial days, duplicate rows") {
				seen[s] = true
				if !headed {
					ans.text(fmt.Sprintf("Yes, the data-quality checks found %s:", p.name))
					headed = true
				}
				if !ans.add("- ", []string{s}, h.Ref) {
					break
				}
			}
		}
	}
	if !ans.empty() {
		return ans.reply(), true, nil
	}
	for _, h := range hypothesesOf(hits) {
		if strings.Contains(strings.ToLower(h.quote), "broken data") || strings.Contains(strings.ToLower(h.quote), "data quality") {
			ans.text(fmt.Sprintf("No: the data-quality checks (missing days, duplicates, rows that are totals of others, partial days, empty values) found no %s.", p.name))
			ans.add("- ", []string{h.quote}, h.ref)
			return ans.reply(), true, nil
		}
	}
	return Reply{}, false, nil
}

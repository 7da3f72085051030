package chat

import (
	"reflect"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
)

func TestParseQuestion(t *testing.T) {
	ruled, confirmed := investigation.HypRuledOut, investigation.HypConfirmed
	tests := []struct {
		q         string
		statuses  []investigation.HypothesisStatus
		method    bool
		why, code bool
	}{
		{"How did you calculate the contribution?", nil, true, false, false},
		{"how was the share computed", nil, true, false, false},
		{"What method did you use?", nil, true, false, false},
		{"How did revenue change?", nil, false, false, false},
		{"Which hypotheses were ruled out and why?", []investigation.HypothesisStatus{ruled}, false, true, false},
		{"what did you rule out", []investigation.HypothesisStatus{ruled}, false, false, false},
		{"which ideas were rejected", []investigation.HypothesisStatus{ruled}, false, false, false},
		{"Which hypotheses were confirmed, which rejected?", []investigation.HypothesisStatus{confirmed, ruled}, false, false, false},
		{"was the drop confirmed?", nil, false, false, false}, // "confirmed" alone is not about hypotheses
		{"Why did checkout conversion fall?", nil, false, true, false},
		{"show me the SQL of iteration 3", nil, false, false, true},
	}
	for _, tt := range tests {
		q := parseQuestion(tt.q)
		if !reflect.DeepEqual(q.statuses, tt.statuses) || q.aboutMethod != tt.method || q.asksWhy != tt.why || q.wantsCode != tt.code {
			t.Errorf("parseQuestion(%q) = statuses %v, method %v, why %v, code %v; want %v, %v, %v, %v",
				tt.q, q.statuses, q.aboutMethod, q.asksWhy, q.wantsCode, tt.statuses, tt.method, tt.why, tt.code)
		}
	}
}

func TestPick(t *testing.T) {
	q := parseQuestion("what about Germany?")
	hit := retrieve.Hit{Chunk: retrieve.Chunk{Ref: "r", Title: "Finding find_006",
		Text: "Iteration 6 decided DRILL_DOWN. A search points at device=ios AND country=DE. Germany had 3 segments. Nothing else.\nSQL: SELECT 'DE'"}}
	p, ok := q.pick(hit)
	want := passage{ref: "r", sentences: []string{"A search points at device=ios AND country=DE.", "Germany had 3 segments."}, score: 3}
	if !ok || !reflect.DeepEqual(p, want) {
		t.Errorf("pick = %+v, %v; want %+v", p, ok, want)
	}
	// A passage whose title matches but no sentence does gives its first sentence.
	hit = retrieve.Hit{Chunk: retrieve.Chunk{Ref: "g", Title: "Germany", Text: "Sales held. Nothing else."}}
	if p, ok := q.pick(hit); !ok || !reflect.DeepEqual(p.sentences, []string{"Sales held."}) {
		t.Errorf("pick(title match) = %+v, %v; want the first sentence", p, ok)
	}
	hit = retrieve.Hit{Chunk: retrieve.Chunk{Ref: "x", Title: "Other", Text: "device=ios fell.\nSQL: SELECT 'DE'"}}
	if p, ok := q.pick(hit); ok {
		t.Errorf("pick(match only in SQL) = %+v; want nothing", p)
	}
}

func TestHypothesesOf(t *testing.T) {
	hits := []retrieve.Hit{
		{Chunk: retrieve.Chunk{Ref: "report.md#hypotheses", Title: "Hypotheses", Text: "| ID | Hypothesis | Status |\n|---|---|---|\n" +
			"| hyp_002 | Weekday mix | Ruled out |\n| hyp_010 | Pricing | Confirmed |\n| hyp_003 | Mix | Investigating |"}},
		{Chunk: retrieve.Chunk{Ref: "analysis/iterations/iter_001.json", Title: "Finding find_001 (iteration 1, hyp_001)", Text: "Iteration 1: broken data must be ruled out first"}},
		{Chunk: retrieve.Chunk{Ref: "analysis/hypotheses/hyp_002.json", Title: "Hypothesis hyp_002 RULED_OUT: Weekday mix", Text: "hyp_002 RULED_OUT: Weekday mix. identical weekdays"}},
	}
	got := hypothesesOf(hits)
	want := []hypothesis{
		{id: "hyp_002", status: investigation.HypRuledOut, quote: "hyp_002 RULED_OUT: Weekday mix. identical weekdays.", ref: "analysis/hypotheses/hyp_002.json"},
		{id: "hyp_003", status: investigation.HypInvestigating, quote: "hyp_003; Mix; Investigating", ref: "report.md#hypotheses"},
		{id: "hyp_010", status: investigation.HypConfirmed, quote: "hyp_010; Pricing; Confirmed", ref: "report.md#hypotheses"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hypothesesOf =\n%+v\nwant\n%+v", got, want)
	}
}

package research

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestNewRequest(t *testing.T) {
	for _, tc := range []struct {
		query, depth string
		code         string
		want         Depth
	}{
		{"What changed at Acme last year?", "", "", DepthStandard},
		{"What changed at Acme last year?", "Quick", "", DepthQuick},
		{"What changed at Acme last year?", "comprehensive", "", DepthComprehensive},
		{"too short", "quick", quarry.ECodeInvalid, ""},
		{"          ", "quick", quarry.ECodeInvalid, ""},
		{strings.Repeat("x", 500), "quick", "", DepthQuick},
		{strings.Repeat("x", 501), "quick", quarry.ECodeInvalid, ""},
		{"What changed at Acme last year?", "deep", quarry.ECodeInvalid, ""},
	} {
		r, err := NewRequest(tc.query, tc.depth, now)
		if got := quarry.ErrorCode(err); got != tc.code {
			t.Errorf("NewRequest(%q, %q) error %v; want code %q", tc.query, tc.depth, err, tc.code)
			continue
		}
		if err == nil && (r.Depth != tc.want || r.Status != StatusPlanning || r.ID == "") {
			t.Errorf("NewRequest(%q, %q) = %+v; want depth %s in planning", tc.query, tc.depth, r, tc.want)
		}
	}
}

func TestMove(t *testing.T) {
	path := []Status{StatusExecuting, StatusVerifying, StatusSynthesizing, StatusCompleted}
	r := &Request{Status: StatusPlanning}
	for _, s := range path {
		if err := r.Move(s); err != nil {
			t.Fatalf("Move(%s) = %v", s, err)
		}
	}
	for _, s := range append(path, StatusFailed, StatusPlanning) {
		if err := r.Move(s); quarry.ErrorCode(err) != quarry.ECodeConflict {
			t.Errorf("completed.Move(%s) = %v; want CONFLICT", s, err)
		}
	}
	for _, from := range path[:3] {
		r := &Request{Status: from}
		if err := r.Move(StatusFailed); err != nil || r.Status != StatusFailed {
			t.Errorf("%s.Move(failed) = %v", from, err)
		}
	}
	for _, tc := range [][2]Status{{StatusPlanning, StatusVerifying}, {StatusVerifying, StatusExecuting}, {StatusFailed, StatusPlanning}} {
		r := &Request{Status: tc[0]}
		if err := r.Move(tc[1]); quarry.ErrorCode(err) != quarry.ECodeConflict || r.Status != tc[0] {
			t.Errorf("%s.Move(%s) = %v, status %s; want CONFLICT and no change", tc[0], tc[1], err, r.Status)
		}
	}
}

// withFollowUps adds follow-ups to p, each "id<parent" at the depth
// one below its parent, with the next priorities.
func withFollowUps(p *Plan, links ...string) *Plan {
	depth := map[string]int{}
	for _, q := range p.SubQuestions {
		depth[q.ID] = q.Depth
	}
	for _, l := range links {
		id, parent, _ := strings.Cut(l, "<")
		depth[id] = depth[parent] + 1
		p.SubQuestions = append(p.SubQuestions, SubQuestion{ID: id, Text: "And the follow-up " + id + "?", Priority: len(p.SubQuestions) + 1, ParentID: parent, Depth: depth[id]})
	}
	return p
}

// plan returns a plan of n root questions with priorities 1..n.
func plan(n int) *Plan {
	p := &Plan{ID: "p"}
	for i := range n {
		p.SubQuestions = append(p.SubQuestions, SubQuestion{ID: fmt.Sprint("q", i), Text: fmt.Sprintf("What about aspect %d?", i), Priority: i + 1})
	}
	return p
}

func TestPlanValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		depth  Depth
		plan   func() *Plan
		wantOK bool
	}{
		{"quick 3", DepthQuick, func() *Plan { return plan(3) }, true},
		{"quick 5", DepthQuick, func() *Plan { return plan(5) }, true},
		{"quick 6", DepthQuick, func() *Plan { return plan(6) }, false},
		{"standard 4", DepthStandard, func() *Plan { return plan(4) }, false},
		{"standard 7", DepthStandard, func() *Plan { return plan(7) }, true},
		{"comprehensive 7", DepthComprehensive, func() *Plan { return plan(7) }, true},
		{"comprehensive 10", DepthComprehensive, func() *Plan { return plan(10) }, true},
		{"comprehensive 11", DepthComprehensive, func() *Plan { return plan(11) }, false},
		{"duplicate priority", DepthQuick, func() *Plan { p := plan(3); p.SubQuestions[2].Priority = 1; return p }, false},
		{"priority 0", DepthQuick, func() *Plan { p := plan(3); p.SubQuestions[0].Priority = 0; return p }, false},
		{"short text", DepthQuick, func() *Plan { p := plan(3); p.SubQuestions[0].Text = "Why?"; return p }, false},
		{"follow-up", DepthQuick, func() *Plan { return withFollowUps(plan(3), "f<q0") }, true},
		{"follow-up too deep for quick", DepthQuick, func() *Plan { return withFollowUps(plan(3), "f<q0", "g<f") }, false},
		{"two levels comprehensive", DepthComprehensive, func() *Plan { return withFollowUps(plan(7), "f<q0", "g<f") }, true},
		{"three levels comprehensive", DepthComprehensive, func() *Plan { return withFollowUps(plan(7), "f<q0", "g<f", "h<g") }, false},
		{"unknown parent", DepthQuick, func() *Plan { return withFollowUps(plan(3), "f<nope") }, false},
		{"cycle", DepthComprehensive, func() *Plan {
			p := withFollowUps(plan(7), "f<q0", "g<f")
			p.SubQuestions[7].ParentID, p.SubQuestions[7].Depth = "g", 3
			return p
		}, false},
	} {
		err := tc.plan().Validate(tc.depth)
		if (err == nil) != tc.wantOK {
			t.Errorf("%s: Validate = %v; want ok %v", tc.name, err, tc.wantOK)
		}
		if err != nil && quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("%s: Validate = %v; want INVALID", tc.name, err)
		}
	}
}

func TestFactValidate(t *testing.T) {
	ok := Fact{ID: "f1", Text: "Headcount was 1,240 at year end.", SourceURL: "file:///corpus/a.md", SourceID: "s1", Confidence: 0.8}
	for _, tc := range []struct {
		name string
		edit func(*Fact)
		ok   bool
	}{
		{"valid", func(*Fact) {}, true},
		{"short", func(f *Fact) { f.Text = "1,240" }, false},
		{"long", func(f *Fact) { f.Text = strings.Repeat("y", 501) }, false},
		{"confidence", func(f *Fact) { f.Confidence = 1.2 }, false},
		{"url", func(f *Fact) { f.SourceURL = "not a url" }, false},
		{"no source", func(f *Fact) { f.SourceID = "" }, false},
	} {
		f := ok
		tc.edit(&f)
		if err := f.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate = %v; want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestReportCitations(t *testing.T) {
	facts := map[string]*Fact{"a": {ID: "a"}, "b": {ID: "b"}}
	content := "Revenue was $12.4 million [cite:a], restated from $13.1 million [cite:b]."
	if got := Markers(content); fmt.Sprint(got) != "[a b]" {
		t.Errorf("Markers = %v; want [a b]", got)
	}
	r := &Report{ExecutiveSummary: "In short [cite:a].", Sections: []Section{{Title: "Financials", Content: content, FactIDs: []string{"a", "b"}, Order: 1}}}
	r.TotalWordCount = Words(r.ExecutiveSummary) + Words(content)
	if err := r.Validate(facts); err != nil {
		t.Fatalf("Validate = %v", err)
	}
	if Words(content) != 8 {
		t.Errorf("Words(%q) = %d; want 8", content, Words(content))
	}
	bad := *r
	bad.ExecutiveSummary = "In short [cite:zzz]."
	if err := bad.Validate(facts); err == nil || !strings.Contains(err.Error(), "zzz") {
		t.Errorf("Validate with unresolvable marker = %v; want an error naming it", err)
	}
	bad = *r
	bad.Sections = []Section{{Title: "Financials", Content: content, FactIDs: []string{"a", "b", "c"}, Order: 1}}
	if err := bad.Validate(facts); err == nil {
		t.Error("Validate with a listed but uncited fact = nil; want an error")
	}
	bad = *r
	bad.TotalWordCount++
	if err := bad.Validate(facts); err == nil {
		t.Error("Validate with a wrong word count = nil; want an error")
	}
}

func TestQuality(t *testing.T) {
	if q := Quality(1, 300, 3, 4, 4); q != 1 {
		t.Errorf("Quality(full) = %g; want 1", q)
	}
	if q := Quality(2, 300, 3, 4, 2); q != 0.5 {
		t.Errorf("Quality(half) = %g; want 0.5", q)
	}
	if q := Quality(0, 0, 0, 0, 0); q != 0 {
		t.Errorf("Quality(empty) = %g; want 0", q)
	}
}

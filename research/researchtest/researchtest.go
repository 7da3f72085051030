// Package researchtest is the behaviour every research.Store passes,
// written once and run against each implementation (sqlite.Research,
// postgres.Research).
package researchtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
)

// Sample is a small complete result: three root questions and a
// follow-up, two sources, two conflicting facts and a report citing both.
func Sample() *research.Result {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	secs := 1.5
	req := &research.Request{ID: "req-1", Query: "What changed at Acme last year?", Depth: research.DepthQuick, CreatedAt: at, Status: research.StatusCompleted, CompletionTimeSeconds: &secs}
	p := &research.Plan{ID: "plan-1", RequestID: req.ID, CreatedAt: at, EstimatedTimeSeconds: 2}
	for i, text := range []string{"What were Acme's finances?", "Who leads Acme and what changed?", "What legal matters involve Acme?"} {
		p.SubQuestions = append(p.SubQuestions, research.SubQuestion{ID: fmt.Sprint("sq-", i), PlanID: p.ID, Text: text, Priority: i + 1, Status: research.SubCompleted, Aspect: "Financials", SearchResults: []research.SearchResult{}})
	}
	p.SubQuestions = append(p.SubQuestions, research.SubQuestion{ID: "sq-f", PlanID: p.ID, Text: "Why was revenue restated?", Priority: 4, ParentID: "sq-0", Depth: 1, Status: research.SubCompleted, SearchResults: []research.SearchResult{}})
	src := []research.SearchResult{
		{ID: "sr-1", SubQuestionID: "sq-0", URL: "file:///c/10-k.md", Title: "10-K", Content: "Revenue was $12.4 million.", Domain: "acme", AccessTimestamp: at, CredibilityScore: 0.9, Published: at.AddDate(0, -1, 0), ExtractedFacts: []string{"f-1"}},
		{ID: "sr-2", SubQuestionID: "sq-0", URL: "file:///c/pr.md", Title: "Press release", Content: "Revenue was $13.1 million.", Domain: "acme", AccessTimestamp: at, CredibilityScore: 0.6, ExtractedFacts: []string{"f-2"}},
	}
	p.SubQuestions[0].SearchResults = src
	facts := []research.Fact{
		{ID: "f-1", Text: "Revenue was $12.4 million.", SourceURL: src[0].URL, SourceID: "sr-1", SourceTitle: "10-K", Confidence: 0.8, Section: "Financials", ExtractionTimestamp: at, Verified: true, DiscrepancyID: "d-1", SubQuestionID: "sq-0", Subject: "Acme", Attribute: "revenue", Value: "$12.4 million", Passage: "Revenue was $12.4 million."},
		{ID: "f-2", Text: "Revenue was $13.1 million.", SourceURL: src[1].URL, SourceID: "sr-2", SourceTitle: "Press release", Confidence: 0.7, Section: "Financials", ExtractionTimestamp: at, DiscrepancyID: "d-1", SubQuestionID: "sq-0", Subject: "Acme", Attribute: "revenue", Value: "$13.1 million", Passage: "Revenue was $13.1 million."},
	}
	disc := []research.Discrepancy{{ID: "d-1", FactIDs: []string{"f-1", "f-2"}, Topic: "Acme revenue", Sides: []research.Side{{Value: "$12.4 million", FactIDs: []string{"f-1"}}, {Value: "$13.1 million", FactIDs: []string{"f-2"}}},
		Strategy: research.StrategyRecency, Preferred: "$12.4 million", Resolution: "the 10-K is newer", ResolutionConfidence: 0.8, CreatedAt: at}}
	content := "Revenue was $12.4 million [cite:f-1], not $13.1 million [cite:f-2]."
	rep := &research.Report{ID: "rep-1", RequestID: req.ID, ExecutiveSummary: "Revenue was restated [cite:f-1].", GeneratedAt: at, TotalSources: 2, QualityScore: 0.4,
		Sections:    []research.Section{{ID: "sec-1", ReportID: "rep-1", Title: "Financials", Content: content, FactIDs: []string{"f-1", "f-2"}, Order: 1}},
		Limitations: []string{"Financials has 9 words from 2 sources"}}
	rep.TotalWordCount = research.Words(rep.ExecutiveSummary) + research.Words(content)
	amb := []research.Ambiguity{{Name: "Acme", Attribute: "location", Entities: []research.EntityAnswers{{Entity: "Acme (Ohio)", Value: "Dayton", FactIDs: []string{"f-1"}}}}}
	return &research.Result{Request: req, Plan: p, Sources: src, Facts: facts, Discrepancies: disc, Ambiguities: amb, Report: rep, Answer: "Revenue was $12.4 million."}
}

// Run checks a store that open returns empty: a saved result comes back
// whole, a second save replaces it, List filters by user, an invalid
// result is refused with nothing written, and Delete removes everything
// the request produced (the same result saves again afterwards). On
// stores of their own, List is newest first (within one second too) and
// a research that failed before it had a plan keeps its request alone.
func Run(t *testing.T, open func(t *testing.T) research.Store) {
	ctx := context.Background()
	s := open(t)
	want := Sample()
	if err := s.Save(ctx, want); err != nil {
		t.Fatalf("Save = %v", err)
	}
	if err := s.Save(ctx, want); err != nil {
		t.Fatalf("second Save = %v", err)
	}
	got, err := s.Get(ctx, want.Request.ID)
	if err != nil {
		t.Fatalf("Get = %v", err)
	}
	wj, _ := json.MarshalIndent(want, "", " ")
	gj, _ := json.MarshalIndent(got, "", " ")
	if string(wj) != string(gj) {
		t.Errorf("Get = %s\nwant %s", gj, wj)
	}

	other := Sample()
	other.Request.ID, other.Request.UserID = "req-other", "ann"
	renumber(other)
	if err := s.Save(ctx, other); err != nil {
		t.Fatalf("Save(another user's) = %v", err)
	}
	for user, n := range map[string]int{"": 2, "ann": 1, "bob": 0} {
		list, err := s.List(ctx, user)
		if err != nil || len(list) != n {
			t.Errorf("List(%q) = %d requests, %v; want %d", user, len(list), err, n)
		}
	}

	bad := Sample()
	bad.Request.ID = "req-bad"
	renumber(bad)
	bad.Report.Sections[0].Content += " [cite:nope]"
	if err := s.Save(ctx, bad); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Save(unresolvable marker) = %v; want INVALID", err)
	}
	if _, err := s.Get(ctx, "req-bad"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Get(refused save) = %v; want NOT_FOUND, nothing half-written", err)
	}

	if err := s.Delete(ctx, want.Request.ID); err != nil {
		t.Fatalf("Delete = %v", err)
	}
	if _, err := s.Get(ctx, want.Request.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Get after Delete = %v; want NOT_FOUND", err)
	}
	if err := s.Delete(ctx, want.Request.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Delete twice = %v; want NOT_FOUND", err)
	}
	// Nothing of the deleted request is left to collide with.
	if err := s.Save(ctx, Sample()); err != nil {
		t.Errorf("Save after Delete = %v; want the same ids free again", err)
	}

	t.Run("newest first", func(t *testing.T) { newestFirst(t, open(t)) })
	t.Run("newest first within a second", func(t *testing.T) { withinSecond(t, open(t)) })
	t.Run("failed without a plan", func(t *testing.T) { failedEarly(t, open(t)) })
}

// newestFirst checks List's order: newest first whatever the order of the
// saves, for everyone and for one user.
func newestFirst(t *testing.T, s research.Store) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// Saved out of order; the user alternates.
	for _, i := range []int{2, 0, 3, 1} {
		r := Sample()
		r.Request.ID = fmt.Sprint("req-", i)
		r.Request.CreatedAt = at.Add(time.Duration(i) * time.Hour)
		r.Request.UserID = []string{"ann", "bob"}[i%2]
		renumber(r)
		if err := s.Save(ctx, r); err != nil {
			t.Fatalf("Save(%s) = %v", r.Request.ID, err)
		}
	}
	for user, want := range map[string]string{"": "req-3 req-2 req-1 req-0", "ann": "req-2 req-0", "bob": "req-3 req-1"} {
		list, err := s.List(ctx, user)
		if err != nil {
			t.Fatalf("List(%q) = %v", user, err)
		}
		var ids []string
		for _, q := range list {
			ids = append(ids, q.ID)
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("List(%q) = %s; want %s, newest first", user, got, want)
		}
	}
}

// withinSecond checks List's order among researches started in the
// same second, some of them on the whole second: a time's fractional
// digits, however many, order it (12:00:00 before 12:00:00.1 before
// 12:00:00.15), to the microsecond every store keeps.
func withinSecond(t *testing.T, s research.Store) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	offsets := map[string]time.Duration{
		"req-a": 0,
		"req-b": time.Microsecond,
		"req-c": 100 * time.Millisecond,
		"req-d": 150 * time.Millisecond,
		"req-e": 500 * time.Millisecond,
		"req-f": time.Second,
	}
	for _, id := range []string{"req-c", "req-a", "req-f", "req-e", "req-b", "req-d"} {
		r := Sample()
		r.Request.ID = id
		r.Request.CreatedAt = at.Add(offsets[id])
		renumber(r)
		if err := s.Save(ctx, r); err != nil {
			t.Fatalf("Save(%s) = %v", id, err)
		}
	}
	list, err := s.List(ctx, "")
	if err != nil {
		t.Fatalf("List = %v", err)
	}
	var ids []string
	for _, q := range list {
		ids = append(ids, q.ID)
		if want := at.Add(offsets[q.ID]); !q.CreatedAt.Equal(want) {
			t.Errorf("List: %s created at %s; want %s", q.ID, q.CreatedAt.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
		}
	}
	if got, want := strings.Join(ids, " "), "req-f req-e req-d req-c req-b req-a"; got != want {
		t.Errorf("List = %s; want %s, newest first to the microsecond", got, want)
	}
}

// failedEarly saves what a research that failed while planning has: its
// request, failed with its error, and nothing else. It reads back so.
func failedEarly(t *testing.T, s research.Store) {
	ctx := context.Background()
	q := *Sample().Request
	q.ID, q.Status, q.Error, q.CompletionTimeSeconds = "req-failed", research.StatusFailed, "the room has no processed document", nil
	if err := s.Save(ctx, &research.Result{Request: &q}); err != nil {
		t.Fatalf("Save(failed request alone) = %v", err)
	}
	got, err := s.Get(ctx, q.ID)
	if err != nil {
		t.Fatalf("Get = %v", err)
	}
	wj, _ := json.Marshal(q)
	gj, _ := json.Marshal(got.Request)
	if string(wj) != string(gj) {
		t.Errorf("Get(failed).Request = %s; want %s", gj, wj)
	}
	if got.Plan != nil || got.Report != nil || len(got.Sources)+len(got.Facts)+len(got.Discrepancies)+len(got.Ambiguities) != 0 || got.Answer != "" {
		t.Errorf("Get(failed) = plan %v, report %v, %d sources, %d facts, %d discrepancies, %d ambiguities, answer %q; want the request alone",
			got.Plan, got.Report, len(got.Sources), len(got.Facts), len(got.Discrepancies), len(got.Ambiguities), got.Answer)
	}
	if list, err := s.List(ctx, ""); err != nil || len(list) != 1 || list[0].Status != research.StatusFailed {
		t.Errorf("List = %+v, %v; want the failed request", list, err)
	}
}

// renumber gives every id of r a prefix of its request id, so that two
// samples can live in one store.
func renumber(r *research.Result) {
	p := r.Request.ID + "/"
	ids := map[string]string{}
	id := func(s string) string {
		// Slices the sample shares are met twice; an id is renamed once.
		if s == "" || strings.HasPrefix(s, p) {
			return s
		}
		if ids[s] == "" {
			ids[s] = p + s
		}
		return ids[s]
	}
	results := func(srs []research.SearchResult) {
		for i := range srs {
			sr := &srs[i]
			sr.ID, sr.SubQuestionID = id(sr.ID), id(sr.SubQuestionID)
			for k := range sr.ExtractedFacts {
				sr.ExtractedFacts[k] = id(sr.ExtractedFacts[k])
			}
		}
	}
	r.Plan.ID, r.Plan.RequestID = id(r.Plan.ID), r.Request.ID
	for i := range r.Plan.SubQuestions {
		q := &r.Plan.SubQuestions[i]
		q.ID, q.PlanID, q.ParentID = id(q.ID), r.Plan.ID, id(q.ParentID)
		results(q.SearchResults)
	}
	results(r.Sources)
	for i := range r.Facts {
		f := &r.Facts[i]
		f.ID, f.SourceID, f.DiscrepancyID, f.SubQuestionID = id(f.ID), id(f.SourceID), id(f.DiscrepancyID), id(f.SubQuestionID)
	}
	for i := range r.Discrepancies {
		d := &r.Discrepancies[i]
		d.ID = id(d.ID)
		for k := range d.FactIDs {
			d.FactIDs[k] = id(d.FactIDs[k])
		}
		for k := range d.Sides {
			for m := range d.Sides[k].FactIDs {
				d.Sides[k].FactIDs[m] = id(d.Sides[k].FactIDs[m])
			}
		}
	}
	for i := range r.Ambiguities {
		for k := range r.Ambiguities[i].Entities {
			e := &r.Ambiguities[i].Entities[k]
			for m := range e.FactIDs {
				e.FactIDs[m] = id(e.FactIDs[m])
			}
		}
	}
	rep := r.Report
	rep.ID, rep.RequestID = id(rep.ID), r.Request.ID
	for i := range rep.Sections {
		sec := &rep.Sections[i]
		sec.ID, sec.ReportID = id(sec.ID), rep.ID
		for k := range sec.FactIDs {
			old := sec.FactIDs[k]
			sec.FactIDs[k] = id(old)
			sec.Content = replaceMarker(sec.Content, old, sec.FactIDs[k])
		}
	}
	for old, nw := range ids {
		rep.ExecutiveSummary = replaceMarker(rep.ExecutiveSummary, old, nw)
	}
}

func replaceMarker(s, old, nw string) string {
	return strings.ReplaceAll(s, research.Cite(old), research.Cite(nw))
}

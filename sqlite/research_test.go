package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
)

// sampleResearch is a small complete result: three root questions and a
// follow-up, two sources, two conflicting facts and a report citing both.
func sampleResearch() *research.Result {
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

func TestResearchStore(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{":memory:", t.TempDir() + "/db/research.db"} {
		s, err := OpenResearch(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		want := sampleResearch()
		if err := s.Save(ctx, want); err != nil {
			t.Fatalf("Save = %v", err)
		}
		// Saving again replaces.
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
			t.Errorf("%s: Get = %s\nwant %s", path, gj, wj)
		}
		list, err := s.List(ctx, "")
		if err != nil || len(list) != 1 || list[0].ID != want.Request.ID {
			t.Errorf("List = %v, %v; want the one request", list, err)
		}

		bad := sampleResearch()
		bad.Request.ID = "req-2"
		bad.Report.Sections[0].Content += " [cite:nope]"
		if err := s.Save(ctx, bad); quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("Save(unresolvable marker) = %v; want INVALID", err)
		}
		if _, err := s.Get(ctx, "req-2"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("Get(refused save) = %v; want NOT_FOUND, nothing half-written", err)
		}

		if err := s.Delete(ctx, want.Request.ID); err != nil {
			t.Fatalf("Delete = %v", err)
		}
		for _, table := range []string{"facts", "search_results", "sub_questions", "report_sections", "section_facts", "fact_discrepancies"} {
			var n int
			if err := s.read.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s after Delete: %d rows, %v; want 0", table, n, err)
			}
		}
		if err := s.Delete(ctx, want.Request.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("Delete twice = %v; want NOT_FOUND", err)
		}
	}
}

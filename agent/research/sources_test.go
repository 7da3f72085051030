package research

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	rs "github.com/quarry-dev/quarry/research"
)

// listCorpus answers every search with its passages, counting searches,
// or with err.
type listCorpus struct {
	passages []Passage
	err      error
	searches atomic.Int32
	failures []SourceFailure
}

func (c *listCorpus) Search(ctx context.Context, query string, k int) ([]Passage, error) {
	c.searches.Add(1)
	if c.err != nil {
		return nil, c.err
	}
	return c.passages[:min(k, len(c.passages))], nil
}

// pagesCorpus is a listCorpus some of whose documents failed.
type pagesCorpus struct{ listCorpus }

func (c *pagesCorpus) Failures() []SourceFailure { return c.failures }

func sourcePassage(url, text string) Passage {
	return Passage{URL: url, Title: url, Text: text, Credibility: 0.8, Published: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}
}

// TestSourcesOneFails: a web source that is down is asked once, left
// out, named in the progress and the limitations; the research completes
// from the folder.
func TestSourcesOneFails(t *testing.T) {
	folder := &listCorpus{passages: []Passage{
		sourcePassage("file:///kestrel/10-k.md", "Kestrel Dynamics Inc. employed 1,240 people at the end of 2024, the annual report says."),
		sourcePassage("file:///kestrel/letter.md", "At the end of 2024 Kestrel Dynamics had 1,240 employees across two plants."),
	}}
	web := &listCorpus{err: quarry.Errorf(quarry.ECodeUnavailable, "SearxNG at http://127.0.0.1:9 cannot be reached: connection refused")}
	src := NewSources(Source{Name: "the folder", Corpus: folder}, Source{Name: "the web (SearxNG)", Corpus: web})
	var stages []rs.Stage
	r := &Researcher{Corpus: src, Progress: func(s rs.Stage) { stages = append(stages, s) }}
	req, err := rs.NewRequest("How many employees did Kestrel Dynamics have at the end of 2024?", "quick", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run = %v; want the research to complete without the web", err)
	}
	if req.Status != rs.StatusCompleted || len(res.Facts) == 0 {
		t.Errorf("status %s with %d facts; want completed with the folder's facts", req.Status, len(res.Facts))
	}
	if n := web.searches.Load(); n != 1 {
		t.Errorf("the failed source was searched %d times; want once", n)
	}
	want := "Source the web (SearxNG) failed and the research went on without it: SearxNG at http://127.0.0.1:9 cannot be reached: connection refused."
	told := 0
	for _, s := range stages {
		if s.Message == want {
			told++
		}
	}
	if told != 1 {
		t.Errorf("progress told the failure %d times; want once\n%+v", told, stages)
	}
	if !limitationsHave(res.Report.Limitations, want) {
		t.Errorf("limitations %q; want %q", res.Report.Limitations, want)
	}
	if !strings.Contains(res.Report.ExecutiveSummary, "Some sources failed (the web (SearxNG))") {
		t.Errorf("summary %q does not say a source failed", res.Report.ExecutiveSummary)
	}
	if err := res.Validate(); err != nil {
		t.Errorf("result: %v", err)
	}
}

// TestSourcesAllFail: with no source left the research fails with the
// reasons, not with an empty report.
func TestSourcesAllFail(t *testing.T) {
	web := &listCorpus{err: quarry.Errorf(quarry.ECodeUnavailable, "SearxNG at http://127.0.0.1:9 did not answer within 15s")}
	r := &Researcher{Corpus: NewSources(Source{Name: "the web (SearxNG)", Corpus: web})}
	req, _ := rs.NewRequest("How many employees did Kestrel Dynamics have at the end of 2024?", "quick", time.Now())
	_, err := r.Run(context.Background(), req)
	if quarry.ErrorCode(err) != quarry.ECodeUnavailable || !strings.Contains(err.Error(), "did not answer within 15s") || req.Status != rs.StatusFailed {
		t.Errorf("Run = %v, status %s; want UNAVAILABLE with the reason, failed", err, req.Status)
	}
	// A required source's failure is the research's.
	room := &listCorpus{err: quarry.Errorf(quarry.ECodeNotFound, "no room kestrel")}
	ok := &listCorpus{passages: []Passage{sourcePassage("https://a.example/", "Kestrel Dynamics employed 1,240 people at the end of 2024.")}}
	r = &Researcher{Corpus: NewSources(Source{Name: "room kestrel", Corpus: room, Required: true}, Source{Name: "the web", Corpus: ok})}
	req, _ = rs.NewRequest("How many employees did Kestrel Dynamics have at the end of 2024?", "quick", time.Now())
	if _, err := r.Run(context.Background(), req); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Run with a required source failing = %v; want its NOT_FOUND", err)
	}
}

// TestSourcesMerge: sources' passages alternate rank by rank up to k, and
// the documents a source could not read are limitations, counted past
// ten.
func TestSourcesMerge(t *testing.T) {
	a := &listCorpus{passages: []Passage{sourcePassage("file:///a1", "a1"), sourcePassage("file:///a2", "a2"), sourcePassage("file:///a3", "a3")}}
	b := &pagesCorpus{listCorpus{passages: []Passage{sourcePassage("https://b.example/1", "b1")}}}
	for i := range 12 {
		b.failures = append(b.failures, SourceFailure{Source: fmt.Sprintf("https://b.example/pdf%d", i), Reason: "the page is application/pdf"})
	}
	s := NewSources(Source{Name: "a", Corpus: a}, Source{Name: "b", Corpus: b})
	got, err := s.Search(context.Background(), "q", 3)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, p := range got {
		urls = append(urls, p.URL)
	}
	if strings.Join(urls, " ") != "file:///a1 https://b.example/1 file:///a2" {
		t.Errorf("Search = %v; want a1 b1 a2", urls)
	}
	s.Search(context.Background(), "q", 3) // the same failures again are not new
	if n := len(s.Failures()); n != 12 {
		t.Errorf("%d failures; want the 12 pages once each", n)
	}
	rep := &rs.Report{ExecutiveSummary: "Summary."}
	noteFailures(rep, s)
	if len(rep.Limitations) != 11 || rep.Limitations[0] != "https://b.example/pdf0 was not read: the page is application/pdf." ||
		rep.Limitations[10] != "2 more documents were not read." {
		t.Errorf("limitations %q", rep.Limitations)
	}
	if !strings.HasSuffix(rep.ExecutiveSummary, "12 documents found could not be read; see the limitations.") {
		t.Errorf("summary %q", rep.ExecutiveSummary)
	}
	if _, err := NewSources().Search(context.Background(), "q", 3); err == nil {
		t.Error("Search of no source succeeded")
	}
}

func limitationsHave(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

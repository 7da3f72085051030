package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	research "github.com/quarry-dev/quarry/agent/research"
	vocab "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

// TestWebResearch researches a local web of recorded pages through a
// SearxNG-like search: the planted contradiction is found and resolved
// to the filing's figure, each page is credited by its domain, and the
// PDF and the page robots.txt disallows are limitations, not facts.
func TestWebResearch(t *testing.T) {
	web := websearchtest.Start(t, websearchtest.Kestrel(), true)
	c, err := OpenWebCorpus(WebConfig{SearxNGURL: web.SearchURL(), Transport: web.Transport(), Credibility: map[string]float64{"daytontechblog.example": 0.35}})
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	r := &research.Researcher{Corpus: research.NewSources(research.Source{Name: c.Name(), Corpus: c}),
		Progress: func(s vocab.Stage) { stages = append(stages, string(s.Status)+": "+s.Message) }}
	req, err := vocab.NewRequest(websearchtest.KestrelQuestion, "quick", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run = %v\n%s", err, strings.Join(stages, "\n"))
	}
	var disc *vocab.Discrepancy
	for i := range res.Discrepancies {
		if strings.Contains(res.Discrepancies[i].Topic, "revenue") {
			disc = &res.Discrepancies[i]
		}
	}
	if disc == nil {
		t.Fatalf("no discrepancy about revenue among %+v\n%s", res.Discrepancies, strings.Join(stages, "\n"))
	}
	if !strings.HasPrefix(disc.Preferred, "$46.9 million") {
		t.Errorf("revenue resolved to %q by %s; want $46.9 million", disc.Preferred, disc.Strategy)
	}
	facts := res.FactsByID()
	var sides []string
	for _, s := range disc.Sides {
		sides = append(sides, s.Value)
		for _, id := range s.FactIDs {
			if f := facts[id]; f == nil || !strings.HasPrefix(f.SourceURL, "http://") {
				t.Errorf("side %s cites %+v; want a web page", s.Value, f)
			}
		}
	}
	if !strings.Contains(strings.Join(sides, "|"), "$52.5 million") {
		t.Errorf("sides %v; want the blog's $52.5 million among them", sides)
	}
	// Domains credit their pages; no fact comes from a page not read or
	// from the pages' clutter.
	cred := map[string]float64{}
	for _, s := range res.Sources {
		cred[s.Domain] = s.CredibilityScore
	}
	if cred["sec.gov"] != 0.95 || cred["reuters.com"] != 0.93 || cred["daytontechblog.example"] != 0.35 {
		t.Errorf("credibility by domain %v; want sec.gov 0.95, reuters.com 0.93 and the overridden blog 0.35", cred)
	}
	for _, f := range res.Facts {
		if strings.Contains(f.Text, "$99 million") || strings.Contains(f.SourceURL, ".pdf") || strings.Contains(f.Text, "Subscribe") || strings.Contains(f.Text, "Copyright") {
			t.Errorf("fact %q from %s: a page not read or its clutter", f.Text, f.SourceURL)
		}
	}
	lim := strings.Join(res.Report.Limitations, "\n")
	for _, want := range []string{"kestrel-annual-report.pdf was not read: the page is application/pdf",
		"http://members.example/kestrel-revenue-2024 was not read: the site's robots.txt disallows"} {
		if !strings.Contains(lim, want) {
			t.Errorf("limitations lack %q:\n%s", want, lim)
		}
		if !strings.Contains(strings.Join(stages, "\n"), want) {
			t.Errorf("progress does not tell %q", want)
		}
	}
	if err := res.Validate(); err != nil {
		t.Errorf("result: %v", err)
	}
	// Each query is searched once, each page read once.
	if n := int(web.Fetched.Load()); n > len(web.Pages) {
		t.Errorf("%d page requests for %d pages; want each page once", n, len(web.Pages))
	}
}

// TestWebFailures: a provider that is down, answers garbage or is slower
// than the research's web budget fails the web as a source with the
// reason, and a research over a folder and the web completes without it.
func TestWebFailures(t *testing.T) {
	if _, err := OpenWebCorpus(WebConfig{}); quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), "QUARRY_SEARXNG_URL") ||
		!strings.Contains(err.Error(), "QUARRY_BRAVE_API_KEY") {
		t.Errorf("OpenWebCorpus without a provider = %v; want INVALID naming the settings", err)
	}
	if _, err := OpenWebCorpus(WebConfig{SearxNGURL: "localhost:8888"}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("OpenWebCorpus with a bad URL = %v; want INVALID", err)
	}
	if _, err := OpenWebCorpus(WebConfig{BraveKey: "k", Credibility: map[string]float64{"a.com": 2}}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("OpenWebCorpus with a credibility of 2 = %v; want INVALID", err)
	}
	// SearxNG, self-hosted, comes first; the Brave key otherwise.
	for _, tc := range []struct {
		c    WebConfig
		want string
	}{
		{WebConfig{SearxNGURL: "http://searx.local:8888/", BraveKey: "k"}, "the web (SearxNG at http://searx.local:8888)"},
		{WebConfig{BraveKey: "k"}, "the web (the Brave Search API)"},
		{WebConfig{BraveKey: "k", BraveURL: "http://brave.local/search"}, "the web (the Brave Search API at http://brave.local/search)"},
	} {
		c, err := OpenWebCorpus(tc.c)
		if err != nil {
			t.Errorf("OpenWebCorpus(%+v) = %v", tc.c, err)
		} else if c.Name() != tc.want {
			t.Errorf("OpenWebCorpus(%+v) is named %q; want %q", tc.c, c.Name(), tc.want)
		}
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("\x00\x01 not json")) }))
	defer garbage.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	for _, tc := range []struct {
		name, url, want string
	}{
		{"down", closed.URL, "cannot be reached"},
		{"garbage", garbage.URL, "not its search JSON"},
		{"slow", slow.URL, "took the 300ms one research may spend on it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := OpenWebCorpus(WebConfig{SearxNGURL: tc.url, Budget: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			src := research.NewSources(research.Source{Name: "the folder", Corpus: staticCorpus{}}, research.Source{Name: c.Name(), Corpus: c})
			req, _ := vocab.NewRequest("How many employees did Kestrel Dynamics have at the end of 2024?", "quick", time.Now())
			start := time.Now()
			res, err := (&research.Researcher{Corpus: src}).Run(context.Background(), req)
			if err != nil {
				t.Fatalf("Run = %v; want the research completed from the folder", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the research took %s", d)
			}
			lim := strings.Join(res.Report.Limitations, "\n")
			if !strings.Contains(lim, "Source "+c.Name()+" failed and the research went on without it") || !strings.Contains(lim, tc.want) {
				t.Errorf("limitations %q; want the web's failure with %q", lim, tc.want)
			}
			if len(res.Facts) == 0 {
				t.Error("no facts from the folder")
			}
		})
	}
}

// staticCorpus is a folder of two documents that agree.
type staticCorpus struct{}

func (staticCorpus) Search(ctx context.Context, query string, k int) ([]research.Passage, error) {
	return []research.Passage{
		{URL: "file:///kestrel/10-k.md", Title: "Form 10-K", Text: "Kestrel Dynamics Inc. employed 1,240 people at the end of 2024.", Credibility: 0.9},
		{URL: "file:///kestrel/letter.md", Title: "Letter", Text: "At the end of 2024 Kestrel Dynamics had 1,240 employees.", Credibility: 0.7},
	}[:min(k, 2)], nil
}

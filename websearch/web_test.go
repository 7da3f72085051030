package websearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

func TestCredibility(t *testing.T) {
	c := DefaultCredibility()
	for _, tc := range []struct {
		host string
		want float64
	}{
		{"www.bloomberg.com", 0.95},
		{"https://www.reuters.com/business/x", 0.93},
		{"en.wikipedia.org", 0.85},
		{"www.sec.gov", 0.95},       // the more specific domain wins
		{"data.census.gov", 0.90},   // any government domain
		{"cs.stanford.edu", 0.85},   // any university
		{"kestrel.medium.com", 0.4}, // self-published
		{"daytontechblog.example:8080", DefaultCredibilityScore},
		{"notgov", DefaultCredibilityScore},
	} {
		if got := c.Score(tc.host); got != tc.want {
			t.Errorf("Score(%q) = %v; want %v", tc.host, got, tc.want)
		}
	}
	c2, err := c.With(map[string]float64{"daytontechblog.example": 0.2, ".example": 0.6, "*": 0.3, "Forbes.com": 0.7})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]float64{"daytontechblog.example": 0.2, "news.example": 0.6, "unknown.org": 0.3, "forbes.com": 0.7, "wsj.com": 0.95} {
		if got := c2.Score(host); got != want {
			t.Errorf("overridden Score(%q) = %v; want %v", host, got, want)
		}
	}
	if c.Score("daytontechblog.example") != DefaultCredibilityScore {
		t.Error("With changed the map it was called on")
	}
	for _, bad := range []map[string]float64{{"a.com": 1.5}, {"a.com": -0.1}, {"http://a.com/": 0.5}, {"": 0.5}} {
		if _, err := c.With(bad); quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("With(%v) = %v; want INVALID", bad, err)
		}
	}
	if got := (Credibility{}).Score("wsj.com"); got != DefaultCredibilityScore {
		t.Errorf("zero Credibility scores %v", got)
	}
	path := filepath.Join(t.TempDir(), "cred.json")
	os.WriteFile(path, []byte(`{"kestrel.example": 0.9, ".gov": 1}`), 0o644)
	m, err := ReadCredibility(path)
	if err != nil || m["kestrel.example"] != 0.9 {
		t.Errorf("ReadCredibility = %v, %v", m, err)
	}
	os.WriteFile(path, []byte(`["kestrel.example"]`), 0o644)
	if _, err := ReadCredibility(path); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("ReadCredibility of a list = %v; want INVALID", err)
	}
}

// TestWebRead: a search's pages are read concurrently, within the bound,
// each query and each page once; pages that cannot be read are skips
// with their reasons.
func TestWebRead(t *testing.T) {
	s := &site{}
	pages := s.handler(t)
	var searches, inFlight, maxInFlight atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host == "searx.example" {
			searches.Add(1)
			var results []map[string]any
			for _, u := range []string{"http://a.example/news/article", "http://b.example/news/article", "http://c.example/news/article",
				"http://d.example/news/article", "http://news.example/report.pdf", "http://closed.example/members/article", "http://news.example/slow"} {
				results = append(results, map[string]any{"url": u, "title": "Result " + u, "content": "", "publishedDate": "2025-01-02"})
			}
			json.NewEncoder(w).Encode(map[string]any{"results": results})
			return
		}
		if strings.HasSuffix(r.URL.Path, "/article") {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for {
				m := maxInFlight.Load()
				if n <= m || maxInFlight.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		pages.ServeHTTP(w, r)
	}))
	defer srv.Close()
	p, err := NewSearxNG("http://searx.example")
	if err != nil {
		t.Fatal(err)
	}
	p.Client = &http.Client{Transport: pointAt(srv)}
	web := &Web{Provider: p, Fetcher: &Fetcher{Transport: pointAt(srv), Timeout: 300 * time.Millisecond}, Results: 10, Parallel: 2}
	got, err := web.Read(context.Background(), "kestrel revenue")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pages) != 4 || len(got.Skipped) != 3 {
		t.Fatalf("%d pages and skips %+v; want 4 pages and 3 skips", len(got.Pages), got.Skipped)
	}
	for i, pg := range got.Pages {
		if !strings.Contains(pg.Text, "$46.9 million") || pg.Title != "Kestrel Dynamics restates 2024 revenue" {
			t.Errorf("page %d: %q, %.60q", i, pg.Title, pg.Text)
		}
	}
	wantSkips := []struct{ url, code, reason string }{
		{"http://news.example/report.pdf", quarry.ECodeInvalidFileType, "application/pdf"},
		{"http://closed.example/members/article", quarry.ECodeForbidden, "robots.txt"},
		{"http://news.example/slow", quarry.ECodeUnavailable, "not read within"},
	}
	for i, w := range wantSkips {
		s := got.Skipped[i]
		if s.URL != w.url || s.Code != w.code || !strings.Contains(s.Reason, w.reason) {
			t.Errorf("skip %d = %+v; want %s %s %q", i, s, w.url, w.code, w.reason)
		}
	}
	if m := maxInFlight.Load(); m > 2 {
		t.Errorf("%d pages read at once; want at most Parallel (2)", m)
	}
	// The same query again is answered from memory.
	again, err := web.Read(context.Background(), "kestrel revenue")
	if err != nil || len(again.Pages) != 4 || searches.Load() != 1 {
		t.Errorf("second Read: %d pages, %v, %d searches; want the first Read's, one search", len(again.Pages), err, searches.Load())
	}
	// A deadline shorter than a page takes skips it, and is kept.
	web2 := &Web{Provider: p, Fetcher: &Fetcher{Transport: pointAt(srv)}, Results: 10, Deadline: 400 * time.Millisecond}
	start := time.Now()
	got2, err := web2.Read(context.Background(), "slow pages")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Read took %s past its 400ms deadline", d)
	}
	var slow *Skip
	for i := range got2.Skipped {
		if got2.Skipped[i].URL == "http://news.example/slow" {
			slow = &got2.Skipped[i]
		}
	}
	if slow == nil || !strings.Contains(slow.Reason, "400ms a search may take") {
		t.Errorf("skips %+v; want the slow page skipped at the Read's deadline", got2.Skipped)
	}
}

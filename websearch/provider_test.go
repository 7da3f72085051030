package websearch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

// serveFile answers every request with a recorded file, after check.
func serveFile(t *testing.T, path string, check func(*http.Request)) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		check(r)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSearxNG(t *testing.T) {
	srv := serveFile(t, "testdata/searxng.json", func(r *http.Request) {
		if r.URL.Path != "/searx/search" || r.URL.Query().Get("q") != "Kestrel Dynamics revenue 2024" || r.URL.Query().Get("format") != "json" {
			t.Errorf("request %s; want /searx/search?q=...&format=json", r.URL)
		}
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "Quarry/") {
			t.Errorf("User-Agent %q; want Quarry's", r.Header.Get("User-Agent"))
		}
	})
	p, err := NewSearxNG(srv.URL + "/searx/")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Search(context.Background(), "Kestrel Dynamics revenue 2024", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{URL: "https://www.reuters.com/business/kestrel-dynamics-restates-2024-revenue-2025-04-02/", Title: "Kestrel Dynamics restates 2024 revenue",
			Snippet:   "Kestrel Dynamics Inc. said on Wednesday it would restate its fiscal 2024 revenue to $46.9 million from $48.2 million.",
			Published: time.Date(2025, 4, 2, 14, 5, 0, 0, time.UTC)},
		// The fragment goes, the white space is collapsed, the
		// javascript: URL and the repeated page are dropped.
		{URL: "https://daytontechblog.example/2025/kestrel-numbers", Title: "Kestrel's numbers, again", Snippet: "A look at Kestrel Dynamics and its 2024 results."},
		{URL: "https://www.sec.gov/Archives/edgar/data/0000000/kestrel-10ka.htm", Title: "Form 10-K/A Kestrel Dynamics Inc.",
			Snippet: "Amendment No. 1 to the annual report for fiscal 2024.", Published: time.Date(2025, 3, 28, 0, 0, 0, 0, time.UTC)},
	}
	if len(got) != len(want) {
		t.Fatalf("Search = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d = %+v; want %+v", i, got[i], want[i])
		}
	}
	if got, _ := p.Search(context.Background(), "Kestrel Dynamics revenue 2024", 2); len(got) != 2 {
		t.Errorf("Search(n=2) returned %d results", len(got))
	}
}

func TestBrave(t *testing.T) {
	srv := serveFile(t, "testdata/brave.json", func(r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != "test-key" || r.URL.Query().Get("count") != "5" || r.URL.Query().Get("q") == "" {
			t.Errorf("request %s with token %q; want the key and count=5", r.URL, r.Header.Get("X-Subscription-Token"))
		}
	})
	p, err := NewBrave(srv.URL+"/res/v1/web/search", "test-key")
	if err != nil {
		t.Fatal(err)
	}
	p.Interval = -1
	got, err := p.Search(context.Background(), "Kestrel Dynamics revenue 2024", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("Search = %+v; want 2 results", got)
	}
	if got[0].Snippet != "Kestrel Dynamics Inc. said it would restate its fiscal 2024 revenue to $46.9 million & net income to $2.2 million. The company's auditors found errors in revenue recognition." {
		t.Errorf("snippet %q; want tags stripped, entities read and the extra snippet added", got[0].Snippet)
	}
	if !got[0].Published.Equal(time.Date(2025, 4, 2, 14, 5, 0, 0, time.UTC)) || !got[1].Published.IsZero() {
		t.Errorf("dates %v, %v; want page_age and none", got[0].Published, got[1].Published)
	}
	if _, err := NewBrave("", " "); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("NewBrave without a key: %v; want INVALID", err)
	}
}

// TestProviderFailures: a provider that is down, slow, refuses or
// answers garbage gives a clear error, never a hang.
func TestProviderFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	down := closed.URL
	closed.Close()
	for _, tc := range []struct {
		name    string
		brave   bool
		handler http.HandlerFunc
		url     string
		code    string
		want    string
	}{
		{name: "garbage", handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>Welcome to nginx!</html>")) },
			code: quarry.ECodeUnavailable, want: "not its search JSON"},
		{name: "truncated JSON", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"results": [{"url": "https://a.example/"`))
		},
			code: quarry.ECodeUnavailable, want: "not its search JSON"},
		{name: "JSON of something else", handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status": "ok"}`)) },
			code: quarry.ECodeUnavailable, want: "without a results list"},
		{name: "json format off", handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) },
			code: quarry.ECodeUnavailable, want: "refused a JSON search"},
		{name: "server error", handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) },
			code: quarry.ECodeUnavailable, want: "502"},
		{name: "slow", handler: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}, code: quarry.ECodeUnavailable, want: "did not answer within 200ms"},
		{name: "enormous", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"results": [`))
			chunk := []byte(strings.Repeat(`{"url": "https://a.example/", "title": "a"},`, 1000))
			for range 200 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, code: quarry.ECodeUnavailable, want: "more than 4 MB"},
		{name: "down", url: down, code: quarry.ECodeUnavailable, want: "cannot be reached"},
		{name: "brave key refused", brave: true, handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) },
			code: quarry.ECodeUnauthorized, want: "refused the key"},
		{name: "brave rate limit", brave: true, handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}, code: quarry.ECodeRateLimited, want: "rate limiting"},
		{name: "brave garbage", brave: true, handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"type": "ErrorResponse"}`)) },
			code: quarry.ECodeUnavailable, want: "not a search result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.url
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				base = srv.URL
			}
			var p Provider
			if tc.brave {
				b, err := NewBrave(base, "k")
				if err != nil {
					t.Fatal(err)
				}
				b.Timeout, b.Interval = 200*time.Millisecond, -1
				p = b
			} else {
				s, err := NewSearxNG(base)
				if err != nil {
					t.Fatal(err)
				}
				s.Timeout = 200 * time.Millisecond
				p = s
			}
			start := time.Now()
			_, err := p.Search(context.Background(), "kestrel", 5)
			if quarry.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Search = %v; want %s with %q", err, tc.code, tc.want)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Search took %s; a failing provider must not hold the research", d)
			}
		})
	}
}

func TestProviderSettings(t *testing.T) {
	for _, u := range []string{"", "localhost:8888", "ftp://host/", "http://"} {
		if _, err := NewSearxNG(u); quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("NewSearxNG(%q) = %v; want INVALID", u, err)
		}
	}
	s, _ := NewSearxNG("http://user:secret@searx.local:8888/")
	if strings.Contains(s.Name(), "secret") {
		t.Errorf("Name() = %q shows the password", s.Name())
	}
	if _, err := s.Search(context.Background(), "  ", 5); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Search of an empty query = %v; want INVALID", err)
	}
}

package websearch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
)

// pointAt is a transport that sends every request, whatever its host, to
// srv: one local server plays many sites.
func pointAt(srv *httptest.Server) http.RoundTripper {
	addr := srv.Listener.Addr().String()
	return &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
}

// site is a local web site of recorded pages, with counters.
type site struct {
	robotsReads atomic.Int32
	streamed    atomic.Int64
}

func (s *site) handler(t *testing.T) http.Handler {
	article, err := os.ReadFile("testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		s.robotsReads.Add(1)
		switch r.Host {
		case "closed.example":
			w.Write([]byte("User-agent: *\nDisallow: /private/\n\nUser-agent: Quarry\nDisallow: /members/\nDisallow: /private/\n"))
		case "broken.example":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r) // no robots.txt: everything allowed
		}
	})
	mux.HandleFunc("/news/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(article)
	})
	mux.HandleFunc("/members/article", func(w http.ResponseWriter, r *http.Request) { w.Write(article) })
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"))
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("Kestrel Dynamics opened its plant in Springfield in 2025.\r\nCaf\xe9 and M\xfcller were there.\r\n"))
	})
	// 100 MB of HTML without a length, as a stream: the fetcher must
	// stop at its limit.
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><p>"))
		chunk := []byte(strings.Repeat("Kestrel Dynamics revenue was $46.9 million. ", 1000))
		for s.streamed.Load() < 100<<20 {
			n, err := w.Write(chunk)
			s.streamed.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/declared-huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", "104857600")
		w.Write([]byte("<html>"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><p>The first words"))
		w.(http.Flusher).Flush()
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://closed.example/private/article", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><nav><a href=/>Home</a></nav></body></html>"))
	})
	return mux
}

func newSite(t *testing.T) (*site, *httptest.Server) {
	s := &site{}
	srv := httptest.NewServer(s.handler(t))
	t.Cleanup(srv.Close)
	return s, srv
}

// TestFetchArticle: readability keeps the article and leaves out the
// navigation, the sidebar, the ads and the footer.
func TestFetchArticle(t *testing.T) {
	_, srv := newSite(t)
	f := &Fetcher{Transport: pointAt(srv)}
	p, err := f.Fetch(context.Background(), "http://news.example/news/article#top")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Revenue for fiscal 2024 was $46.9 million", "Net income was restated to $2.2 million", "employed 1,240 people"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, p.Text)
		}
	}
	for _, clutter := range []string{"Subscribe", "Sign in", "Most read", "Advertisement", "gadgets", "Copyright", "analytics", "display:flex"} {
		if strings.Contains(p.Text, clutter) {
			t.Errorf("text holds clutter %q:\n%s", clutter, p.Text)
		}
	}
	if !strings.Contains(p.Text, "contracts.\n\nRevenue") {
		t.Errorf("paragraphs are not kept apart:\n%s", p.Text)
	}
	if p.Title != "Kestrel Dynamics restates 2024 revenue" || p.SiteName != "Business Wire Daily" || p.URL != "http://news.example/news/article" {
		t.Errorf("title %q, site %q, URL %q", p.Title, p.SiteName, p.URL)
	}
	if !p.Published.Equal(time.Date(2025, 4, 2, 14, 5, 0, 0, time.UTC)) {
		t.Errorf("published %v; want the page's article:published_time", p.Published)
	}
}

// TestFetchLimits: every limit gives a reason, and none reads more than
// it must.
func TestFetchLimits(t *testing.T) {
	s, srv := newSite(t)
	f := &Fetcher{Transport: pointAt(srv), MaxBytes: 256 << 10, Timeout: 500 * time.Millisecond, MaxRedirects: 3}
	for _, tc := range []struct {
		url, code, want string
	}{
		{"http://news.example/huge", quarry.ECodeFileTooLarge, "larger than the 256 KB limit"},
		{"http://news.example/declared-huge", quarry.ECodeFileTooLarge, "it was not read"},
		{"http://news.example/report.pdf", quarry.ECodeInvalidFileType, "application/pdf"},
		{"http://closed.example/members/article", quarry.ECodeForbidden, "robots.txt disallows /members/article for Quarry"},
		{"http://closed.example/private/article?id=1", quarry.ECodeForbidden, "robots.txt disallows /private/article?id=1"},
		{"http://news.example/moved", quarry.ECodeForbidden, "robots.txt disallows"},
		{"http://broken.example/news/article", quarry.ECodeForbidden, "disallows"},
		{"http://news.example/slow", quarry.ECodeUnavailable, "not read within 500ms"},
		{"http://news.example/loop", quarry.ECodeUnavailable, "more than 3 redirects"},
		{"http://news.example/missing", quarry.ECodeNotFound, "404"},
		{"http://news.example/empty", quarry.ECodeEmptyFile, "no main text"},
		{"ftp://news.example/file", quarry.ECodeInvalid, "not an http(s) URL"},
	} {
		start := time.Now()
		_, err := f.Fetch(context.Background(), tc.url)
		if quarry.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Fetch(%s) = %v; want %s with %q", tc.url, err, tc.code, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Fetch(%s) took %s", tc.url, d)
		}
	}
	// The 100 MB stream was cut off near the limit: what the server
	// managed to write is the limit plus the sockets' buffers.
	if n := s.streamed.Load(); n > 32<<20 {
		t.Errorf("the server wrote %d MB of the 100 MB page before the fetcher stopped; want it stopped near 256 KB", n>>20)
	}
	// What robots.txt allows is read, and each robots.txt once.
	if _, err := f.Fetch(context.Background(), "http://closed.example/news/article"); err != nil {
		t.Errorf("an allowed page: %v", err)
	}
	if n := s.robotsReads.Load(); n != 3 {
		t.Errorf("robots.txt read %d times for 3 sites; want once per site", n)
	}
	// A text page in Latin-1 is read as UTF-8.
	p, err := f.Fetch(context.Background(), "http://news.example/notes.txt")
	if err != nil || !strings.Contains(p.Text, "Café and Müller") || strings.Contains(p.Text, "\r") {
		t.Errorf("text page: %+v, %v", p, err)
	}
}

// TestFetchPrivate: without AllowPrivate, a search result cannot make
// Quarry read a loopback address.
func TestFetchPrivate(t *testing.T) {
	_, srv := newSite(t)
	_, err := (&Fetcher{}).Fetch(context.Background(), srv.URL+"/news/article")
	if quarry.ErrorCode(err) != quarry.ECodeForbidden || !strings.Contains(err.Error(), "QUARRY_WEB_ALLOW_PRIVATE") {
		t.Errorf("Fetch of a loopback page = %v; want FORBIDDEN naming the setting", err)
	}
	if _, err := (&Fetcher{AllowPrivate: true}).Fetch(context.Background(), srv.URL+"/news/article"); err != nil {
		t.Errorf("with AllowPrivate: %v", err)
	}
}

// TestPublicAddr: only ordinary public hosts pass, whatever form the
// address takes; ranges that a gateway turns into another (maybe
// private) IPv4 address are refused.
func TestPublicAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.215.14":        true,
		"2606:4700:4700::1111": true,
		"::ffff:93.184.215.14": true,
		"127.0.0.1":            false,
		"10.1.2.3":             false,
		"172.16.0.1":           false,
		"192.168.1.1":          false,
		"169.254.169.254":      false,
		"100.64.0.1":           false,
		"0.0.0.0":              false,
		"0.1.2.3":              false,
		"192.0.0.8":            false,
		"192.0.2.1":            false,
		"198.18.0.1":           false,
		"203.0.113.9":          false,
		"224.0.0.1":            false,
		"240.0.0.1":            false,
		"255.255.255.255":      false,
		"::1":                  false,
		"::":                   false,
		"::127.0.0.1":          false, // IPv4-compatible
		"::ffff:127.0.0.1":     false, // IPv4-mapped
		"::ffff:10.0.0.1":      false,
		"64:ff9b::a00:1":       false, // NAT64 of 10.0.0.1
		"64:ff9b::5db8:d70e":   false, // NAT64, even of a public address
		"64:ff9b:1::1":         false,
		"2002:7f00:1::1":       false, // 6to4 of 127.0.0.1
		"2001:0:4136:e378::1":  false, // Teredo
		"2001:db8::1":          false,
		"fc00::1":              false,
		"fd12:3456::1":         false,
		"fe80::1":              false,
		"fec0::1":              false,
		"ff02::1":              false,
		"100::1":               false,
		"3fff::1":              false,
	} {
		if got := publicAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("publicAddr(%s) = %v, want %v", addr, got, want)
		}
	}
}

// TestTransportNoProxy: pages are dialled directly, never through a
// proxy named by the environment, which would dial after the address
// check.
func TestTransportNoProxy(t *testing.T) {
	for _, allow := range []bool{false, true} {
		if newTransport(allow).Proxy != nil {
			t.Errorf("newTransport(%v) uses a proxy from the environment", allow)
		}
	}
}

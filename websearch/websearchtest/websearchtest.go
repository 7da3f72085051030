// Package websearchtest is a local web for tests: a SearxNG-compatible
// JSON search and the pages its results point to, served by one httptest
// server, so that research over the web is tested without the network.
// Kestrel's pages hold a planted contradiction about one company's
// revenue, a PDF and a page that robots.txt disallows.
package websearchtest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Page is one recorded page of the local web.
type Page struct {
	// Host is the site the page is on ("www.sec.gov"); it matters only
	// on a web of virtual hosts (see Start).
	Host string
	// Path is the page's path, unique in the web.
	Path        string
	Title       string
	ContentType string // default text/html; charset=utf-8
	Body        string
	// Published is the search result's publishedDate ("" for null).
	Published string
	// Disallowed pages are disallowed for Quarry by their site's
	// robots.txt.
	Disallowed bool
}

// Web is the local web.
type Web struct {
	*httptest.Server
	Pages   []Page
	virtual bool
	// Searches counts the searches asked.
	Searches atomic.Int32
	// Fetched counts the page requests, robots.txt aside.
	Fetched atomic.Int32
}

// Start serves pages. On a web of virtual hosts, results name each page
// at http://HOST/PATH, and Transport must carry the requests (every host
// is this server); otherwise they name it at the server's own address,
// which any client reaches.
func Start(t testing.TB, pages []Page, virtual bool) *Web {
	t.Helper()
	w := &Web{Pages: pages, virtual: virtual}
	w.Server = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.Close)
	return w
}

// SearchURL is the base URL of the SearxNG-compatible search.
func (w *Web) SearchURL() string { return w.URL }

// Transport sends every request, whatever its host, to the server.
func (w *Web) Transport() http.RoundTripper {
	addr := w.Listener.Addr().String()
	return &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
}

// URLOf is the URL the search gives for p.
func (w *Web) URLOf(p Page) string {
	if w.virtual {
		return "http://" + p.Host + p.Path
	}
	return w.URL + p.Path
}

func (w *Web) serve(rw http.ResponseWriter, r *http.Request) {
	host := r.Host
	own := !w.virtual || host == w.Listener.Addr().String()
	switch {
	case r.URL.Path == "/search" && own:
		w.Searches.Add(1)
		if r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") == "" {
			http.Error(rw, "json format and a query, please", http.StatusForbidden)
			return
		}
		var results []map[string]any
		for _, p := range w.Pages {
			var published any
			if p.Published != "" {
				published = p.Published
			}
			results = append(results, map[string]any{"url": w.URLOf(p), "title": p.Title, "content": snippet(p.Body),
				"engine": "local", "publishedDate": published})
		}
		rw.Header().Set("Content-Type", "application/json")
		json.NewEncoder(rw).Encode(map[string]any{"query": r.URL.Query().Get("q"), "results": results})
		return
	case r.URL.Path == "/robots.txt":
		var b strings.Builder
		b.WriteString("User-agent: *\nAllow: /\n\nUser-agent: Quarry\n")
		for _, p := range w.Pages {
			if p.Disallowed && (!w.virtual || p.Host == host) {
				b.WriteString("Disallow: " + p.Path + "\n")
			}
		}
		rw.Header().Set("Content-Type", "text/plain")
		rw.Write([]byte(b.String()))
		return
	}
	for _, p := range w.Pages {
		if p.Path == r.URL.Path && (!w.virtual || p.Host == host) {
			w.Fetched.Add(1)
			ct := p.ContentType
			if ct == "" {
				ct = "text/html; charset=utf-8"
			}
			rw.Header().Set("Content-Type", ct)
			rw.Write([]byte(p.Body))
			return
		}
	}
	http.NotFound(rw, r)
}

// snippet is the first words of a page's text, as a search shows them.
func snippet(body string) string {
	var b strings.Builder
	in := false
	for _, r := range body {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	s := []rune(strings.Join(strings.Fields(b.String()), " "))
	return string(s[:min(len(s), 160)])
}

package websearch

import (
	"bytes"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkResults holds every parser's promise: at most n results, each an
// absolute http(s) URL without a fragment, once.
func checkResults(t *testing.T, rs []Result, n int) {
	t.Helper()
	if len(rs) > n {
		t.Fatalf("%d results; asked for %d", len(rs), n)
	}
	seen := map[string]bool{}
	for _, r := range rs {
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || seen[r.URL] {
			t.Fatalf("result URL %q", r.URL)
		}
		seen[r.URL] = true
	}
}

func FuzzParseSearxNG(f *testing.F) {
	fuzzParser(f, "SearxNG", parseSearxNG, "testdata/searxng.json",
		`{"results": [{"url": "http://a.example/#x", "publishedDate": "2024-13-45"}]}`,
		`<html>`)
}

func FuzzParseBrave(f *testing.F) {
	fuzzParser(f, "Brave", parseBrave, "testdata/brave.json",
		`{"type": "search", "web": {"results": [{"url": "https://a.example", "description": "<b>x</b> &amp; <"}]}}`)
}

// fuzzParser fuzzes a provider's parser, seeded with its recorded answer
// (file) and seeds: whatever it parses without an error keeps
// checkResults' promise.
func fuzzParser(f *testing.F, name string, parse func(name string, body []byte, n int) ([]Result, error), file string, seeds ...string) {
	if b, err := os.ReadFile(file); err == nil {
		f.Add(b)
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := parse(name, body, 5)
		if err == nil {
			checkResults(t, rs, 5)
		}
	})
}

// FuzzExtract: any HTML gives text or an error, never a panic, and the
// text is valid UTF-8 without runs of blank lines.
func FuzzExtract(f *testing.F) {
	if b, err := os.ReadFile("testdata/article.html"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`<html><body><article><p>` + strings.Repeat("word ", 200) + `</p></article></body></html>`))
	f.Add([]byte(`<p><p><p><table><tr><td>`))
	u, _ := url.Parse("http://news.example/a")
	f.Fuzz(func(t *testing.T, body []byte) {
		var p Page
		if err := extract(bytes.NewReader(body), u, &p); err != nil {
			return
		}
		if !utf8.ValidString(p.Text) || strings.Contains(p.Text, "\n\n\n") {
			t.Fatalf("text %q", p.Text)
		}
	})
}

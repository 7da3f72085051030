// Package websearch is the web as a source: a search provider (a
// SearxNG instance, self-hosted or not, or the Brave Search API) finds
// pages, a Fetcher reads them within limits (size, time, robots.txt,
// content types, redirects, private addresses) and extracts their main
// text with a readability library (codeberg.org/readeck/go-readability),
// and a Credibility map scores their domains (the research data model's
// heuristic, configurable).
//
// Nothing here is required: Quarry works offline, and the web is read
// only when a provider is configured. Every failure is an error with a
// code (UNAVAILABLE for a provider that is down, slow or answers
// garbage, UNAUTHORIZED for a refused key, RATE_LIMITED) or, for one
// page, a Skip that says why the page was not read.
package websearch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// UserAgent names Quarry to search providers and web sites; robots.txt
// rules for "Quarry" apply to it.
const UserAgent = "Quarry/1.0 (research agent; +https://github.com/quarry-dev/quarry)"

// robotsAgent is the product token robots.txt groups are matched by.
const robotsAgent = "Quarry"

// Result is one hit of a search.
type Result struct {
	URL   string
	Title string
	// Snippet is the provider's excerpt of the page.
	Snippet string
	// Published is the page's date when the provider knows it.
	Published time.Time
}

// Provider is a web search engine.
type Provider interface {
	// Name says which provider this is and where, for messages
	// ("SearxNG at http://localhost:8888").
	Name() string
	// Search returns at most n results for query, best first. Errors:
	// UNAVAILABLE for a provider that cannot be reached, is slower than
	// its timeout, fails or answers something that is not its JSON;
	// UNAUTHORIZED for a refused key; RATE_LIMITED; INVALID for an empty
	// query.
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// DefaultProviderTimeout bounds one request to a search provider.
const DefaultProviderTimeout = 15 * time.Second

// maxProviderBytes bounds a provider's answer: a page of results is a
// few tens of kilobytes.
const maxProviderBytes = 4 << 20

// getJSON sends req (a provider's search) and returns its body, read up
// to maxProviderBytes, after checking the status. name is the provider's
// Name for messages.
func getJSON(ctx context.Context, client *http.Client, timeout time.Duration, name string, req *http.Request) ([]byte, error) {
	if timeout <= 0 {
		timeout = DefaultProviderTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req = req.WithContext(ctx)
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json")
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, requestError(ctx, name, timeout, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProviderBytes+1))
	if err != nil {
		return nil, requestError(ctx, name, timeout, err)
	}
	if len(body) > maxProviderBytes {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "%s answered more than %d MB; a page of results is far smaller", name, maxProviderBytes>>20)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, quarry.Errorf(quarry.ECodeUnauthorized, "%s refused the request (%s)", name, resp.Status)
	case resp.StatusCode == http.StatusTooManyRequests:
		e := quarry.Errorf(quarry.ECodeRateLimited, "%s is rate limiting Quarry (%s)", name, resp.Status)
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			e = e.WithHint("retry after " + ra + " seconds")
		}
		return nil, e
	case resp.StatusCode != http.StatusOK:
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "%s answered %s", name, resp.Status)
	}
	return body, nil
}

// requestError describes a request that got no answer.
func requestError(ctx context.Context, name string, timeout time.Duration, err error) error {
	var ne net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return quarry.Errorf(quarry.ECodeUnavailable, "%s did not answer within %s", name, timeout)
	case ctx.Err() != nil:
		return quarry.Errorf(quarry.ECodeUnavailable, "search stopped: %v", ctx.Err())
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return quarry.Errorf(quarry.ECodeUnavailable, "%s cannot be reached: %w", name, err)
}

// baseURL checks a provider's configured URL.
func baseURL(setting, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s %q is not an http(s) URL", setting, raw)
	}
	return u, nil
}

// parseDate reads the dates providers give: RFC 3339, with or without a
// zone or a time, or a bare date.
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// checkQuery refuses an empty query before a provider is asked.
func checkQuery(query string, n int) error {
	if strings.TrimSpace(query) == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "a web search needs a query")
	}
	if n <= 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "a web search needs a positive number of results, not %d", n)
	}
	return nil
}

// garbage is the error for an answer that is not the provider's JSON.
func garbage(name string, err error) error {
	return quarry.Errorf(quarry.ECodeUnavailable, "%s answered something that is not its search JSON: %s", name, shorten(err.Error(), 120))
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}

// cleanText collapses the white space of a provider's title or snippet.
func cleanText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// validResults keeps results whose URL is an absolute http(s) URL, without
// its fragment, and each URL once.
func validResults(in []Result, n int) []Result {
	out := make([]Result, 0, min(len(in), n))
	seen := map[string]bool{}
	for _, r := range in {
		u, err := url.Parse(strings.TrimSpace(r.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		u.Fragment = ""
		r.URL = u.String()
		if seen[r.URL] {
			continue
		}
		seen[r.URL] = true
		r.Title, r.Snippet = cleanText(r.Title), cleanText(r.Snippet)
		out = append(out, r)
		if len(out) == n {
			break
		}
	}
	return out
}

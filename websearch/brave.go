package websearch

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
)

// BraveURL is the Brave Search API's web search endpoint.
const BraveURL = "https://api.search.brave.com/res/v1/web/search"

// braveMaxCount is the most results Brave returns for one request.
const braveMaxCount = 20

// Brave is the Brave Search API (a hosted search index with its own key,
// sent as X-Subscription-Token).
type Brave struct {
	endpoint *url.URL
	key      string
	// Client sends the requests; nil is http.DefaultClient.
	Client *http.Client
	// Timeout bounds one search; default DefaultProviderTimeout.
	Timeout time.Duration
	// Interval is the least time between two requests: Brave's free
	// plan answers one request a second and refuses the rest (429).
	// Default one second; negative for none.
	Interval time.Duration

	mu   sync.Mutex
	last time.Time
}

var _ Provider = (*Brave)(nil)

// NewBrave returns the Brave Search API at endpoint (BraveURL when empty)
// with key. Errors: INVALID for a missing key or an endpoint that is not
// an http(s) URL.
func NewBrave(endpoint, key string) (*Brave, error) {
	if strings.TrimSpace(key) == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the Brave Search API needs a key")
	}
	if endpoint == "" {
		endpoint = BraveURL
	}
	u, err := baseURL("the Brave Search API URL", endpoint)
	if err != nil {
		return nil, err
	}
	u.RawQuery, u.Fragment = "", ""
	return &Brave{endpoint: u, key: strings.TrimSpace(key)}, nil
}

// Name implements Provider.
func (b *Brave) Name() string {
	if b.endpoint.String() == BraveURL {
		return "the Brave Search API"
	}
	return "the Brave Search API at " + b.endpoint.Redacted()
}

// braveAnswer is the part of Brave's JSON that Quarry reads.
type braveAnswer struct {
	Type string `json:"type"`
	Web  *struct {
		Results []struct {
			URL           string   `json:"url"`
			Title         string   `json:"title"`
			Description   string   `json:"description"`
			PageAge       string   `json:"page_age"`
			ExtraSnippets []string `json:"extra_snippets"`
		} `json:"results"`
	} `json:"web"`
}

// Search implements Provider.
func (b *Brave) Search(ctx context.Context, query string, n int) ([]Result, error) {
	if err := checkQuery(query, n); err != nil {
		return nil, err
	}
	if err := b.wait(ctx); err != nil {
		return nil, err
	}
	u := *b.endpoint
	u.RawQuery = url.Values{"q": {query}, "count": {strconv.Itoa(min(n, braveMaxCount))}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "Brave Search API URL: %w", err)
	}
	req.Header.Set("X-Subscription-Token", b.key)
	body, err := getJSON(ctx, b.Client, b.Timeout, b.Name(), req)
	if quarry.ErrorCode(err) == quarry.ECodeUnauthorized {
		return nil, quarry.Errorf(quarry.ECodeUnauthorized, "%s refused the key", b.Name()).WithHint("check QUARRY_BRAVE_API_KEY")
	}
	if err != nil {
		return nil, err
	}
	return parseBrave(b.Name(), body, n)
}

// parseBrave reads at most n results from a Brave Search API answer.
func parseBrave(name string, body []byte, n int) ([]Result, error) {
	var a braveAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, garbage(name, err)
	}
	if a.Type != "search" {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "%s answered JSON that is not a search result (type %q)", name, shorten(a.Type, 40))
	}
	if a.Web == nil {
		return []Result{}, nil // no web results for this query
	}
	out := make([]Result, 0, len(a.Web.Results))
	for _, r := range a.Web.Results {
		snippet := r.Description
		if len(r.ExtraSnippets) > 0 {
			snippet += " " + strings.Join(r.ExtraSnippets, " ")
		}
		out = append(out, Result{URL: r.URL, Title: r.Title, Snippet: stripTags(snippet), Published: parseDate(r.PageAge)})
	}
	return validResults(out, n), nil
}

// wait keeps Interval between requests.
func (b *Brave) wait(ctx context.Context) error {
	interval := b.Interval
	if interval == 0 {
		interval = time.Second
	}
	b.mu.Lock()
	next := b.last.Add(interval)
	now := time.Now()
	if next.Before(now) || interval < 0 {
		next = now
	}
	b.last = next
	b.mu.Unlock()
	if d := time.Until(next); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return quarry.Errorf(quarry.ECodeUnavailable, "search stopped: %v", ctx.Err())
		}
	}
	return nil
}

// stripTags removes the <strong> marks Brave puts around matched words
// and reads its entities (&#x27;).
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}

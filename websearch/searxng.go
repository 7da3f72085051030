package websearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// SearxNG is a SearxNG instance's JSON API (GET {base}/search?q=...&
// format=json), or anything that answers like it. The instance must allow
// the json format (search.formats in its settings.yml); one that does not
// answers 403, which is reported with that hint.
type SearxNG struct {
	base *url.URL
	// Client sends the requests; nil is http.DefaultClient.
	Client *http.Client
	// Timeout bounds one search; default DefaultProviderTimeout.
	Timeout time.Duration
}

var _ Provider = (*SearxNG)(nil)

// NewSearxNG returns the instance at base (http://localhost:8888, or a
// path under which it is served). Errors: INVALID for a base that is not
// an http(s) URL.
func NewSearxNG(base string) (*SearxNG, error) {
	u, err := baseURL("the SearxNG URL", base)
	if err != nil {
		return nil, err
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return &SearxNG{base: u}, nil
}

// Name implements Provider.
func (s *SearxNG) Name() string { return "SearxNG at " + s.base.Redacted() }

// searxngAnswer is the part of SearxNG's JSON that Quarry reads.
type searxngAnswer struct {
	Results *[]struct {
		URL           string  `json:"url"`
		Title         string  `json:"title"`
		Content       string  `json:"content"`
		PublishedDate *string `json:"publishedDate"`
	} `json:"results"`
}

// Search implements Provider.
func (s *SearxNG) Search(ctx context.Context, query string, n int) ([]Result, error) {
	if err := checkQuery(query, n); err != nil {
		return nil, err
	}
	u := *s.base
	u.Path += "/search"
	u.RawQuery = url.Values{"q": {query}, "format": {"json"}, "safesearch": {"0"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "SearxNG URL: %w", err)
	}
	body, err := getJSON(ctx, s.Client, s.Timeout, s.Name(), req)
	if quarry.ErrorCode(err) == quarry.ECodeUnauthorized {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "%s refused a JSON search", s.Name()).
			WithHint("allow it: add json to search.formats in the instance's settings.yml")
	}
	if err != nil {
		return nil, err
	}
	return parseSearxNG(s.Name(), body, n)
}

// parseSearxNG reads at most n results from a SearxNG answer.
func parseSearxNG(name string, body []byte, n int) ([]Result, error) {
	var a searxngAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, garbage(name, err)
	}
	if a.Results == nil {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "%s answered JSON without a results list", name)
	}
	out := make([]Result, 0, len(*a.Results))
	for _, r := range *a.Results {
		res := Result{URL: r.URL, Title: r.Title, Snippet: r.Content}
		if r.PublishedDate != nil {
			res.Published = parseDate(*r.PublishedDate)
		}
		out = append(out, res)
	}
	return validResults(out, n), nil
}

package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	research "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/internal/tokens"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/websearch"
)

// The web as a research source (quarry research --web): a search
// provider finds pages for each of the research's searches, the pages
// are read within websearch's limits, cut into passages the way room
// pages are (retrieve.ChunkPage), and the passages that best match the
// search are returned, credited by their domain (websearch.Credibility).
// A page that cannot be read is a failure of that page, named in the
// report's limitations; a provider that fails makes the web fail as a
// source (research.Sources leaves it out and says so). The web is never
// required: without a provider nothing here is opened.

// WebSettings names the settings that configure a provider, for
// messages.
const WebSettings = "QUARRY_SEARXNG_URL (a SearxNG instance with its JSON format on) or QUARRY_BRAVE_API_KEY (the Brave Search API)"

// DefaultWebBudget is how long the web may take over one research.
const DefaultWebBudget = 3 * time.Minute

// WebConfig says where the web's pages come from.
type WebConfig struct {
	// SearxNGURL is a SearxNG instance; it is used when set.
	SearxNGURL string
	// BraveKey is a Brave Search API key, used when SearxNGURL is not
	// set; BraveURL is its endpoint (default websearch.BraveURL).
	BraveKey, BraveURL string
	// Credibility adds to or overrides the domain map (see
	// websearch.Credibility.With).
	Credibility map[string]float64
	// AllowPrivate lets pages on private and loopback addresses be read.
	AllowPrivate bool
	// Budget bounds the time the web takes over one research; default
	// DefaultWebBudget. Past it the web fails as a source.
	Budget time.Duration
	// Transport, when set, carries the provider's and the pages'
	// requests (tests).
	Transport http.RoundTripper
}

// Configured reports whether a search provider is set.
func (c WebConfig) Configured() bool {
	return strings.TrimSpace(c.SearxNGURL) != "" || strings.TrimSpace(c.BraveKey) != ""
}

// Provider returns the configured search provider. Errors: INVALID when
// none is configured (naming the settings) or its URL is not http(s).
func (c WebConfig) Provider() (websearch.Provider, error) {
	var client *http.Client
	if c.Transport != nil {
		client = &http.Client{Transport: c.Transport}
	}
	switch {
	case strings.TrimSpace(c.SearxNGURL) != "":
		p, err := websearch.NewSearxNG(c.SearxNGURL)
		if err != nil {
			return nil, err
		}
		p.Client = client
		return p, nil
	case strings.TrimSpace(c.BraveKey) != "":
		p, err := websearch.NewBrave(c.BraveURL, c.BraveKey)
		if err != nil {
			return nil, err
		}
		p.Client = client
		return p, nil
	}
	return nil, quarry.Errorf(quarry.ECodeInvalid, "no web search provider is configured").
		WithHint("set " + WebSettings + "; see 'quarry help config'")
}

// WebCorpus is the web as a research corpus. It is meant for one
// research: it remembers the searches, pages and failures of it.
type WebCorpus struct {
	web    *websearch.Web
	cred   websearch.Credibility
	name   string
	budget time.Duration

	mu       sync.Mutex
	deadline time.Time
	chunks   map[string][]string
	failures []research.SourceFailure
	failed   map[string]bool
}

var _ research.FailingCorpus = (*WebCorpus)(nil)

// OpenWebCorpus returns the web as a research corpus. Nothing is
// requested until its first search. Errors: INVALID when no provider is
// configured, for a URL that is not http(s) and for a credibility score
// outside 0-1.
func OpenWebCorpus(c WebConfig) (*WebCorpus, error) {
	p, err := c.Provider()
	if err != nil {
		return nil, err
	}
	cred, err := websearch.DefaultCredibility().With(c.Credibility)
	if err != nil {
		return nil, err
	}
	budget := c.Budget
	if budget <= 0 {
		budget = DefaultWebBudget
	}
	f := &websearch.Fetcher{AllowPrivate: c.AllowPrivate, Transport: c.Transport}
	return &WebCorpus{web: &websearch.Web{Provider: p, Fetcher: f}, cred: cred, name: "the web (" + p.Name() + ")", budget: budget,
		chunks: map[string][]string{}, failed: map[string]bool{}}, nil
}

// Name names the source for messages: "the web (SearxNG at ...)".
func (c *WebCorpus) Name() string { return c.name }

// maxChunksPerPage keeps one long page from taking every place of a
// search.
const maxChunksPerPage = 3

// Search implements research.Corpus: the passages of the pages found for
// query that share most of its words, at most maxChunksPerPage a page.
// Errors: the provider's (UNAVAILABLE, UNAUTHORIZED, RATE_LIMITED), and
// UNAVAILABLE once the research's web budget is spent.
func (c *WebCorpus) Search(ctx context.Context, query string, k int) ([]research.Passage, error) {
	c.mu.Lock()
	if c.deadline.IsZero() {
		c.deadline = time.Now().Add(c.budget)
	}
	deadline := c.deadline
	c.mu.Unlock()
	spent := quarry.Errorf(quarry.ECodeUnavailable, "the web took the %s one research may spend on it", c.budget)
	if time.Now().After(deadline) {
		return nil, spent
	}
	bctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	reading, err := c.web.Read(bctx, query)
	if err != nil {
		if ctx.Err() == nil && errors.Is(bctx.Err(), context.DeadlineExceeded) {
			return nil, spent
		}
		return nil, err
	}
	c.mu.Lock()
	for _, s := range reading.Skipped {
		if !c.failed[s.URL] {
			c.failed[s.URL] = true
			c.failures = append(c.failures, research.SourceFailure{Source: s.URL, Reason: s.Reason})
		}
	}
	c.mu.Unlock()
	return c.rank(query, reading.Pages, k), nil
}

// Failures implements research.FailingCorpus: the pages not read.
func (c *WebCorpus) Failures() []research.SourceFailure {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]research.SourceFailure(nil), c.failures...)
}

// webChunk is one passage of a page, scored for a search.
type webChunk struct {
	page, n, of int
	text        string
	words       []string
	score       float64
}

// rank cuts the pages into passages and returns the k that share most of
// query's words (weighted by how rare each is among the passages, and a
// little by the page's rank in the search).
func (c *WebCorpus) rank(query string, pages []websearch.Page, k int) []research.Passage {
	terms := retrieve.Expand(retrieve.Terms(query))
	var all []*webChunk
	for i, p := range pages {
		texts := c.chunksOf(p)
		for j, t := range texts {
			all = append(all, &webChunk{page: i, n: j + 1, of: len(texts), text: t, words: retrieve.Words(t)})
		}
	}
	df := map[string]int{}
	for _, ch := range all {
		seen := map[string]bool{}
		for _, t := range terms {
			if !seen[t] && countTerm(ch.words, t) > 0 {
				seen[t] = true
				df[t]++
			}
		}
	}
	var hits []*webChunk
	for _, ch := range all {
		for _, t := range terms {
			if tf := float64(countTerm(ch.words, t)); tf > 0 {
				idf := math.Log(1 + float64(len(all))/float64(df[t]))
				ch.score += idf * tf / (tf + 1.2)
			}
		}
		if ch.score > 0 {
			ch.score += 0.1 / float64(1+ch.page)
			hits = append(hits, ch)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]research.Passage, 0, min(k, len(hits)))
	perPage := map[int]int{}
	for _, ch := range hits {
		if len(out) == k {
			break
		}
		if perPage[ch.page] == maxChunksPerPage {
			continue
		}
		perPage[ch.page]++
		p := pages[ch.page]
		url := p.FinalURL
		if ch.of > 1 {
			url += fmt.Sprintf("#chunk=%d", ch.n)
		}
		domain := websearch.Domain(p.FinalURL)
		published := p.Published
		if published.IsZero() {
			published = research.DescribeDocument(p.FinalURL, p.Title, p.Text).Published
		}
		out = append(out, research.Passage{URL: url, Title: p.Title, Text: ch.text, Domain: domain,
			Credibility: c.cred.Score(domain), Published: published, Score: ch.score})
	}
	return out
}

// chunksOf cuts a page's text into passages, once per page.
func (c *WebCorpus) chunksOf(p websearch.Page) []string {
	c.mu.Lock()
	texts, ok := c.chunks[p.FinalURL]
	c.mu.Unlock()
	if ok {
		return texts
	}
	for _, ch := range retrieve.ChunkPage(p.Text, retrieve.ChunkOptions{Count: tokens.Count}) {
		texts = append(texts, ch.Content())
	}
	c.mu.Lock()
	c.chunks[p.FinalURL] = texts
	c.mu.Unlock()
	return texts
}

// countTerm counts the words that are term or a form of it ("employees"
// counts "employed" and "employee"; "revenue" counts "revenues").
func countTerm(words []string, term string) int {
	stem := term
	if r := []rune(term); len(r) >= 6 {
		stem = string(r[:len(r)-2])
	}
	n := 0
	for _, w := range words {
		if w == term || (stem != term && strings.HasPrefix(w, stem)) {
			n++
		}
	}
	return n
}

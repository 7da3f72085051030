package websearch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
)

// Defaults of a Web.
const (
	DefaultResults  = 6
	DefaultParallel = 4
	DefaultDeadline = 45 * time.Second
)

// Web searches with a Provider and reads the pages found with a Fetcher.
// It asks each query once and reads each page once (a research asks the
// same things several times), and is safe for concurrent use. Set the
// fields before the first Read.
type Web struct {
	Provider Provider
	Fetcher  *Fetcher
	// Results is how many results each search asks for and reads;
	// default DefaultResults.
	Results int
	// Parallel is how many pages are read at once; default
	// DefaultParallel.
	Parallel int
	// Deadline bounds one Read, the search and its pages; pages not read
	// by then are skipped. Default DefaultDeadline.
	Deadline time.Duration

	mu       sync.Mutex
	searches map[string]*entry[[]Result]
	pages    map[string]*entry[*Page]
}

// Skip is a page that was not read, and why.
type Skip struct {
	URL string
	// Code is the reason's error code (FORBIDDEN for robots.txt,
	// INVALID_FILE_TYPE, FILE_TOO_LARGE, UNAVAILABLE, ...).
	Code   string
	Reason string
}

// Reading is what one search found and read.
type Reading struct {
	Results []Result
	// Pages are the pages read, in the results' order; each has the
	// result's title and date when it states none of its own.
	Pages   []Page
	Skipped []Skip
}

// entry is one search or page, computed once; done is closed when val
// and err are set.
type entry[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// once returns m[key], computing it with f when no one has; a result
// that keep rejects is forgotten, so that it is computed again next time.
func once[T any](ctx context.Context, mu *sync.Mutex, m map[string]*entry[T], key string, f func() (T, error), keep func(error) bool) (T, error) {
	mu.Lock()
	e, ok := m[key]
	if !ok {
		e = &entry[T]{done: make(chan struct{})}
		m[key] = e
	}
	mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.val, e.err
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
	e.val, e.err = f()
	close(e.done)
	if e.err != nil && !keep(e.err) {
		mu.Lock()
		delete(m, key)
		mu.Unlock()
	}
	return e.val, e.err
}

// Read searches query and reads the pages of its results. Errors are
// the provider's (see Provider.Search); a page that cannot be read is a
// Skip, never an error.
func (w *Web) Read(ctx context.Context, query string) (*Reading, error) {
	n, par, deadline := w.Results, w.Parallel, w.Deadline
	if n <= 0 {
		n = DefaultResults
	}
	if par <= 0 {
		par = DefaultParallel
	}
	if deadline <= 0 {
		deadline = DefaultDeadline
	}
	w.mu.Lock()
	if w.searches == nil {
		w.searches, w.pages = map[string]*entry[[]Result]{}, map[string]*entry[*Page]{}
	}
	w.mu.Unlock()
	rctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	results, err := once(rctx, &w.mu, w.searches, query, func() ([]Result, error) {
		return w.Provider.Search(rctx, query, n)
	}, func(error) bool { return ctx.Err() == nil })
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = quarry.Errorf(quarry.ECodeUnavailable, "%s did not answer within %s", w.Provider.Name(), deadline)
		}
		return nil, err
	}
	pages := make([]*Page, len(results))
	errs := make([]error, len(results))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, r := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-rctx.Done():
				errs[i] = rctx.Err()
				return
			}
			// A page cut short by this Read's deadline may be read by
			// a later one; any other failure is the page's own.
			pages[i], errs[i] = once(rctx, &w.mu, w.pages, r.URL, func() (*Page, error) {
				return w.Fetcher.Fetch(rctx, r.URL)
			}, func(error) bool { return rctx.Err() == nil })
		}()
	}
	wg.Wait()
	out := &Reading{Results: results, Pages: []Page{}, Skipped: []Skip{}}
	for i, r := range results {
		if err := errs[i]; err != nil {
			s := Skip{URL: r.URL, Code: quarry.ErrorCode(err), Reason: quarry.ErrorMessage(err)}
			if rctx.Err() != nil && (quarry.ErrorCode(err) == quarry.ECodeInternal || quarry.ErrorCode(err) == quarry.ECodeUnavailable) {
				s.Code, s.Reason = quarry.ECodeUnavailable, "not read within the "+deadline.String()+" a search may take"
			}
			out.Skipped = append(out.Skipped, s)
			continue
		}
		p := *pages[i]
		if p.Title == "" || p.Title == hostPath(p.FinalURL) {
			p.Title = orElse(r.Title, p.Title)
		}
		if p.Published.IsZero() {
			p.Published = r.Published
		}
		out.Pages = append(out.Pages, p)
	}
	return out, nil
}

func orElse(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

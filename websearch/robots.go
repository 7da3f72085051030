package websearch

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/temoto/robotstxt"

	"github.com/quarry-dev/quarry"
)

// maxRobotsBytes is how much of a robots.txt is read (Google reads 500
// KiB and ignores the rest).
const maxRobotsBytes = 500 << 10

// robotsCache holds each site's robots.txt, read once per Fetcher.
type robotsCache struct {
	mu    sync.Mutex
	sites map[string]*robotsEntry
}

type robotsEntry struct {
	once sync.Once
	data *robotstxt.RobotsData
	err  error
}

// check returns nil when the robots.txt of u's site lets Quarry read u,
// and FORBIDDEN when it does not or cannot be read. As Google does, a
// missing robots.txt (4xx) allows everything and a failing one (5xx)
// nothing.
func (c *robotsCache) check(ctx context.Context, f *Fetcher, u *url.URL) error {
	site := u.Scheme + "://" + u.Host
	c.mu.Lock()
	e := c.sites[site]
	if e == nil {
		e = &robotsEntry{}
		c.sites[site] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.data, e.err = f.readRobots(ctx, site) })
	if e.err != nil {
		return quarry.Errorf(quarry.ECodeForbidden, "the site's robots.txt cannot be read (%s), so the page was not read", quarry.ErrorMessage(e.err))
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !e.data.TestAgent(path, robotsAgent) {
		return quarry.Errorf(quarry.ECodeForbidden, "the site's robots.txt disallows %s for Quarry", path)
	}
	return nil
}

// readRobots fetches and parses site's robots.txt.
func (f *Fetcher) readRobots(ctx context.Context, site string) (*robotstxt.RobotsData, error) {
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, site+"/robots.txt", nil)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%w", err)
	}
	req.Header.Set("User-Agent", UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s", shorten(err.Error(), 120))
	}
	return data, nil
}

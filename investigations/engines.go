package investigations

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/investigation"
)

// Cached query engines. Loading a session's CSVs is nearly all the cost of
// a Query (about 0.2 s for two files of 2 MB), so the locked engine of the
// last few sessions queried is kept for the next query. An engine is keyed
// by its session and the files it holds; any change to the files, ten idle
// minutes, deletion or expiry of the session, or Close discards it.
const (
	maxCachedEngines = 2
	engineIdle       = 10 * time.Minute
)

// engineCache is a small LRU of loaded engines. An engine in use is out of
// the cache (take removes it, put returns it), so eviction never closes an
// engine a query is using.
type engineCache struct {
	mu      sync.Mutex
	entries []*cachedEngine // least recently used first
	closed  bool
}

type cachedEngine struct {
	session, files string
	eng            investigate.Engine
	used           time.Time
}

// filesKey identifies a set of uploaded files by their IDs and sizes.
func filesKey(files []*investigation.UploadedFile) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%s:%s:%d;", f.FileID, f.TableName, f.SizeBytes)
	}
	return b.String()
}

// take removes and returns the engine of session holding files, or nil. It
// closes the session's engines for other files and the other sessions'
// idle ones.
func (c *engineCache) take(session, files string, now time.Time) investigate.Engine {
	c.mu.Lock()
	defer c.mu.Unlock()
	var found investigate.Engine
	c.keep(func(e *cachedEngine) bool {
		switch {
		case e.session == session && e.files == files && found == nil:
			found = e.eng
			return false
		case e.session == session || now.Sub(e.used) > engineIdle:
			e.eng.Close()
			return false
		}
		return true
	})
	return found
}

// put caches eng as the most recently used, closing the least recently
// used beyond maxCachedEngines. After close it closes eng instead.
func (c *engineCache) put(session, files string, eng investigate.Engine, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		eng.Close()
		return
	}
	c.entries = append(c.entries, &cachedEngine{session: session, files: files, eng: eng, used: now})
	for len(c.entries) > maxCachedEngines {
		c.entries[0].eng.Close()
		c.entries = c.entries[1:]
	}
}

// closeIdle closes the engines unused since engineIdle before now.
func (c *engineCache) closeIdle(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(func(e *cachedEngine) bool {
		if now.Sub(e.used) > engineIdle {
			e.eng.Close()
			return false
		}
		return true
	})
}

// drop closes the engines of session.
func (c *engineCache) drop(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(func(e *cachedEngine) bool {
		if e.session == session {
			e.eng.Close()
			return false
		}
		return true
	})
}

// evictOldest closes the least recently used cached engine, and reports
// whether there was one.
func (c *engineCache) evictOldest() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) == 0 {
		return false
	}
	c.entries[0].eng.Close()
	c.entries[0] = nil
	c.entries = c.entries[1:]
	return true
}

// close closes every engine; engines put back later are closed at once.
func (c *engineCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.keep(func(e *cachedEngine) bool { e.eng.Close(); return false })
}

// keep keeps the entries for which f reports true, in order.
func (c *engineCache) keep(f func(*cachedEngine) bool) {
	kept := c.entries[:0]
	for _, e := range c.entries {
		if f(e) {
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):])
	c.entries = kept
}

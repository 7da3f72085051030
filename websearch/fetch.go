package websearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/quarry-dev/quarry"
)

// Defaults of a Fetcher.
const (
	DefaultMaxPageBytes = 5 << 20
	DefaultPageTimeout  = 10 * time.Second
	DefaultMaxRedirects = 5
	// DefaultMaxTextChars bounds the main text kept of one page (about
	// a hundred printed pages).
	DefaultMaxTextChars = 200_000
	// minTextChars is the least main text a page read must have: less is
	// a menu, a cookie wall or an error page, not a source.
	minTextChars = 50
)

// Page is a web page read by a Fetcher: its main text, without
// navigation, ads and other clutter.
type Page struct {
	// URL is the URL asked for; FinalURL the one read, after redirects.
	URL, FinalURL string
	Title         string
	Text          string
	// Published is the page's own date (its metadata), zero when it
	// states none.
	Published   time.Time
	SiteName    string
	ContentType string
	// Truncated is true when the text was cut at MaxTextChars.
	Truncated bool
}

// Fetcher reads web pages within limits. Its zero value is ready to use
// with the defaults; set the fields before the first Fetch. A Fetcher
// remembers each site's robots.txt and is safe for concurrent use.
type Fetcher struct {
	// MaxBytes is the largest page read; a larger one is not read past
	// the limit (FILE_TOO_LARGE). Default DefaultMaxPageBytes.
	MaxBytes int64
	// Timeout bounds reading one page (connection, headers and body)
	// and one robots.txt. Default DefaultPageTimeout.
	Timeout time.Duration
	// MaxRedirects is how many redirects one page may take; default
	// DefaultMaxRedirects.
	MaxRedirects int
	// MaxTextChars bounds the text kept of one page; default
	// DefaultMaxTextChars.
	MaxTextChars int
	// AllowPrivate lets pages on loopback, private and link-local
	// addresses be read (an intranet). Off, a search result cannot make
	// Quarry read the machine's own services.
	AllowPrivate bool
	// Transport, when set, sends the requests instead of a transport
	// of the Fetcher's own (tests point every host at a local server).
	// The private-address check is the own transport's, so it does not
	// apply then.
	Transport http.RoundTripper

	once   sync.Once
	client *http.Client
	robots robotsCache
}

func (f *Fetcher) init() {
	f.once.Do(func() {
		if f.MaxBytes <= 0 {
			f.MaxBytes = DefaultMaxPageBytes
		}
		if f.Timeout <= 0 {
			f.Timeout = DefaultPageTimeout
		}
		if f.MaxRedirects <= 0 {
			f.MaxRedirects = DefaultMaxRedirects
		}
		if f.MaxTextChars <= 0 {
			f.MaxTextChars = DefaultMaxTextChars
		}
		rt := f.Transport
		if rt == nil {
			rt = newTransport(f.AllowPrivate)
		}
		f.client = &http.Client{Transport: rt, CheckRedirect: f.checkRedirect}
		f.robots = robotsCache{sites: map[string]*robotsEntry{}}
	})
}

// newTransport is a transport whose dialer refuses non-public addresses
// unless allowPrivate, checked on the address actually dialled (after
// DNS), so a name that resolves to 127.0.0.1 is refused too. It never
// goes through a proxy from the environment: a proxy would dial on
// Quarry's behalf, after the check, to wherever a page pointed it.
func newTransport(allowPrivate bool) *http.Transport {
	d := &net.Dialer{Timeout: DefaultPageTimeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !publicAddr(ap.Addr()) {
				return errPrivate
			}
			return nil
		}
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = d.DialContext
	t.MaxResponseHeaderBytes = 64 << 10
	return t
}

var errPrivate = errors.New("a private, loopback, link-local or reserved address, which Quarry does not read unless QUARRY_WEB_ALLOW_PRIVATE is set")

// notPublic are the special-purpose ranges of IANA's IPv4 and IPv6
// registries that are not ordinary hosts on the public internet, beyond
// what netip's IsPrivate, IsLoopback and the like already name. The
// IPv6 ones that embed an IPv4 address (NAT64, 6to4, Teredo,
// IPv4-compatible) are here because a gateway would turn them into
// that IPv4 address, private or not, after the check.
var notPublic = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"100.64.0.0/10",   // shared address space (carrier-grade NAT)
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.88.99.0/24",  // 6to4 relay anycast
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"240.0.0.0/4",     // reserved, and the broadcast address
		"::/96",           // IPv4-compatible (deprecated), and :: and ::1
		"64:ff9b::/96",    // NAT64
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard-only
		"2001::/23",       // IETF protocol assignments, Teredo among them
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4
		"3fff::/20",       // documentation
		"5f00::/16",       // segment routing
		"fec0::/10",       // site-local (deprecated)
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// publicAddr reports whether a is an address on the public internet.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsGlobalUnicast() || a.IsPrivate() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// checkRedirect limits redirects to http(s) targets that robots.txt
// allows, at most MaxRedirects.
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.MaxRedirects {
		return quarry.Errorf(quarry.ECodeUnavailable, "more than %d redirects", f.MaxRedirects)
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return quarry.Errorf(quarry.ECodeInvalid, "redirected to a %s: URL", req.URL.Scheme)
	}
	if strings.HasSuffix(req.URL.Path, "/robots.txt") {
		return nil
	}
	return f.robots.check(req.Context(), f, req.URL)
}

// Fetch reads the page at rawURL and extracts its main text. Errors, each
// a *quarry.Error that says why the page was not read: INVALID for a URL
// that is not http(s); FORBIDDEN when the site's robots.txt disallows
// Quarry (or cannot be read); INVALID_FILE_TYPE for content that is not
// HTML or plain text (a PDF, an image); FILE_TOO_LARGE for a page over
// MaxBytes, of which no more than MaxBytes is read; NOT_FOUND for a 404
// or 410; UNAVAILABLE for a site that cannot be reached, is slower than
// Timeout or fails; EMPTY_FILE for a page without main text.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Page, error) {
	f.init()
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%q is not an http(s) URL", rawURL)
	}
	u.Fragment = ""
	if err := f.robots.check(ctx, f, u); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%q is not a URL Quarry can request: %w", rawURL, err)
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, quarry.Errorf(quarry.ECodeNotFound, "the site answered %s", resp.Status)
	case resp.StatusCode != http.StatusOK:
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "the site answered %s", resp.Status)
	}
	if resp.ContentLength > f.MaxBytes {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "the page is %s, over the %s limit; it was not read", size(resp.ContentLength), size(f.MaxBytes))
	}
	// The first bytes tell a page without a Content-Type.
	br := io.LimitReader(resp.Body, f.MaxBytes+1)
	head := make([]byte, 512)
	nh, err := io.ReadFull(br, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, f.fetchError(ctx, err)
	}
	head = head[:nh]
	ctype := resp.Header.Get("Content-Type")
	if ctype == "" {
		ctype = http.DetectContentType(head)
	}
	media, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalidFileType, "the page's content type %q cannot be read", ctype)
	}
	if !readable(media) {
		return nil, quarry.Errorf(quarry.ECodeInvalidFileType, "the page is %s; Quarry reads web pages as HTML or plain text", media)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	body := append(head, rest...)
	if int64(len(body)) > f.MaxBytes {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "the page is larger than the %s limit; reading stopped there", size(f.MaxBytes))
	}
	final := resp.Request.URL
	utf8Body, err := charset.NewReader(bytes.NewReader(body), ctype)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalidFileType, "the page's character set cannot be read: %w", err)
	}
	p := &Page{URL: u.String(), FinalURL: final.String(), ContentType: media}
	if media == "text/plain" {
		text, _ := io.ReadAll(utf8Body)
		p.Text = plainText(string(text))
		p.Title = hostPath(p.FinalURL)
	} else if err := extract(utf8Body, final, p); err != nil {
		return nil, err
	}
	if r := []rune(p.Text); len(r) > f.MaxTextChars {
		p.Text, p.Truncated = string(r[:f.MaxTextChars]), true
	}
	if len([]rune(strings.TrimSpace(p.Text))) < minTextChars {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "the page holds no main text (%q)", shorten(strings.TrimSpace(p.Text), 40))
	}
	return p, nil
}

// readable reports whether Fetch reads a page of media type m.
func readable(m string) bool {
	switch m {
	case "text/html", "application/xhtml+xml", "text/plain":
		return true
	}
	return false
}

// fetchError describes a page request that failed.
func (f *Fetcher) fetchError(ctx context.Context, err error) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return qe
	}
	var ne net.Error
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return quarry.Errorf(quarry.ECodeUnavailable, "the page was not read within %s", f.Timeout)
	}
	if ctx.Err() != nil {
		return quarry.Errorf(quarry.ECodeUnavailable, "reading stopped: %v", ctx.Err())
	}
	if errors.Is(err, errPrivate) {
		return quarry.Errorf(quarry.ECodeForbidden, "the page is on %v", errPrivate)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return quarry.Errorf(quarry.ECodeUnavailable, "the site cannot be reached: %w", err)
}

// plainText normalises the line ends of a text page.
func plainText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// size writes a byte count for a message.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.3g MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.3g KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// hostPath is a URL's host and path, the title of a page that has none.
func hostPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host + u.Path
}

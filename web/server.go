package web

import (
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/research"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/room"
)

// Options configure a Server.
type Options struct {
	// MaxUploadBytes is the largest accepted file; the request body is cut
	// off a little past it (default 50 MB).
	MaxUploadBytes int64
	// Analyst says who analyses; every page's footer tells the user, with
	// what leaves the machine.
	Analyst Analyst
	// Analyses serves the analyze job's API; nil leaves it out.
	Analyses analysis.Service
	// Rooms serves the data rooms' API and pages, for the users Auth
	// says send each request; the data rooms are left out unless both are
	// set.
	Rooms room.Service
	// Auth says who sends each request. With PasswordAuth every job
	// needs a signed-in user and each user sees only their own
	// investigations and analyses (access.go); LocalUser, or nil, is
	// single-user. nil also leaves the data rooms and research out.
	Auth Authenticator
	// Research serves the research API to the users Auth names; nil
	// leaves it out.
	Research research.Service
	Log      *slog.Logger
	// BodyIdle is the longest a request body may pause between reads
	// (default DefaultBodyIdle); it is also the grace before MinBodyRate
	// applies.
	BodyIdle time.Duration
	// MinBodyRate is the average, in bytes per second after BodyIdle, at
	// which a request body must arrive (default DefaultMinBodyRate).
	// A body that falls behind is cut off and its connection closed, so
	// that clients trickling bytes cannot hold connections and their
	// goroutines for ever; an upload at any usable speed is untouched.
	MinBodyRate int64
}

// Request body pace defaults: a body may pause up to 30 s, and after the
// first 30 s must have averaged 1 KiB/s (a 50 MB upload may take 14
// hours).
const (
	DefaultBodyIdle    = 30 * time.Second
	DefaultMinBodyRate = 1 << 10
)

// Limits of the HTTP server NewHTTPServer makes.
const (
	// ReadHeaderTimeout bounds the wait for a request's headers.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes a kept-alive connection that sends nothing.
	IdleTimeout = 2 * time.Minute
	// MaxHeaderBytes bounds a request's headers (the cookie and token
	// are well under it).
	MaxHeaderBytes = 64 << 10
)

// NewHTTPServer returns the http.Server to serve h with: bounded waits
// for headers and on idle connections, bounded headers, and errors
// logged to log. It has no ReadTimeout or WriteTimeout, which would cut
// off large uploads and event streams: Server paces request bodies
// itself (Options.BodyIdle, Options.MinBodyRate).
func NewHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Analyst describes the analyst behind the investigations and the chat.
type Analyst struct {
	// Model names the model taking part ("anthropic/claude-sonnet-4-5");
	// empty is the offline analyst.
	Model string
	// Local is true when the model runs on this machine (a loopback
	// endpoint such as a local Ollama).
	Local bool
	// CodeSandbox is true when the model's Python runs in an external code
	// sandbox, which receives the uploaded files.
	CodeSandbox bool
}

// Server is the HTTP handler of Quarry.
type Server struct {
	svc   investigation.Service
	opt   Options
	log   *slog.Logger
	mux   *http.ServeMux
	views map[string]*template.Template
}

// New returns a Server over svc.
func New(svc investigation.Service, opt Options) *Server {
	if opt.MaxUploadBytes <= 0 {
		opt.MaxUploadBytes = quarry.MaxFileBytes
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.BodyIdle <= 0 {
		opt.BodyIdle = DefaultBodyIdle
	}
	if opt.MinBodyRate <= 0 {
		opt.MinBodyRate = DefaultMinBodyRate
	}
	s := &Server{svc: svc, opt: opt, log: opt.Log, mux: http.NewServeMux(), views: viewsFor(opt.Analyst)}
	s.register()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	if rebinding(r) {
		// A page on another site that resolved its own name to 127.0.0.1
		// must not read or change sessions.
		s.writeError(w, r, quarry.Errorf(quarry.ECodeForbidden, "this server answers requests for localhost only, not for %s", r.Host))
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = &pacedBody{ReadCloser: r.Body, rc: http.NewResponseController(w), idle: s.opt.BodyIdle, rate: s.opt.MinBodyRate}
	}
	s.mux.ServeHTTP(w, r)
}

// pacedBody is a request body that must keep arriving: before each read
// it moves the connection's read deadline to BodyIdle from now, or
// sooner when the body has fallen behind MinBodyRate since BodyIdle after
// its first read. At the end of the body the deadline is lifted, so that
// a handler may take its time answering (the server reads the idle
// connection in the background meanwhile, and a deadline there would
// cancel the request).
type pacedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	idle  time.Duration
	rate  int64
	start time.Time
	n     int64
	done  bool
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if b.done {
		return b.ReadCloser.Read(p)
	}
	now := time.Now()
	if b.start.IsZero() {
		b.start = now
	}
	behind := b.start.Add(b.idle + time.Duration(float64(b.n)/float64(b.rate)*float64(time.Second)))
	deadline := now.Add(b.idle)
	if behind.Before(deadline) {
		deadline = behind
	}
	// A connection that cannot take deadlines (none in net/http's
	// servers) is read without one.
	_ = b.rc.SetReadDeadline(deadline)
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	switch {
	case errors.Is(err, io.EOF):
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		b.done = true
		return n, quarry.Errorf(codeBadRequest, "the request body arrived too slowly, under %d bytes a second", b.rate)
	}
	return n, err
}

// rebinding reports whether r reached a loopback address under a Host that
// is not a loopback name: DNS rebinding, the way a web page elsewhere
// reaches a server on the user's machine. The MCP HTTP server gets the same
// check from its SDK.
func rebinding(r *http.Request) bool {
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	ap, err := netip.ParseAddrPort(la.String())
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return false
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || !a.IsLoopback()
}

package web

import (
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/quarry-dev/quarry"
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
	Analyses AnalysisService
	// Rooms serves the data rooms' API and pages, for the users Auth
	// says send each request; the data rooms are left out unless both are
	// set.
	Rooms RoomService
	// Auth says who sends each request to the data rooms; nil leaves the
	// data rooms out.
	Auth Authenticator
	// Research serves the research API to the users Auth names; nil
	// leaves it out.
	Research ResearchService
	Log      *slog.Logger
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
	svc   Service
	opt   Options
	log   *slog.Logger
	mux   *http.ServeMux
	views map[string]*template.Template
}

// New returns a Server over svc.
func New(svc Service, opt Options) *Server {
	if opt.MaxUploadBytes <= 0 {
		opt.MaxUploadBytes = quarry.MaxFileBytes
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{svc: svc, opt: opt, log: opt.Log, mux: http.NewServeMux(), views: viewsFor(opt.Analyst)}
	s.routesAPI()
	s.routesAnalyses()
	s.routesRooms()
	s.routesResearch()
	s.routesLogin()
	s.routesPages()
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
	s.mux.ServeHTTP(w, r)
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

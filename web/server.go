package web

import (
	"html/template"
	"log/slog"
	"net/http"

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
	Log     *slog.Logger
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
	s.routesPages()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	s.mux.ServeHTTP(w, r)
}

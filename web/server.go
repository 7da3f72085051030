package web

import (
	"log/slog"
	"net/http"

	"github.com/quarry-dev/quarry"
)

// Options configure a Server.
type Options struct {
	// MaxUploadBytes is the largest accepted file; the request body is cut
	// off a little past it (default 50 MB).
	MaxUploadBytes int64
	Log            *slog.Logger
}

// Server is the HTTP handler of Quarry.
type Server struct {
	svc Service
	opt Options
	log *slog.Logger
	mux *http.ServeMux
}

// New returns a Server over svc.
func New(svc Service, opt Options) *Server {
	if opt.MaxUploadBytes <= 0 {
		opt.MaxUploadBytes = quarry.MaxFileBytes
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{svc: svc, opt: opt, log: opt.Log, mux: http.NewServeMux()}
	s.routesAPI()
	s.routesPages()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	s.mux.ServeHTTP(w, r)
}

package web

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"

	"github.com/quarry-dev/quarry"
)

// contentSecurityPolicy allows only what the pages load from Quarry
// itself: no inline scripts or styles, no other origins.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// pageBase is what the layout needs from every page.
type pageBase struct {
	// Title is the document title before " · Quarry".
	Title string
	// Refresh asks browsers without JavaScript to reload the page every
	// few seconds (a running investigation).
	Refresh bool
	// Scripts are static files loaded after htmx.
	Scripts []string
	// Errors is the summary shown at the top of the page.
	Errors []summaryItem
}

// summaryItem is one error in the summary at the top of a page: a link to
// the field it concerns, or the whole message when it concerns no field.
type summaryItem struct {
	Field   string // id of the field, "" for an error about no field
	Label   string // the field's name in words
	Message string
	Hint    string
}

// isHTMX reports whether htmx sent the request, which then wants a
// fragment rather than a page.
func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// pageHeaders sets the headers of every HTML answer.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Add("Vary", "HX-Request")
}

// render executes a page's layout into a buffer first, so that a template
// error becomes a 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	s.execute(w, r, status, s.views[page], "layout", data)
}

// renderFragment executes the named templates one after another (a file
// card and its out-of-band updates, two chat messages) as one answer.
func (s *Server) renderFragment(w http.ResponseWriter, r *http.Request, status int, parts ...fragment) {
	var buf bytes.Buffer
	for _, p := range parts {
		if err := s.views["form"].ExecuteTemplate(&buf, p.name, p.data); err != nil {
			s.templateFailed(w, r, err)
			return
		}
	}
	pageHeaders(w)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fragment is one template of a partial answer and its data.
type fragment struct {
	name string
	data any
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request, status int, t *template.Template, name string, data any) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		s.templateFailed(w, r, err)
		return
	}
	pageHeaders(w)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) templateFailed(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("template failed", "path", r.URL.Path, "err", err)
	pageHeaders(w)
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte("<!doctype html><html lang=\"en\"><title>Error · Quarry</title><main><h1>Something went wrong</h1><p>The page could not be drawn. The server log has the details.</p></main></html>"))
}

// errorPage is the page for a session that cannot be shown or an action
// that failed outright.
type errorPage struct {
	pageBase
	Status  int
	Heading string
	Err     *quarry.Error
	// NewSession offers to start over (an expired or missing session).
	NewSession bool
}

// asQuarryError returns err as a *quarry.Error; other errors are logged
// and become a generic INTERNAL error, their detail being for the log.
func (s *Server) asQuarryError(r *http.Request, err error) *quarry.Error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return qe
	}
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	return quarry.Errorf(quarry.ECodeInternal, "something went wrong on our side").
		WithHint("try again; if it keeps happening, the server log says why")
}

// pageStatus is the HTTP status of an error shown on a page.
func pageStatus(qe *quarry.Error) int {
	switch qe.Code {
	case codeBadRequest:
		return http.StatusBadRequest
	case codeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	}
	return statusOf(qe.Code)
}

// renderError answers with the error page. An htmx request gets it too,
// told to replace the whole body rather than the fragment it aimed at.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	qe := s.asQuarryError(r, err)
	if s.toLogin(w, r, qe) {
		return
	}
	if isHTMX(r) {
		w.Header().Set("HX-Retarget", "body")
		w.Header().Set("HX-Reswap", "innerHTML")
	}
	setRetryAfter(w, err)
	status := pageStatus(qe)
	p := errorPage{Status: status, Err: qe}
	switch status {
	case http.StatusNotFound:
		p.Heading, p.NewSession = "Not found", true
	case http.StatusGone:
		p.Heading, p.NewSession = "This investigation has expired", true
	case http.StatusInternalServerError, http.StatusServiceUnavailable:
		p.Heading = "Something went wrong"
	default:
		p.Heading = "That did not work"
	}
	p.Title = p.Heading
	s.render(w, r, status, "error", p)
}

// page adapts a handler that returns an error to one that shows it on the
// error page.
func (s *Server) page(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.renderError(w, r, err)
		}
	})
}

// seeOther ends a form post the Post/Redirect/Get way.
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	http.Redirect(w, r, to, http.StatusSeeOther)
}

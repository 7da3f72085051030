package web

import (
	"net/http"
	"net/url"
	"os"
	"path"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// routesPages registers the HTML pages. Every form works as a plain POST
// that answers 303 (Post/Redirect/Get) or re-renders the page with the
// error at its field; with htmx (HX-Request) the same handlers answer with
// fragments. Posts from other sites are refused.
func (s *Server) routesPages() {
	csrf := http.NewCrossOriginProtection()
	post := func(h func(http.ResponseWriter, *http.Request) error) http.Handler { return csrf.Handler(s.page(h)) }

	s.mux.Handle("GET /{$}", s.page(s.home))
	s.mux.Handle("GET /sessions", http.RedirectHandler("/", http.StatusSeeOther))
	s.mux.Handle("POST /sessions", post(s.createSessionPage))
	s.mux.Handle("GET /sessions/{id}", s.page(s.sessionPage))
	s.mux.Handle("POST /sessions/{id}/files", post(s.uploadPage))
	s.mux.Handle("POST /sessions/{id}/files/{fid}/description", post(s.describePage))
	s.mux.Handle("POST /sessions/{id}/files/{fid}/delete", post(s.removeFilePage))
	s.mux.Handle("POST /sessions/{id}/investigate", post(s.investigatePage))
	s.mux.Handle("POST /sessions/{id}/chat", post(s.chatPage))
	s.mux.Handle("POST /sessions/{id}/delete", post(s.deleteSessionPage))
	s.mux.Handle("GET /sessions/{id}/artifacts/{path...}", s.page(s.artifact))
	s.mux.HandleFunc("GET /static/{file}", s.serveStatic)
	s.routesAnalysisPages()
	s.routesResearchPages()
	s.mux.Handle("/", s.page(func(w http.ResponseWriter, r *http.Request) error {
		return quarry.Errorf(quarry.ECodeNotFound, "there is no page at %s", r.URL.Path)
	}))
}

// maxFormBody bounds a urlencoded form: the investigation form with every
// field at its limit is well under it.
const maxFormBody = 64 << 10

// parseForm reads a urlencoded form body. Errors: INVALID for a body over
// the limit or not a form.
func parseForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
	if err := r.ParseForm(); err != nil {
		return quarry.Errorf(quarry.ECodeInvalid, "the form could not be read; it may be too long")
	}
	return nil
}

// sessionURL is the page of a session.
func sessionURL(id string) string { return "/sessions/" + url.PathEscape(id) }

// homePage lists recent sessions.
type homePage struct {
	pageBase
	Sessions []sessionRow
	Hidden   int // sessions not listed
}

type sessionRow struct {
	*investigation.Investigation
	URL      string
	Question string
}

// homeLimit is how many sessions the home page lists.
const homeLimit = 50

func (s *Server) home(w http.ResponseWriter, r *http.Request) error {
	all, err := s.svc.Sessions(r.Context())
	if err != nil {
		return err
	}
	p := homePage{pageBase: pageBase{Title: "Investigations"}}
	if len(all) > homeLimit {
		p.Hidden = len(all) - homeLimit
		all = all[:homeLimit]
	}
	for _, sess := range all {
		row := sessionRow{Investigation: sess, URL: sessionURL(sess.SessionID)}
		if sess.Status != investigation.StatusExpired {
			// A missing or unreadable request only leaves the column blank.
			if c, err := s.svc.Context(r.Context(), sess.SessionID); err == nil && c != nil {
				row.Question = clip(firstNonEmpty(c.InvestigationPrompt, c.MetricSQL), 90)
			}
		}
		p.Sessions = append(p.Sessions, row)
	}
	s.render(w, r, http.StatusOK, "home", p)
	return nil
}

func (s *Server) createSessionPage(w http.ResponseWriter, r *http.Request) error {
	sess, err := s.svc.Create(r.Context())
	if err != nil {
		return err
	}
	seeOther(w, r, sessionURL(sess.SessionID))
	return nil
}

func (s *Server) sessionPage(w http.ResponseWriter, r *http.Request) error {
	return s.renderSession(w, r, r.PathValue("id"), http.StatusOK, &pageState{})
}

// renderSession draws a session's page for its status: the form before the
// investigation, the report from its start on. st carries what a failed
// post typed and its error.
func (s *Server) renderSession(w http.ResponseWriter, r *http.Request, id string, status int, st *pageState) error {
	sess, err := s.svc.Session(r.Context(), id)
	if err != nil {
		return err
	}
	switch sess.Status {
	case investigation.StatusCreated, investigation.StatusHasFiles:
		return s.renderForm(w, r, sess, status, st)
	case investigation.StatusRunning, investigation.StatusCompleted, investigation.StatusFailed:
		return s.renderReport(w, r, sess, status, st)
	}
	return quarry.Errorf(quarry.ECodeSessionExpired, "this investigation has expired and its files and results were deleted").
		WithHint("start a new investigation and upload the files again")
}

// artifactTypes are the kinds of artifact the pages link to.
var artifactTypes = map[string]string{
	".png":   "image/png",
	".json":  "application/json",
	".jsonl": "application/jsonl; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".csv":   "text/csv; charset=utf-8",
	".txt":   "text/plain; charset=utf-8",
}

// artifact serves a file of a session's results: report.md, or a file
// under charts/, analysis/ or results/. Uploaded data and anything else
// are not found.
func (s *Server) artifact(w http.ResponseWriter, r *http.Request) error {
	rel := r.PathValue("path")
	ct, ok := artifactTypes[path.Ext(rel)]
	if !ok || !allowedArtifact(rel) {
		return quarry.Errorf(quarry.ECodeNotFound, "there is no artifact %q", rel)
	}
	p, err := s.svc.ArtifactPath(r.Context(), r.PathValue("id"), rel)
	if err != nil {
		return err
	}
	f, err := os.Open(p)
	if err != nil {
		return quarry.Errorf(quarry.ECodeNotFound, "there is no artifact %q", rel)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, path.Base(rel), st.ModTime().Truncate(time.Second), f)
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// deleteSessionPage deletes a session from the home page's list and goes
// back to the list.
func (s *Server) deleteSessionPage(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return nil
}

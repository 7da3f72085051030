package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/research"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/room"
)

// panicRooms, panicAnalyses and panicResearch are services that no
// request may reach: every call panics.
type (
	panicRooms    struct{ room.Service }
	panicAnalyses struct{ analysis.Service }
	panicResearch struct{ research.Service }
)

// withEveryJob is a server with every job under PasswordAuth. Its
// services, but for the investigations' fake, panic: an anonymous
// request must never reach them.
func withEveryJob(t *testing.T) *Server {
	t.Helper()
	auth, err := NewPasswordAuth(nil, make([]byte, sessionKeyBytes), PasswordAuthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return New(newFake(t), Options{Analyses: panicAnalyses{}, Rooms: panicRooms{}, Research: panicResearch{}, Auth: auth})
}

// pathParam is a {name} or {name...} of a pattern.
var pathParam = regexp.MustCompile(`\{[a-z]+(\.\.\.)?\}`)

// exampleRequest is a request that the route's pattern matches.
func exampleRequest(rt route) *http.Request {
	method, path, _ := strings.Cut(rt.pattern, " ")
	path = strings.ReplaceAll(path, "{$}", "")
	path = pathParam.ReplaceAllStringFunc(path, func(p string) string {
		if strings.HasSuffix(p, "...}") {
			return "charts/a.png"
		}
		return "x1"
	})
	return httptest.NewRequest(method, path, nil)
}

// TestAuthEveryRouteNeedsSignIn is the access promise over the whole
// route table, so that a new route is covered as soon as it is added:
// with PasswordAuth an anonymous client gets 401 UNAUTHORIZED from every
// API route that is not open, and the sign-in page from every such page,
// before any service is asked.
func TestAuthEveryRouteNeedsSignIn(t *testing.T) {
	s := withEveryJob(t)
	var opened []string
	jobs := map[string]int{}
	for _, rt := range s.routes() {
		if rt.rule == open {
			opened = append(opened, rt.pattern)
			continue
		}
		req := exampleRequest(rt)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		switch rt.kind {
		case api:
			var body errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusUnauthorized ||
				body.Error.Code != quarry.ECodeUnauthorized {
				t.Errorf("%s (%s) as %s %s: %d %s; want 401 UNAUTHORIZED", rt.pattern, rt.rule, req.Method, req.URL, w.Code, w.Body)
			}
			if w.Header().Get("WWW-Authenticate") == "" {
				t.Errorf("%s: a 401 without WWW-Authenticate", rt.pattern)
			}
		case page, form:
			if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/login?next=") {
				t.Errorf("%s (%s) as %s %s: %d to %q; want 303 to the sign-in page", rt.pattern, rt.rule, req.Method, req.URL, w.Code, loc)
			}
		}
		_, path, _ := strings.Cut(rt.pattern, " ")
		job := strings.Split(strings.TrimPrefix(strings.TrimPrefix(path, "/api"), "/"), "/")[0]
		jobs[job]++
	}
	// Every job's API and pages are in the table, behind a sign-in.
	for _, job := range []string{"{$}", "sessions", "analyses", "recipes", "rooms", "research"} {
		if jobs[job] == 0 {
			t.Errorf("no route of %q needs a sign-in: %v", job, jobs)
		}
	}
	// Open routes are few and chosen: a new one must be added here.
	want := []string{"GET /sessions", "GET /login", "POST /login", "POST /logout", "GET /static/{file}", "/api/", "/"}
	slices.Sort(opened)
	slices.Sort(want)
	if !slices.Equal(opened, want) {
		t.Errorf("open routes %q; want %q", opened, want)
	}
}

// TestAuthOpenRoutesAnswerAnyone: the open routes answer an anonymous
// client themselves: the sign-in page, the static files, the
// envelope's NOT_FOUND for an unknown API path.
func TestAuthOpenRoutesAnswerAnyone(t *testing.T) {
	s := withEveryJob(t)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/login", http.StatusOK},
		{http.MethodGet, "/static/htmx.min.js", http.StatusOK},
		{http.MethodGet, "/sessions", http.StatusSeeOther},
		{http.MethodGet, "/api/nothing", http.StatusNotFound},
		{http.MethodGet, "/nothing", http.StatusNotFound},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(c.method, c.path, nil))
		if w.Code != c.status {
			t.Errorf("%s %s anonymous: %d; want %d", c.method, c.path, w.Code, c.status)
		}
	}
}

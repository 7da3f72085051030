package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/web"
)

// ownersEnv is a server with investigations and analyses under
// PasswordAuth, with the API tokens of ann, bob and the local owner.
type ownersEnv struct {
	t   *testing.T
	srv *httptest.Server
	// local is a single-user server over the same data dir.
	local              *httptest.Server
	app                *app.App
	ann, bob, owner    *room.User
	annT, bobT, ownerT string
}

func newOwnersEnv(t *testing.T) *ownersEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	a, err := app.Open(ctx, app.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	svc, owner, closeRooms, err := app.OpenRooms(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRooms() })
	e := &ownersEnv{t: t, app: a, owner: owner}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	e.ann, err = svc.AddUser(ctx, "ann", annPassword)
	must(err)
	e.bob, err = svc.AddUser(ctx, "bob", "bob's long password")
	must(err)
	e.annT, err = svc.CreateToken(ctx, e.ann.ID, "script")
	must(err)
	e.bobT, err = svc.CreateToken(ctx, e.bob.ID, "script")
	must(err)
	e.ownerT, err = svc.CreateToken(ctx, owner.ID, "script")
	must(err)
	key, err := web.LoadSessionKey(filepath.Join(dir, "secrets", "session.key"))
	must(err)
	auth, err := web.NewPasswordAuth(svc, key, web.PasswordAuthOptions{})
	must(err)
	e.srv = httptest.NewServer(web.New(a.Investigations, web.Options{Rooms: svc, Auth: auth, Analyses: a.Analyses}))
	t.Cleanup(e.srv.Close)
	e.local = httptest.NewServer(web.New(a.Investigations, web.Options{Rooms: svc, Auth: web.LocalUser{Owner: owner}, Analyses: a.Analyses}))
	t.Cleanup(e.local.Close)
	return e
}

// as sends a request with token ("" for none) and returns the status,
// the error code of an error envelope and the body.
func (e *ownersEnv) as(token, method, path, contentType string, body io.Reader) (int, string, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(b, &env)
	return res.StatusCode, env.Error.Code, b
}

// listed returns the ids under key of a list's items with field idKey.
func (e *ownersEnv) listed(token, path, key, idKey string) []string {
	e.t.Helper()
	status, _, b := e.as(token, http.MethodGet, path, "", nil)
	var out map[string][]map[string]any
	if err := json.Unmarshal(b, &out); status != http.StatusOK || err != nil {
		e.t.Fatalf("GET %s: %d %s", path, status, b)
	}
	var ids []string
	for _, it := range out[key] {
		ids = append(ids, it[idKey].(string))
	}
	return ids
}

// create starts an investigation as token's user and returns its id.
func (e *ownersEnv) create(token string) string {
	e.t.Helper()
	status, _, b := e.as(token, http.MethodPost, "/api/sessions", "", nil)
	var s struct {
		ID string `json:"session_id"`
	}
	if err := json.Unmarshal(b, &s); status != http.StatusCreated || err != nil {
		e.t.Fatalf("POST /api/sessions: %d %s", status, b)
	}
	return s.ID
}

// TestAuthInvestigationsAreTheirOwners: under PasswordAuth another user
// gets SESSION_NOT_FOUND (404, as for an investigation that does not
// exist, never 403) for an investigation, its report, events, page,
// artifacts and deletion, and lists show each user their own.
func TestAuthInvestigationsAreTheirOwners(t *testing.T) {
	e := newOwnersEnv(t)
	annS, bobS := e.create(e.annT), e.create(e.bobT)

	if st, code, _ := e.as("", http.MethodGet, "/api/sessions", "", nil); st != http.StatusUnauthorized || code != quarry.ECodeUnauthorized {
		t.Errorf("anonymous GET /api/sessions: %d %s; want 401 UNAUTHORIZED", st, code)
	}
	if ids := e.listed(e.annT, "/api/sessions", "sessions", "session_id"); !slices.Equal(ids, []string{annS}) {
		t.Errorf("ann's list %v; want only %s", ids, annS)
	}
	if ids := e.listed(e.bobT, "/api/sessions", "sessions", "session_id"); !slices.Equal(ids, []string{bobS}) {
		t.Errorf("bob's list %v; want only %s", ids, bobS)
	}
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/sessions/" + annS},
		{http.MethodGet, "/api/sessions/" + annS + "/report"},
		{http.MethodGet, "/api/sessions/" + annS + "/report/download"},
		{http.MethodGet, "/api/sessions/" + annS + "/events"},
		{http.MethodGet, "/api/sessions/" + annS + "/files"},
		{http.MethodPost, "/api/sessions/" + annS + "/chat"},
		{http.MethodDelete, "/api/sessions/" + annS},
		{http.MethodGet, "/sessions/" + annS},
		{http.MethodGet, "/sessions/" + annS + "/artifacts/report.md"},
		{http.MethodPost, "/sessions/" + annS + "/delete"},
	} {
		st, code, body := e.as(e.bobT, c.method, c.path, "application/json", strings.NewReader(`{"message":"hi"}`))
		if st != http.StatusNotFound || strings.HasPrefix(c.path, "/api/") && code != quarry.ECodeSessionNotFound {
			t.Errorf("bob %s %s: %d %s; want 404 SESSION_NOT_FOUND", c.method, c.path, st, code)
		}
		if strings.Contains(string(body), e.ann.ID) {
			t.Errorf("bob %s %s names ann's id", c.method, c.path)
		}
	}
	// Another user's investigation reads as one that does not exist.
	_, _, other := e.as(e.bobT, http.MethodGet, "/api/sessions/"+annS, "", nil)
	missing := "00000000-0000-4000-8000-000000000000"
	_, _, none := e.as(e.bobT, http.MethodGet, "/api/sessions/"+missing, "", nil)
	if strings.ReplaceAll(string(other), annS, "ID") != strings.ReplaceAll(string(none), missing, "ID") {
		t.Errorf("another user's investigation %s differs from a missing one %s", other, none)
	}
	// Ann's investigation survived bob's deletes, and its report is
	// hers: not ready yet, which is not a 404.
	if st, _, b := e.as(e.annT, http.MethodGet, "/api/sessions/"+annS, "", nil); st != http.StatusOK {
		t.Errorf("ann GET her investigation after bob's deletes: %d %s", st, b)
	}
	if st, code, _ := e.as(e.annT, http.MethodGet, "/api/sessions/"+annS+"/report", "", nil); st == http.StatusNotFound {
		t.Errorf("ann GET her report: %d %s", st, code)
	}
	if st, _, b := e.as(e.annT, http.MethodGet, "/api/sessions/"+annS+"/events", "", nil); st != http.StatusOK {
		t.Errorf("ann GET her events: %d %s", st, b)
	}
	if st, _, b := e.as(e.annT, http.MethodDelete, "/api/sessions/"+annS, "", nil); st != http.StatusOK {
		t.Errorf("ann DELETE her investigation: %d %s", st, b)
	}
}

// TestAuthUnownedInvestigationIsTheLocalOwners: an investigation without
// an owner (made by the CLI or MCP, or before investigations had owners)
// is the local owner's under PasswordAuth: no other user sees it.
func TestAuthUnownedInvestigationIsTheLocalOwners(t *testing.T) {
	e := newOwnersEnv(t)
	s, err := e.app.Investigations.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if st, code, _ := e.as(e.annT, http.MethodGet, "/api/sessions/"+s.SessionID, "", nil); st != http.StatusNotFound || code != quarry.ECodeSessionNotFound {
		t.Errorf("ann GET an unowned investigation: %d %s; want 404 SESSION_NOT_FOUND", st, code)
	}
	if ids := e.listed(e.annT, "/api/sessions", "sessions", "session_id"); len(ids) != 0 {
		t.Errorf("ann's list %v; want none", ids)
	}
	if st, _, b := e.as(e.ownerT, http.MethodGet, "/api/sessions/"+s.SessionID, "", nil); st != http.StatusOK {
		t.Errorf("the local owner (%s) GET an unowned investigation: %d %s", room.LocalOwner, st, b)
	}
	if ids := e.listed(e.ownerT, "/api/sessions", "sessions", "session_id"); !slices.Equal(ids, []string{s.SessionID}) {
		t.Errorf("the local owner's list %v; want %s", ids, s.SessionID)
	}
}

// TestAuthAnalysesAreTheirOwners: another user gets NOT_FOUND (404) for an
// analysis, its events, audit trail and artifacts, and does not see it
// listed; its owner does.
func TestAuthAnalysesAreTheirOwners(t *testing.T) {
	e := newOwnersEnv(t)
	sales, err := os.ReadFile("../testdata/analyze/sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	ct, body := analysisForm(t, "Analyze Q1 2021 Arizona sales; trends + charts", map[string]string{"row_limit": "5000"},
		map[string][]byte{"sales.csv": sales})
	if st, code, _ := e.as("", http.MethodPost, "/api/analyses", ct, body); st != http.StatusUnauthorized || code != quarry.ECodeUnauthorized {
		t.Fatalf("anonymous POST /api/analyses: %d %s; want 401 UNAUTHORIZED", st, code)
	}
	ct, body = analysisForm(t, "Analyze Q1 2021 Arizona sales; trends + charts", map[string]string{"row_limit": "5000"},
		map[string][]byte{"sales.csv": sales})
	st, _, b := e.as(e.annT, http.MethodPost, "/api/analyses", ct, body)
	var started struct {
		ID string `json:"request_id"`
	}
	if err := json.Unmarshal(b, &started); st != http.StatusAccepted || err != nil {
		t.Fatalf("ann POST /api/analyses: %d %s", st, b)
	}
	id := started.ID
	// A JSON request naming another owner is still its sender's.
	st, _, b = e.as(e.bobT, http.MethodPost, "/api/analyses", "application/json",
		strings.NewReader(`{"intent":"count the rows","owner_id":"`+e.ann.ID+`","data_sources":[{"type":"sql","name":"db","connection_string":"postgres://127.0.0.1:1/none"}]}`))
	var bobs struct {
		ID string `json:"request_id"`
	}
	if err := json.Unmarshal(b, &bobs); st != http.StatusAccepted || err != nil {
		t.Fatalf("bob POST /api/analyses: %d %s", st, b)
	}
	e.waitForEnd(e.annT, id)

	status, _, b := e.as(e.annT, http.MethodGet, "/api/analyses/"+id, "", nil)
	var got struct {
		Artifacts []struct {
			ID string `json:"artifact_id"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(b, &got); status != http.StatusOK || err != nil || len(got.Artifacts) == 0 {
		t.Fatalf("ann GET her analysis: %d %s", status, b)
	}
	art := "/api/analyses/" + id + "/artifacts/" + got.Artifacts[0].ID
	if st, _, b := e.as(e.annT, http.MethodGet, art, "", nil); st != http.StatusOK {
		t.Errorf("ann GET her artifact: %d %s", st, b)
	}
	for _, path := range []string{"/api/analyses/" + id, "/api/analyses/" + id + "/events", "/api/analyses/" + id + "/audit",
		"/api/analyses/" + id + "/audit/verify", art, "/analyses/" + id, "/analyses/" + id + "/artifacts/" + got.Artifacts[0].ID} {
		st, code, _ := e.as(e.bobT, http.MethodGet, path, "", nil)
		if st != http.StatusNotFound || strings.HasPrefix(path, "/api/") && code != quarry.ECodeNotFound {
			t.Errorf("bob GET %s: %d %s; want 404 NOT_FOUND", path, st, code)
		}
	}
	if ids := e.listed(e.annT, "/api/analyses", "analyses", "request_id"); !slices.Equal(ids, []string{id}) {
		t.Errorf("ann's analyses %v; want only %s", ids, id)
	}
	if ids := e.listed(e.bobT, "/api/analyses", "analyses", "request_id"); !slices.Equal(ids, []string{bobs.ID}) {
		t.Errorf("bob's analyses %v; want only %s", ids, bobs.ID)
	}
	if st, code, _ := e.as(e.annT, http.MethodGet, "/api/analyses/"+bobs.ID, "", nil); st != http.StatusNotFound || code != quarry.ECodeNotFound {
		t.Errorf("ann GET bob's analysis, which named her its owner: %d %s; want 404 NOT_FOUND", st, code)
	}
}

// waitForEnd reads an analysis's event stream as token's user until its
// end event.
func (e *ownersEnv) waitForEnd(token, id string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/analyses/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		e.t.Fatalf("GET events: %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 1<<20), 8<<20)
	for sc.Scan() {
		if sc.Text() == "event: end" {
			return
		}
	}
	e.t.Fatal("the event stream ended without an end event")
}

// TestLocalModeOwnsEverything: a single-user server over the same data
// dir shows every investigation, whoever made it under PasswordAuth, and
// records its own as the local owner's, which only the local owner sees
// under PasswordAuth.
func TestLocalModeOwnsEverything(t *testing.T) {
	e := newOwnersEnv(t)
	annS, bobS := e.create(e.annT), e.create(e.bobT)
	// Requests go to e.srv: the single-user server, then back.
	e.srv, e.local = e.local, e.srv
	localS := e.create("")
	if st, _, b := e.as("", http.MethodGet, "/api/sessions/"+annS, "", nil); st != http.StatusOK {
		t.Errorf("single-user GET ann's investigation: %d %s", st, b)
	}
	ids := e.listed("", "/api/sessions", "sessions", "session_id")
	slices.Sort(ids)
	want := []string{annS, bobS, localS}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("single-user list %v; want %v", ids, want)
	}
	e.srv, e.local = e.local, e.srv
	if st, code, _ := e.as(e.annT, http.MethodGet, "/api/sessions/"+localS, "", nil); st != http.StatusNotFound || code != quarry.ECodeSessionNotFound {
		t.Errorf("ann GET the local owner's investigation: %d %s; want 404 SESSION_NOT_FOUND", st, code)
	}
	if st, _, b := e.as(e.ownerT, http.MethodGet, "/api/sessions/"+localS, "", nil); st != http.StatusOK {
		t.Errorf("the local owner GET their investigation: %d %s", st, b)
	}
}

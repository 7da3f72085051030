package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/web"
	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

// researchEnv is a server with the research API over real rooms and
// researches: alice owns room kestrel, holding the committed sample
// corpus; bob owns an empty room. Requests name their user in X-User.
type researchEnv struct {
	*roomsEnv // its t, dir, svc, alice, bob, srv and requests
}

func newResearchEnv(t *testing.T) *researchEnv {
	t.Helper()
	e := newKestrelEnv(t, "")
	if _, err := e.svc.CreateRoom(context.Background(), e.bob.ID, "bobs", ""); err != nil {
		t.Fatal(err)
	}
	e.serve()
	return e
}

// newKestrelEnv opens the rooms in a new data dir, without a server yet:
// alice owns room kestrel (e.a, described as desc), holding the committed
// sample corpus, and bob is a user.
func newKestrelEnv(t *testing.T, desc string) *researchEnv {
	t.Helper()
	ctx := context.Background()
	e := &researchEnv{&roomsEnv{t: t, dir: t.TempDir()}}
	svc, owner, closeRooms, err := app.OpenRooms(ctx, e.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRooms() })
	e.svc, e.alice = svc, owner
	if e.bob, err = svc.EnsureUser(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if e.a, err = svc.CreateRoom(ctx, e.alice.ID, "kestrel", desc); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../internal/sampleresearch/kestrel/*.md")
	if len(files) == 0 {
		t.Fatal("no sample corpus")
	}
	if err := app.IngestFiles(ctx, svc, e.alice.ID, e.a.ID, files); err != nil {
		t.Fatal(err)
	}
	return e
}

// serve starts a server with researches of its own over the data dir, as
// a new process would have.
func (e *researchEnv) serve() { e.serveWeb(nil) }

// serveWeb is serve with researches that search the web with wc's
// provider, when it is set.
func (e *researchEnv) serveWeb(wc *app.WebConfig) {
	e.serveAs(wc, headerAuth{"alice": e.alice, "bob": e.bob})
}

// serveAs is serveWeb with auth telling the users apart.
func (e *researchEnv) serveAs(wc *app.WebConfig, auth headerAuth) {
	rs, err := app.OpenResearches(e.dir, e.svc, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if wc != nil {
		if err := app.ResearchWeb(rs, *wc); err != nil {
			e.t.Fatal(err)
		}
	}
	a, err := app.Open(context.Background(), app.Options{DataDir: filepath.Join(e.dir, "sessions")})
	if err != nil {
		e.t.Fatal(err)
	}
	h := web.New(a.Investigations, web.Options{Rooms: e.svc, Auth: auth, Research: rs})
	srv := httptest.NewServer(h)
	e.t.Cleanup(func() {
		srv.Close()
		rs.Close()
		a.Close()
	})
	e.srv = srv
}

// post sends a research request as user ("" for nobody).
func (e *researchEnv) post(user, body string) response {
	e.t.Helper()
	return e.do(user, http.MethodPost, "/api/research", "application/json", strings.NewReader(body))
}

func (e *researchEnv) get(user, path string) response {
	e.t.Helper()
	return e.do(user, http.MethodGet, path, "", nil)
}

type stageEvent struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// stages reads a research's event stream as user to its end event.
func (e *researchEnv) stages(user, id string) (stages []stageEvent, end map[string]any) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/research/"+id+"/events", nil)
	req.Header.Set("X-User", user)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(res.Body)
		e.t.Fatalf("events: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	var event string
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			event = v
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if event == "end" {
			if err := json.Unmarshal([]byte(data), &end); err != nil {
				e.t.Fatal(err)
			}
			return stages, end
		}
		var s stageEvent
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			e.t.Fatal(err)
		}
		stages = append(stages, s)
	}
	e.t.Fatalf("the stream ended without an end event after %v", stages)
	return nil, nil
}

const revenueQuestion = "What was Kestrel Dynamics' revenue for fiscal 2024?"

// TestResearchAPI starts a research over alice's room, follows its
// stages, reads its result with the planted restatement resolved, and
// finds it out of bob's reach; after a restart it reads from the store.
func TestResearchAPI(t *testing.T) {
	e := newResearchEnv(t)
	r := e.post("alice", `{"question": "`+revenueQuestion+`", "depth": "quick", "room": "kestrel"}`)
	if r.status != http.StatusAccepted {
		t.Fatalf("POST /api/research: %d %s", r.status, r.body)
	}
	var started struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(r.body, &started); err != nil || started.ID == "" || started.Status != "planning" {
		t.Fatalf("POST /api/research answered %s", r.body)
	}
	if loc := r.header.Get("Location"); loc != "/api/research/"+started.ID {
		t.Errorf("Location %q", loc)
	}

	stages, end := e.stages("alice", started.ID)
	var seen []string
	for _, s := range stages {
		if len(seen) == 0 || seen[len(seen)-1] != s.Status {
			seen = append(seen, s.Status)
		}
		if s.Message == "" {
			t.Errorf("stage %s has no message", s.Status)
		}
	}
	if want := "planning executing verifying synthesizing completed"; strings.Join(seen, " ") != want || end["status"] != "completed" {
		t.Fatalf("stages %v, end %v; want %s, then completed", seen, end, want)
	}

	v := e.view("alice", started.ID)
	if v.Status != "completed" || v.Depth != "quick" || len(v.Facts) == 0 || len(v.Report.Sections) == 0 || v.Report.ExecutiveSummary == "" {
		t.Fatalf("result: %s, %d facts, %d sections", v.Status, len(v.Facts), len(v.Report.Sections))
	}
	facts := map[string]research.FactView{}
	for _, f := range v.Facts {
		facts[f.ID] = f
	}
	for _, s := range v.Report.Sections {
		for _, id := range research.Markers(s.Content) {
			if _, ok := facts[id]; !ok {
				t.Errorf("section %s: [cite:%s] names no fact", s.Title, id)
			}
		}
	}
	// The 10-K/A restates the revenue of the 10-K: the newer correction
	// wins.
	var revenue *research.DiscrepancyView
	for i, d := range v.Discrepancies {
		if strings.Contains(d.Topic, "revenue") {
			revenue = &v.Discrepancies[i]
		}
	}
	if revenue == nil || revenue.Strategy != research.StrategyRecency || !strings.HasPrefix(revenue.Preferred, "$46.9 million") || len(revenue.Sides) < 2 {
		t.Fatalf("revenue discrepancy %+v; want $46.9 million by recency over the 10-K's figure", revenue)
	}

	// Bob reaches none of it, and nobody unnamed does.
	for _, p := range []string{"/api/research/" + started.ID, "/api/research/" + started.ID + "/events"} {
		if r := e.get("bob", p); r.status != http.StatusNotFound || r.code(t) != quarry.ECodeNotFound {
			t.Errorf("bob GET %s: %d %s; want 404 NOT_FOUND", p, r.status, r.body)
		}
		if r := e.get("", p); r.status != http.StatusUnauthorized || r.code(t) != quarry.ECodeUnauthorized {
			t.Errorf("anonymous GET %s: %d %s; want 401", p, r.status, r.body)
		}
	}

	// The stream replays after the end; a new process reads the stored
	// result and its final stage, still for alice alone.
	if again, end := e.stages("alice", started.ID); len(again) != len(stages) || end["status"] != "completed" {
		t.Errorf("replay: %d stages, end %v; want %d, completed", len(again), end, len(stages))
	}
	e.serve()
	if stored := e.view("alice", started.ID); stored.Status != "completed" || len(stored.Facts) != len(v.Facts) || len(stored.Discrepancies) != len(v.Discrepancies) {
		t.Errorf("after a restart: %s, %d facts, %d discrepancies; want the same result", stored.Status, len(stored.Facts), len(stored.Discrepancies))
	}
	if final, end := e.stages("alice", started.ID); len(final) != 1 || final[0].Status != "completed" || end["status"] != "completed" {
		t.Errorf("after a restart the stream is %v, %v; want the final stage", final, end)
	}
	if r := e.get("bob", "/api/research/"+started.ID); r.status != http.StatusNotFound || r.code(t) != quarry.ECodeNotFound {
		t.Errorf("bob after a restart: %d %s; want 404", r.status, r.body)
	}
}

func (e *researchEnv) view(user, id string) research.View {
	e.t.Helper()
	r := e.get(user, "/api/research/"+id)
	if r.status != http.StatusOK {
		e.t.Fatalf("GET /api/research/%s: %d %s", id, r.status, r.body)
	}
	var v research.View
	if err := json.Unmarshal(r.body, &v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

// TestResearchAPIBadInput: each mistake is refused with its status and
// code, and nothing starts.
func TestResearchAPIBadInput(t *testing.T) {
	e := newResearchEnv(t)
	for _, tt := range []struct {
		name, user, body string
		status           int
		code             string
	}{
		{"short question", "alice", `{"question": "revenue?", "room": "kestrel"}`, 422, quarry.ECodeInvalid},
		{"long question", "alice", `{"question": "` + strings.Repeat("why ", 130) + `", "room": "kestrel"}`, 422, quarry.ECodeInvalid},
		{"unknown depth", "alice", `{"question": "` + revenueQuestion + `", "depth": "deep", "room": "kestrel"}`, 422, quarry.ECodeInvalid},
		{"no room", "alice", `{"question": "` + revenueQuestion + `"}`, 422, quarry.ECodeInvalid},
		{"no room, no web", "alice", `{"question": "` + revenueQuestion + `", "room": " ", "web": false}`, 422, quarry.ECodeInvalid},
		{"bob's room and the web", "alice", `{"question": "` + revenueQuestion + `", "room": "bobs", "web": true}`, 422, quarry.ECodeInvalid},
		{"bob's room", "alice", `{"question": "` + revenueQuestion + `", "room": "bobs"}`, 404, quarry.ECodeNotFound},
		{"alice's room for bob", "bob", `{"question": "` + revenueQuestion + `", "room": "kestrel"}`, 404, quarry.ECodeNotFound},
		{"empty room", "bob", `{"question": "` + revenueQuestion + `", "room": "bobs"}`, 422, quarry.ECodeEmptyFile},
		{"not JSON", "alice", `question=revenue`, 400, "BAD_REQUEST"},
		{"unknown field", "alice", `{"q": "` + revenueQuestion + `", "room": "kestrel"}`, 400, "BAD_REQUEST"},
		{"nobody", "", `{"question": "` + revenueQuestion + `", "room": "kestrel"}`, 401, quarry.ECodeUnauthorized},
	} {
		if r := e.post(tt.user, tt.body); r.status != tt.status || r.code(t) != tt.code {
			t.Errorf("%s: %d %s; want %d %s", tt.name, r.status, r.body, tt.status, tt.code)
		}
	}
	for _, p := range []string{"/api/research/no-such-id", "/api/research/no-such-id/events"} {
		if r := e.get("alice", p); r.status != http.StatusNotFound || r.code(t) != quarry.ECodeNotFound {
			t.Errorf("GET %s: %d %s; want 404 NOT_FOUND", p, r.status, r.body)
		}
	}
}

// TestResearchAPIRateLimited: a research over a room is one of the
// user's questions there; with the hour's questions asked, a research
// over the same room answers 429 RATE_LIMITED with Retry-After, as ask
// does. Bob's quota is his own.
func TestResearchAPIRateLimited(t *testing.T) {
	e := newResearchEnv(t)
	for i := range room.QueriesPerHour {
		if r := e.json("alice", "POST", "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": revenueQuestion}); r.status != http.StatusOK {
			t.Fatalf("question %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := e.post("alice", `{"question": "`+revenueQuestion+`", "room": "kestrel"}`)
	if r.status != http.StatusTooManyRequests || r.code(t) != quarry.ECodeRateLimited {
		t.Fatalf("research past the hour's questions: %d %s; want 429 RATE_LIMITED", r.status, r.body)
	}
	if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 || secs > 3601 {
		t.Errorf("Retry-After %q; want the seconds until the hour ends", r.header.Get("Retry-After"))
	}
	if _, err := e.svc.AddMember(context.Background(), e.alice.ID, e.a.ID, e.bob.Name, room.RoleViewer); err != nil {
		t.Fatal(err)
	}
	if r := e.post("bob", `{"question": "`+revenueQuestion+`", "room": "kestrel"}`); r.status != http.StatusAccepted {
		t.Errorf("bob's research in the same room: %d %s; want 202", r.status, r.body)
	}
}

// TestResearchAPIWeb: {"web": true} researches the web, alone or with a
// room, over a local web of recorded pages behind a SearxNG-like
// search; the result cites the pages. A server without a web search
// provider refuses it with INVALID naming the settings, before anything
// runs.
func TestResearchAPIWeb(t *testing.T) {
	e := newResearchEnv(t)
	for _, body := range []string{
		`{"question": "` + websearchtest.KestrelQuestion + `", "web": true}`,
		`{"question": "` + websearchtest.KestrelQuestion + `", "room": "kestrel", "web": true}`,
	} {
		r := e.post("alice", body)
		if r.status != http.StatusUnprocessableEntity || r.code(t) != quarry.ECodeInvalid ||
			!strings.Contains(string(r.body), "QUARRY_SEARXNG_URL") || !strings.Contains(string(r.body), "QUARRY_BRAVE_API_KEY") {
			t.Errorf("POST %s without a provider: %d %s; want 422 INVALID naming the settings", body, r.status, r.body)
		}
	}

	web := websearchtest.Start(t, websearchtest.Kestrel(), false)
	e.serveWeb(&app.WebConfig{SearxNGURL: web.SearchURL(), AllowPrivate: true})
	run := func(body string) research.View {
		t.Helper()
		r := e.post("alice", body)
		if r.status != http.StatusAccepted {
			t.Fatalf("POST %s: %d %s", body, r.status, r.body)
		}
		var started struct{ ID string }
		if err := json.Unmarshal(r.body, &started); err != nil {
			t.Fatal(err)
		}
		if _, end := e.stages("alice", started.ID); end["status"] != "completed" {
			t.Fatalf("POST %s ended %v", body, end)
		}
		return e.view("alice", started.ID)
	}

	v := run(`{"question": "` + websearchtest.KestrelQuestion + `", "depth": "quick", "web": true}`)
	facts := map[string]bool{}
	for _, f := range v.Facts {
		if !strings.HasPrefix(f.SourceURL, web.URL+"/") {
			t.Errorf("fact %q from %s; want the local web's pages", f.Text, f.SourceURL)
		}
		facts[f.ID] = f.Passage != ""
	}
	cited := 0
	for _, s := range v.Report.Sections {
		for _, id := range research.Markers(s.Content) {
			if facts[id] {
				cited++
			}
		}
	}
	if v.Status != "completed" || cited == 0 {
		t.Errorf("research over the web: %s, %d citations of web pages; want completed, citing them", v.Status, cited)
	}
	var revenue bool
	for _, d := range v.Discrepancies {
		revenue = revenue || strings.Contains(d.Topic, "revenue") && strings.HasPrefix(d.Preferred, "$46.9 million")
	}
	if !revenue {
		t.Errorf("discrepancies %+v; want revenue resolved to the filing's $46.9 million", v.Discrepancies)
	}

	both := run(`{"question": "` + websearchtest.KestrelQuestion + `", "depth": "quick", "room": "kestrel", "web": true}`)
	var fromRoom, fromWeb bool
	for _, f := range both.Facts {
		fromRoom = fromRoom || strings.HasPrefix(f.SourceURL, "room://")
		fromWeb = fromWeb || strings.HasPrefix(f.SourceURL, web.URL+"/")
	}
	if !fromRoom || !fromWeb {
		t.Errorf("research over the room and the web: facts from the room %v, from the web %v; want both", fromRoom, fromWeb)
	}
	// The room's permissions still hold with the web.
	if r := e.post("bob", `{"question": "`+websearchtest.KestrelQuestion+`", "room": "kestrel", "web": true}`); r.status != http.StatusNotFound || r.code(t) != quarry.ECodeNotFound {
		t.Errorf("bob over alice's room and the web: %d %s; want 404 NOT_FOUND", r.status, r.body)
	}
}

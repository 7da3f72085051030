package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/web"
	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

// TestResearchPagesWithoutJavaScript starts a research from the form
// over the sample corpus in alice's room and reads its page as a browser
// without JavaScript would, reloading until it has finished: the
// citations link to the facts' rows, which hold the passages' sources,
// and the discrepancies show both sides. Bob finds neither the page nor
// the list entry.
func TestResearchPagesWithoutJavaScript(t *testing.T) {
	e := newResearchEnv(t)
	kestrel, err := e.svc.Room(t.Context(), e.alice.ID, "kestrel")
	if err != nil {
		t.Fatal(err)
	}
	list := e.page("alice", http.MethodGet, "/research", "", nil, false)
	mustContain(t, "the research page", list, `id="research-form"`, `<option value="`+kestrel.ID+`"`, "No research yet", `<a href="/research">Research</a>`)
	// The room's page leads to the form with the room chosen.
	mustContain(t, "the room page", e.page("alice", http.MethodGet, "/rooms/"+kestrel.ID, "", nil, false),
		`<a href="/rooms">Data rooms</a>`, `<a href="/research">Research</a>`, `<a href="/research?room=`+kestrel.ID+`">Research this room</a>`)
	mustContain(t, "the research page from the room", e.page("alice", http.MethodGet, "/research?room="+kestrel.ID, "", nil, false),
		`<option value="`+kestrel.ID+`" selected>`)

	r := e.form("alice", "/research", url.Values{"question": {revenueQuestion}, "depth": {"quick"}, "room": {"kestrel"}}, false)
	loc := r.header.Get("Location")
	if r.status != http.StatusSeeOther || !strings.HasPrefix(loc, "/research/") {
		t.Fatalf("POST /research: %d to %q; want 303 to the research", r.status, loc)
	}
	var page response
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		page = e.page("alice", http.MethodGet, loc, "", nil, false)
		if page.status != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", loc, page.status, page.body)
		}
		if strings.Contains(string(page.body), `data-running="false"`) {
			break
		}
		mustContain(t, "the running page", page, `<meta http-equiv="refresh"`)
		if time.Now().After(deadline) {
			t.Fatalf("the research at %s never finished", loc)
		}
	}
	mustContain(t, "the finished page", page,
		`<span id="research-status" class="badge badge-completed">Completed</span>`,
		`<li class="stage stage-done" id="stage-end" data-stage="completed">`,
		`<a class="cite-ref" href="#fact-`, `<tr id="fact-`,
		`class="source-link" href="/rooms/`+kestrel.ID+`/documents/`,
		`<strong>$46.9 million</strong> <span class="badge badge-completed">Preferred</span>`, `<strong>$48.2 million</strong>`,
		`id="plan-tree"`)
	if strings.Contains(string(page.body), `http-equiv="refresh"`) {
		t.Error("the finished page still refreshes itself")
	}
	// Every citation of the page names a fact row of the page.
	body := string(page.body)
	for _, part := range strings.Split(body, `class="cite-ref" href="#fact-`)[1:] {
		id := part[:strings.IndexByte(part, '"')]
		if !strings.Contains(body, `<tr id="fact-`+id+`"`) {
			t.Errorf("a citation links to fact %s, which has no row", id)
		}
	}

	mustContain(t, "alice's list", e.page("alice", http.MethodGet, "/research", "", nil, false), `href="`+loc+`"`, revenueQuestion[:20])
	if l := e.page("bob", http.MethodGet, "/research", "", nil, false); strings.Contains(string(l.body), loc) {
		t.Error("bob's list shows alice's research")
	}
	for _, p := range []string{loc, "/research/no-such-id"} {
		r := e.page("bob", http.MethodGet, p, "", nil, false)
		if r.status != http.StatusNotFound {
			t.Errorf("bob GET %s: %d; want 404", p, r.status)
		}
		mustContain(t, "bob's page "+p, r, "<h1>Not found</h1>")
	}
	if r := e.form("bob", "/research", url.Values{"question": {revenueQuestion}, "depth": {"quick"}, "room": {"kestrel"}}, false); r.status != http.StatusNotFound {
		t.Errorf("bob researching alice's room: %d; want 404 at the room field", r.status)
	} else {
		mustContain(t, "bob's form", r, `id="research-room-error"`)
	}
}

// TestResearchPagesWeb: the form offers the web only on a server with a
// web search provider, naming it; checked with no room, it starts a
// research of the web alone, whose facts come from the local web's pages
// and whose page links to them.
func TestResearchPagesWeb(t *testing.T) {
	e := newResearchEnv(t)
	list := e.page("alice", http.MethodGet, "/research", "", nil, false)
	if b := string(list.body); strings.Contains(b, `id="research-web"`) || strings.Contains(b, "Also search") {
		t.Error("a server without a web search provider offers the web")
	}

	lweb := websearchtest.Start(t, websearchtest.Kestrel(), false)
	e.serveWeb(&app.WebConfig{SearxNGURL: lweb.SearchURL(), AllowPrivate: true})
	mustContain(t, "the research page with a provider", e.page("alice", http.MethodGet, "/research", "", nil, false),
		`<input type="checkbox" id="research-web" name="web" value="1"`,
		`<label for="research-web">Also search the web (SearxNG at `+lweb.URL,
		`<option value="">None: the web alone</option>`)

	r := e.form("alice", "/research", url.Values{"question": {websearchtest.KestrelQuestion}, "depth": {"quick"}, "room": {""}, "web": {"1"}}, false)
	loc := r.header.Get("Location")
	if r.status != http.StatusSeeOther || !strings.HasPrefix(loc, "/research/") {
		t.Fatalf("POST /research with the web alone: %d to %q; want 303 to the research\n%s", r.status, loc, r.body)
	}
	id := strings.TrimPrefix(loc, "/research/")
	if _, end := e.stages("alice", id); end["status"] != "completed" {
		t.Fatalf("the web research ended %v", end)
	}
	v := e.view("alice", id)
	if len(v.Facts) == 0 {
		t.Fatal("the web research found no fact")
	}
	for _, f := range v.Facts {
		if !strings.HasPrefix(f.SourceURL, lweb.URL+"/") {
			t.Errorf("fact %q from %s; want the local web's pages", f.Text, f.SourceURL)
		}
	}
	mustContain(t, "the web research's page", e.page("alice", http.MethodGet, loc, "", nil, false),
		`class="source-link" href="`+lweb.URL+`/`)
}

// TestBrowserResearchFormWeb checks the form with the web offered, then
// with an error, with axe-core in headless Chromium, and starts a
// research of the web alone from it.
func TestBrowserResearchFormWeb(t *testing.T) {
	e := newResearchEnv(t)
	lweb := websearchtest.Start(t, websearchtest.Kestrel(), false)
	rs, err := app.OpenResearches(e.dir, e.svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.ResearchWeb(rs, app.WebConfig{SearxNGURL: lweb.SearchURL(), AllowPrivate: true}); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(context.Background(), app.Options{DataDir: filepath.Join(e.dir, "browser-sessions")})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(a.Investigations, web.Options{Rooms: e.svc, Auth: headerAuth{"": e.alice}, Research: rs}))
	t.Cleanup(func() {
		srv.Close()
		rs.Close()
		a.Close()
	})
	b := newBrowser(t, srv.URL, true)

	b.open("/research")
	b.waitFor("the web's box", `!!document.querySelector("#research-web")`)
	if got := b.text(`label[for="research-web"]`); !strings.HasPrefix(got, "Also search the web (SearxNG at ") {
		t.Errorf("the web's label reads %q; want it to name the provider", got)
	}
	checkA11yAll(b, "research form with the web")
	b.screenshot("research-web-01-form")

	b.set("#research-question", "revenue?")
	b.click("#research-web")
	b.click("#start-research")
	b.waitFor("the question's error", `!!document.querySelector("#research-question-error")`)
	if !evalJS[bool](b, `document.querySelector("#research-web").checked`) {
		t.Error("the web's box is unchecked after an error")
	}
	checkA11yAll(b, "research form with the web and an error")

	b.set("#research-question", websearchtest.KestrelQuestion)
	b.click("#depth-quick")
	if !evalJS[bool](b, `(s => (s.value = "", s.value === ""))(document.querySelector("#research-room"))`) {
		b.fail("the room picker does not offer the web alone")
	}
	b.click("#start-research")
	b.waitFor("the research's page", `location.pathname.startsWith("/research/") && !!document.querySelector("#stages")`)
	// The end stage turns done from the progress stream before the page
	// reloads with the results, so wait for the reloaded page's summary.
	b.waitFor("the research to complete", `document.querySelector("#stage-end")?.classList.contains("stage-done") && !!document.querySelector("#executive-summary")`)
	if n := evalJS[int](b, `document.querySelectorAll('a.source-link[href^="`+lweb.URL+`/"]').length`); n == 0 {
		t.Error("the web research's page links to none of the local web's pages")
	}
}

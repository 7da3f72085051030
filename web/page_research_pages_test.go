package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
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

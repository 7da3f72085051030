package web_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/room"
)

// page requests a page as user without following redirects; htmx marks
// it as htmx's.
func (e *roomsEnv) page(user, method, path, contentType string, body io.Reader, htmx bool) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("X-User", user)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (e *roomsEnv) form(user, path string, v url.Values, htmx bool) response {
	e.t.Helper()
	return e.page(user, "POST", path, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()), htmx)
}

func (e *roomsEnv) uploadForm(user, roomID, name string, content []byte, htmx bool) response {
	e.t.Helper()
	ct, body := fileForm(name, content)
	return e.page(user, "POST", "/rooms/"+roomID+"/documents", ct, body, htmx)
}

func mustContain(t *testing.T, what string, r response, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(string(r.body), w) {
			t.Errorf("%s (%d) lacks %q:\n%.3000s", what, r.status, w, r.body)
		}
	}
}

func TestRoomsPagesWithoutJavaScript(t *testing.T) {
	e := newRoomsEnv(t)
	list := e.page("alice", "GET", "/rooms", "", nil, false)
	mustContain(t, "the rooms page", list, `<a href="/rooms">Data rooms</a>`, "deal-a", `id="new-room-form"`)
	if strings.Contains(string(list.body), "deal-b") {
		t.Error("the rooms page lists bob's room to alice")
	}
	if strings.Contains(string(list.body), `href="/research`) {
		t.Error("the rooms page links to research on a server without it")
	}

	bad := e.form("alice", "/rooms", url.Values{"name": {"deal-a"}}, false)
	if bad.status != http.StatusConflict {
		t.Errorf("a taken name: %d; want 409", bad.status)
	}
	mustContain(t, "the rooms page with an error", bad, `class="error-summary"`, `aria-invalid="true"`, `id="room-name-error"`, `value="deal-a"`)

	created := e.form("alice", "/rooms", url.Values{"name": {"deal-new"}, "description": {"fresh"}}, false)
	loc := created.header.Get("Location")
	if created.status != http.StatusSeeOther || !strings.HasPrefix(loc, "/rooms/") {
		t.Fatalf("create: %d to %q; want 303 to the room", created.status, loc)
	}
	roomID := strings.TrimPrefix(loc, "/rooms/")

	up := e.uploadForm("alice", roomID, "harbor-10k.pdf", filingPDF(), false)
	if up.status != http.StatusSeeOther || !strings.Contains(up.header.Get("Location"), "#doc-") {
		t.Fatalf("upload: %d to %q", up.status, up.header.Get("Location"))
	}
	md := "# Supply terms\n\nThe supplier may terminate this agreement for convenience on ninety days written notice to the buyer.\n"
	if r := e.uploadForm("alice", roomID, "terms.md", []byte(md), false); r.status != http.StatusSeeOther {
		t.Fatalf("upload terms.md: %d", r.status)
	}
	waitCompleted(t, e, roomID, 2)
	rp := e.page("alice", "GET", "/rooms/"+roomID, "", nil, false)
	mustContain(t, "the room page", rp, "deal-new", "harbor-10k.pdf", "Completed", `id="ask-form"`, `id="upload-form"`, `data-events-url="/api/rooms/`+roomID+`/events"`)
	if strings.Contains(string(rp.body), `http-equiv="refresh"`) {
		t.Error("the room page reloads itself with every document completed")
	}
	if strings.Contains(string(rp.body), "Research this room") {
		t.Error("the room page offers research on a server without it")
	}

	// Ask: 303 to the answer, whose citation opens the page.
	asked := e.form("alice", "/rooms/"+roomID+"/ask", url.Values{"question": {capexQuestion}}, false)
	answerURL := asked.header.Get("Location")
	if asked.status != http.StatusSeeOther || !strings.Contains(answerURL, "/queries/") {
		t.Fatalf("ask: %d to %q", asked.status, answerURL)
	}
	answer := e.page("alice", "GET", answerURL, "", nil, false)
	mustContain(t, "the answer page", answer, capex, `class="cite-ref"`, ">[1]</a>", "harbor-10k.pdf, page 2", `class="feedback-form"`)
	cite := regexp.MustCompile(`<a class="citation-link" href="([^"]+)"`).FindStringSubmatch(string(answer.body))
	if cite == nil {
		t.Fatal("no citation link on the answer page")
	}
	citeURL := strings.ReplaceAll(cite[1], "&amp;", "&")
	pv := e.page("alice", "GET", citeURL, "", nil, false)
	mustContain(t, "the cited page", pv, `<img id="page-image" src="/api/rooms/`+roomID+`/documents/`, `/pages/2/image"`, `width="850" height="1100"`,
		`<svg class="page-highlights" viewBox="0 0 612 792"`, `<rect class="highlight"`, `<mark id="passage-text">`, "Citation [1]", "Back to the answer")
	marked := regexp.MustCompile(`(?s)<mark id="passage-text">(.*?)</mark>`).FindStringSubmatch(string(pv.body))
	if marked == nil || !strings.Contains(marked[1], capex) {
		t.Errorf("the marked passage %q does not hold %s", marked, capex)
	}

	// The Markdown document's page shows its text with the passage marked.
	var q room.Query
	decode(t, e.json("alice", "POST", "/api/rooms/"+roomID+"/ask", map[string]string{"question": "Can the supplier terminate for convenience?"}), &q)
	if len(q.Citations) == 0 {
		t.Fatalf("no citation for the termination question: %s", q.Answer)
	}
	c := q.Citations[0]
	mdPage := e.page("alice", "GET", "/rooms/"+roomID+"/documents/"+c.DocumentID+"/pages/1?chunk="+c.ChunkID, "", nil, false)
	mustContain(t, "the Markdown page", mdPage, `<mark id="passage-text">`, "terminate this agreement for convenience")
	if strings.Contains(string(mdPage.body), "<img") || strings.Contains(string(mdPage.body), "page-highlights") {
		t.Error("the Markdown page shows an image")
	}

	// Feedback without JavaScript.
	fb := e.form("alice", answerURL+"/feedback", url.Values{"rating": {"helpful"}, "comment": {"right page"}}, false)
	if fb.status != http.StatusSeeOther {
		t.Fatalf("feedback: %d", fb.status)
	}
	saved := e.page("alice", "GET", fb.header.Get("Location"), "", nil, false)
	mustContain(t, "the answer after feedback", saved, "Thanks: saved as helpful", `value="helpful" class="button small secondary" aria-pressed="true"`, "right page")

	hist := e.page("alice", "GET", "/rooms/"+roomID+"/history", "", nil, false)
	mustContain(t, "the history", hist, capexQuestion, "Can the supplier terminate", `id="export-history"`)
	del := e.form("alice", "/rooms/"+roomID+"/history/delete", nil, false)
	after := e.page("alice", "GET", del.header.Get("Location"), "", nil, false)
	mustContain(t, "the history after its delete", after, "Deleted 2 questions", "No questions yet.")

	// Another's room is not found, and says nothing of it.
	other := e.page("alice", "GET", "/rooms/"+e.b.ID, "", nil, false)
	if other.status != http.StatusNotFound || strings.Contains(string(other.body), "deal-b") {
		t.Errorf("bob's room as alice: %d; want 404 without its name", other.status)
	}
}

func TestRoomsPagesWithHTMX(t *testing.T) {
	e := newRoomsEnv(t)
	base := "/rooms/" + e.a.ID

	r := e.uploadForm("alice", e.a.ID, "harbor-10k.pdf", filingPDF(), true)
	if r.status != 200 {
		t.Fatalf("htmx upload: %d %s", r.status, r.body)
	}
	mustContain(t, "the htmx upload", r, `<tr id="doc-`, `class="doc-row"`, `id="upload-error-slot" hx-swap-oob="true"`, `id="upload-status"`, "harbor-10k.pdf uploaded")

	bad := e.uploadForm("alice", e.a.ID, "virus.exe", []byte("MZ"), true)
	if bad.status != http.StatusUnsupportedMediaType || bad.header.Get("HX-Retarget") != "#upload-error-slot" {
		t.Errorf("a bad htmx upload: %d, retarget %q", bad.status, bad.header.Get("HX-Retarget"))
	}
	mustContain(t, "a bad htmx upload", bad, `id="upload-error"`)
	viewer := e.uploadForm("vic", e.a.ID, "notes.md", []byte("# Notes\n\nA viewer's document that must be refused by the room."), true)
	if viewer.status != http.StatusForbidden {
		t.Errorf("a viewer's htmx upload: %d; want 403", viewer.status)
	}

	waitCompleted(t, e, e.a.ID, 1)
	var docs struct{ Documents []room.Document }
	decode(t, e.json("alice", "GET", "/api/rooms/"+e.a.ID+"/documents", nil), &docs)
	row := e.page("alice", "GET", base+"/documents/"+docs.Documents[0].ID, "", nil, true)
	mustContain(t, "the row after processing", row, `data-status="completed"`, "Completed", "/pages/1")

	short := e.form("vic", base+"/ask", url.Values{"question": {"why"}}, true)
	if short.status != http.StatusUnprocessableEntity || short.header.Get("HX-Retarget") != "#ask-error-slot" {
		t.Errorf("a short question: %d, retarget %q", short.status, short.header.Get("HX-Retarget"))
	}
	mustContain(t, "a short question", short, `id="ask-error"`, "5 to 2000")

	ans := e.form("vic", base+"/ask", url.Values{"question": {capexQuestion}}, true)
	if ans.status != 200 {
		t.Fatalf("htmx ask: %d %s", ans.status, ans.body)
	}
	mustContain(t, "the htmx answer", ans, `<article class="answer card"`, capex, `class="citation-link"`, `id="ask-error-slot" hx-swap-oob="true"`)
	id := regexp.MustCompile(`id="query-([^"]+)"`).FindStringSubmatch(string(ans.body))[1]
	fb := e.form("vic", base+"/queries/"+id+"/feedback", url.Values{"rating": {"not_helpful"}, "comment": {strings.Repeat("x", 2001)}}, true)
	if fb.status != http.StatusUnprocessableEntity {
		t.Errorf("a long comment: %d; want 422", fb.status)
	}
	mustContain(t, "a long comment", fb, `id="feedback-error-`+id+`"`, `aria-invalid="true"`)
	fb = e.form("vic", base+"/queries/"+id+"/feedback", url.Values{"rating": {"not_helpful"}}, true)
	mustContain(t, "feedback", fb, "Thanks: saved as not helpful")
}

// waitCompleted waits until n documents of the room are completed.
func waitCompleted(t *testing.T, e *roomsEnv, roomID string, n int) {
	t.Helper()
	for range 1500 {
		var docs struct{ Documents []room.Document }
		decode(t, e.json("alice", "GET", "/api/rooms/"+roomID+"/documents", nil), &docs)
		done := 0
		for _, d := range docs.Documents {
			if d.Status == room.StatusFailed {
				t.Fatalf("%s failed: %s", d.Name, d.Error)
			}
			if d.Status == room.StatusCompleted {
				done++
			}
		}
		if done == n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("fewer than %d documents completed", n)
}

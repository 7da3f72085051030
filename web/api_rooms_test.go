package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/web"
)

const capexQuestion = "What were capital expenditures in fiscal 2023?"

func TestRoomsAPIRoomsAndMembers(t *testing.T) {
	e := newRoomsEnv(t)
	for _, c := range []struct {
		user, method, path string
		body               any
		status             int
		code               string
	}{
		{"alice", "POST", "/api/rooms", map[string]string{"name": "deal-c", "description": "a third"}, 201, ""},
		{"alice", "POST", "/api/rooms", map[string]string{"name": "DEAL-C"}, 409, "CONFLICT"}, // her own, by another case
		{"alice", "POST", "/api/rooms", map[string]string{"name": "  "}, 422, "INVALID"},
		{"alice", "POST", "/api/rooms", map[string]string{"name": "a/b"}, 422, "INVALID"},
		{"alice", "POST", "/api/rooms", map[string]any{"name": 7}, 400, "BAD_REQUEST"},
		{"", "GET", "/api/rooms", nil, 401, "UNAUTHORIZED"},
		{"alice", "GET", "/api/rooms/" + e.a.ID, nil, 200, ""},
		{"alice", "GET", "/api/rooms/deal-a", nil, 200, ""}, // by name
		{"alice", "GET", "/api/rooms/deal-b", nil, 404, "NOT_FOUND"},
		{"alice", "GET", "/api/rooms/" + e.a.ID + "/members", nil, 200, ""},
		{"alice", "POST", "/api/rooms/" + e.a.ID + "/members", map[string]string{"user_name": "carol", "role": "editor"}, 201, ""},
		{"alice", "PUT", "/api/rooms/" + e.a.ID + "/members/carol", map[string]string{"role": "viewer"}, 200, ""},
		{"alice", "PUT", "/api/rooms/" + e.a.ID + "/members/carol", map[string]string{"role": "admin"}, 422, "INVALID"},
		{"alice", "PUT", "/api/rooms/" + e.a.ID + "/members/alice", map[string]string{"role": "viewer"}, 409, "CONFLICT"}, // the last owner
		{"vic", "POST", "/api/rooms/" + e.a.ID + "/members", map[string]string{"user_name": "mallory", "role": "owner"}, 403, "FORBIDDEN"},
		{"vic", "POST", "/api/rooms", map[string]string{"name": "vic's own"}, 201, ""},
		{"vic", "DELETE", "/api/rooms/" + e.a.ID, nil, 403, "FORBIDDEN"}, // owners delete a room
		{"bob", "DELETE", "/api/rooms/" + e.a.ID, nil, 404, "NOT_FOUND"},
		{"alice", "PATCH", "/api/rooms/" + e.a.ID, nil, 405, "METHOD_NOT_ALLOWED"},
		// Bob's room's name is alice's to use, and nothing says he has it.
		{"alice", "POST", "/api/rooms", map[string]string{"name": "deal-b"}, 201, ""},
		{"alice", "GET", "/api/rooms/deal-b", nil, 200, ""},
	} {
		r := e.json(c.user, c.method, c.path, c.body)
		if r.status != c.status || (c.code != "" && r.code(t) != c.code) {
			t.Errorf("%s %s %s as %q = %d %s; want %d %s", c.method, c.path, c.body, c.user, r.status, r.body, c.status, c.code)
		}
	}
	var list struct{ Rooms []room.Room }
	decode(t, e.json("alice", "GET", "/api/rooms", nil), &list)
	var names []string
	for _, r := range list.Rooms {
		names = append(names, r.Name+":"+r.Role)
		if r.ID == e.b.ID {
			t.Errorf("alice's rooms include bob's deal-b")
		}
	}
	if got := strings.Join(names, ","); got != "deal-a:owner,deal-b:owner,deal-c:owner" {
		t.Errorf("alice's rooms %s; want deal-a, her own deal-b and deal-c, as owner", got)
	}
	var members struct{ Members []room.Member }
	decode(t, e.json("alice", "GET", "/api/rooms/"+e.a.ID+"/members", nil), &members)
	roles := map[string]string{}
	for _, m := range members.Members {
		roles[m.UserName] = m.Role
	}
	if roles["alice"] != "owner" || roles["vic"] != "viewer" || roles["carol"] != "viewer" || len(roles) != 3 {
		t.Errorf("members %v; want alice owner, vic and carol viewers", roles)
	}
}

func TestRoomsAPIDocumentsPagesAndAsk(t *testing.T) {
	e := newRoomsEnv(t)
	pdf := filingPDF()
	d := e.document("alice", e.a.ID, "harbor-10k.pdf", pdf)
	base := "/api/rooms/" + e.a.ID
	doc := base + "/documents/" + d.ID
	if d.PageCount != 2 || d.ChunkCount == 0 || d.Format != "pdf" {
		t.Fatalf("document %+v; want a PDF of 2 pages with chunks", d)
	}

	var docs struct{ Documents []room.Document }
	decode(t, e.json("vic", "GET", base+"/documents", nil), &docs)
	if len(docs.Documents) != 1 || docs.Documents[0].Status != room.StatusCompleted {
		t.Errorf("the viewer's list %+v; want the completed document", docs.Documents)
	}
	var pages struct {
		Pages []struct {
			Number int `json:"page_number"`
			Chars  int `json:"chars"`
		}
	}
	decode(t, e.json("vic", "GET", doc+"/pages", nil), &pages)
	if len(pages.Pages) != 2 || pages.Pages[1].Number != 2 || pages.Pages[1].Chars == 0 {
		t.Errorf("pages %+v; want two with text", pages.Pages)
	}
	var page struct{ Page room.Page }
	decode(t, e.json("vic", "GET", doc+"/pages/2", nil), &page)
	if !strings.Contains(page.Page.Text, capex) {
		t.Errorf("page 2 reads %q; want the capital expenditures", page.Page.Text)
	}
	for _, p := range []string{"/pages/3", "/pages/0", "/pages/two", "/pages/3/image"} {
		if r := e.json("vic", "GET", doc+p, nil); r.status != 404 || r.code(t) != "NOT_FOUND" {
			t.Errorf("GET %s = %d %s; want 404 NOT_FOUND", p, r.status, r.body)
		}
	}

	img := e.json("vic", "GET", doc+"/pages/2/image", nil)
	if img.status != 200 || img.header.Get("Content-Type") != "image/png" || !bytes.HasPrefix(img.body, []byte("\x89PNG")) {
		t.Fatalf("page image: %d %s %.40q", img.status, img.header.Get("Content-Type"), img.body)
	}
	if r := e.json("vic", "GET", doc+"/pages/2/image?dpi=2000", nil); r.status != 422 || r.code(t) != "INVALID" {
		t.Errorf("dpi 2000: %d %s; want 422 INVALID", r.status, r.body)
	}
	file := e.json("vic", "GET", doc+"/file", nil)
	if file.status != 200 || !bytes.Equal(file.body, pdf) || !strings.HasPrefix(file.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("download: %d %q, %d bytes; want the original as an attachment", file.status, file.header.Get("Content-Disposition"), len(file.body))
	}

	// Ask: the CLI's --json fields, the answer on page 2.
	r := e.json("vic", "POST", base+"/ask", map[string]string{"question": capexQuestion})
	if r.status != 200 {
		t.Fatalf("ask: %d %s", r.status, r.body)
	}
	var raw map[string]any
	decode(t, r, &raw)
	for _, k := range []string{"query_id", "answer_type", "answer", "citations", "retrieval_time_ms", "total_time_ms"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("the answer lacks %q: %s", k, r.body)
		}
	}
	var q room.Query
	decode(t, r, &q)
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, capex) || len(q.Citations) == 0 {
		t.Fatalf("answer %s %q; want grounded, quoting %s", q.AnswerType, q.Answer, capex)
	}
	c := q.Citations[0]
	if c.Rank != 1 || c.PageNumber != 2 || c.DocumentID != d.ID || c.DocumentName != "harbor-10k.pdf" || c.RelevanceScore <= 0 || c.RelevanceScore > 1 || c.TextPreview == "" {
		t.Errorf("first citation %+v; want rank 1 on page 2 of the filing", c)
	}

	// The cited chunk and where it lies on the page.
	var chunk room.Chunk
	decode(t, e.json("vic", "GET", base+"/chunks/"+c.ChunkID, nil), &chunk)
	if chunk.PageNumber != 2 || !strings.Contains(chunk.Text, capex) {
		t.Errorf("chunk %+v; want page 2's passage", chunk)
	}
	var hl struct {
		Width, Height float64
		Boxes         []struct{ X, Y, W, H float64 }
		Matched       string
	}
	decode(t, e.json("vic", "GET", doc+"/pages/2/highlight?chunk="+c.ChunkID, nil), &hl)
	if hl.Matched != "exact" || len(hl.Boxes) < 3 || hl.Width != 612 || hl.Height != 792 {
		t.Errorf("highlight %+v; want an exact match over several lines of a Letter page", hl)
	}
	// The capex line is the third line from the top: 72 + 2*16 points
	// below the top margin's baseline.
	if len(hl.Boxes) > 0 && (hl.Boxes[0].Y > 90 || hl.Boxes[0].X > 80) {
		t.Errorf("first highlight box %+v; want it at the top left where page 2's text starts", hl.Boxes[0])
	}
	if r := e.json("vic", "GET", doc+"/pages/1/highlight?chunk="+c.ChunkID, nil); r.status != 404 {
		t.Errorf("the chunk of page 2 on page 1: %d %s; want 404", r.status, r.body)
	}

	// The query, feedback, errors.
	qpath := base + "/queries/" + q.ID
	if r := e.json("vic", "GET", qpath, nil); r.status != 200 {
		t.Errorf("GET query: %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		body   any
		status int
		code   string
	}{
		{map[string]string{"rating": "helpful", "comment": "spot on"}, 200, ""},
		{map[string]string{"rating": "not_helpful", "comment": "changed my mind"}, 200, ""},
		{map[string]string{"rating": "meh"}, 422, "INVALID"},
		{map[string]string{"rating": "helpful", "comment": strings.Repeat("x", 2001)}, 422, "INVALID"},
		{"helpful", 400, "BAD_REQUEST"},
	} {
		r := e.json("vic", "PUT", qpath+"/feedback", c.body)
		if r.status != c.status || (c.code != "" && r.code(t) != c.code) {
			t.Errorf("feedback %v = %d %s; want %d %s", c.body, r.status, r.body, c.status, c.code)
		}
	}
	decode(t, e.json("vic", "GET", qpath, nil), &q)
	if q.Feedback == nil || q.Feedback.Rating != room.RatingNotHelpful || q.Feedback.Comment != "changed my mind" {
		t.Errorf("feedback %+v; want the second rating", q.Feedback)
	}
	// Another member's query is not theirs to see.
	if r := e.json("alice", "GET", qpath, nil); r.status != 404 {
		t.Errorf("alice reads vic's query: %d; want 404", r.status)
	}
	for _, c := range []struct {
		body   any
		status int
		code   string
	}{
		{map[string]string{"question": "why"}, 422, "INVALID"},
		{map[string]string{"question": strings.Repeat("why ", 600)}, 422, "INVALID"},
		{map[string]string{"q": "What is capex?"}, 400, "BAD_REQUEST"},
	} {
		r := e.json("vic", "POST", base+"/ask", c.body)
		if r.status != c.status || r.code(t) != c.code {
			t.Errorf("ask %v = %d %s; want %d %s", c.body, r.status, r.body, c.status, c.code)
		}
	}

	// Viewers read; editors and owners change documents.
	if r := e.upload("vic", e.a.ID, "notes.md", []byte("# Notes\n\nThe viewer may not add this document to the room at all.")); r.status != 403 || r.code(t) != "FORBIDDEN" {
		t.Errorf("a viewer uploads: %d %s; want 403 FORBIDDEN", r.status, r.body)
	}
	if r := e.json("vic", "DELETE", doc, nil); r.status != 403 || r.code(t) != "FORBIDDEN" {
		t.Errorf("a viewer deletes: %d %s; want 403 FORBIDDEN", r.status, r.body)
	}
	if r := e.json("alice", "DELETE", doc, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	for _, p := range []string{doc, doc + "/file", doc + "/pages/2", base + "/chunks/" + c.ChunkID} {
		if r := e.json("alice", "GET", p, nil); r.status != 404 {
			t.Errorf("GET %s after the delete = %d; want 404", p, r.status)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "rooms", e.a.ID, "documents", d.ID)); !os.IsNotExist(err) {
		t.Errorf("the deleted document's files are still there: %v", err)
	}
}

func TestRoomsAPIHistory(t *testing.T) {
	e := newRoomsEnv(t)
	e.document("alice", e.a.ID, "harbor-10k.pdf", filingPDF())
	base := "/api/rooms/" + e.a.ID
	questions := []string{capexQuestion, "Where are the terminals? Write to jane.doe@example.com", "What is expected spending in fiscal 2024?"}
	for _, q := range questions {
		if r := e.json("alice", "POST", base+"/ask", map[string]string{"question": q}); r.status != 200 {
			t.Fatalf("ask %q: %d %s", q, r.status, r.body)
		}
		time.Sleep(2 * time.Millisecond) // distinct created_at for the pages
	}
	e.json("vic", "POST", base+"/ask", map[string]string{"question": "vic's own question about capex"})

	var page struct {
		Queries    []room.Query
		NextBefore string `json:"next_before"`
	}
	decode(t, e.json("alice", "GET", base+"/history?limit=2", nil), &page)
	if len(page.Queries) != 2 || page.Queries[0].Question != questions[2] || page.NextBefore == "" {
		t.Fatalf("first page %+v; want the newest two and where the next starts", page)
	}
	next := page.NextBefore
	page.NextBefore = ""
	decode(t, e.json("alice", "GET", base+"/history?limit=2&before="+next, nil), &page)
	if len(page.Queries) != 1 || page.Queries[0].Question != questions[0] || page.NextBefore != "" {
		t.Errorf("second page %+v; want the oldest question and no next page", page.Queries)
	}
	for _, p := range []string{"?limit=0", "?limit=101", "?before=yesterday"} {
		if r := e.json("alice", "GET", base+"/history"+p, nil); r.status != 422 {
			t.Errorf("history%s = %d; want 422", p, r.status)
		}
	}

	ex := e.json("alice", "GET", base+"/history/export", nil)
	if ex.status != 200 || !strings.Contains(ex.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %d %q", ex.status, ex.header.Get("Content-Disposition"))
	}
	if bytes.Contains(ex.body, []byte("jane.doe@example.com")) || !bytes.Contains(ex.body, []byte("[redacted]")) {
		t.Errorf("the export does not mask the e-mail address:\n%.600s", ex.body)
	}
	var export struct{ Queries []room.Query }
	decode(t, ex, &export)
	if len(export.Queries) != 3 {
		t.Errorf("export holds %d queries; want alice's 3", len(export.Queries))
	}

	var del struct{ Deleted int }
	decode(t, e.json("alice", "DELETE", base+"/history", nil), &del)
	if del.Deleted != 3 {
		t.Errorf("deleted %d; want 3", del.Deleted)
	}
	decode(t, e.json("alice", "GET", base+"/history", nil), &page)
	if len(page.Queries) != 0 {
		t.Errorf("history after the delete: %d queries", len(page.Queries))
	}
	decode(t, e.json("vic", "GET", base+"/history", nil), &page)
	if len(page.Queries) != 1 {
		t.Errorf("vic's history after alice deleted hers: %d queries; want 1", len(page.Queries))
	}
}

// TestRoomsAPINoPathToAnotherRoom tries every path to room B's content as
// alice, who owns room A only, and as vic, a viewer of A: with B's ids in
// B's paths, and with B's ids under A's paths.
func TestRoomsAPINoPathToAnotherRoom(t *testing.T) {
	e := newRoomsEnv(t)
	dA := e.document("alice", e.a.ID, "harbor-10k.pdf", filingPDF())
	dB := e.document("bob", e.b.ID, "harbor-10k-copy.pdf", filingPDF())
	var qB, qA room.Query
	decode(t, e.json("bob", "POST", "/api/rooms/"+e.b.ID+"/ask", map[string]string{"question": capexQuestion}), &qB)
	decode(t, e.json("alice", "POST", "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": capexQuestion}), &qA)
	if len(qB.Citations) == 0 || len(qA.Citations) == 0 {
		t.Fatal("the answers cite nothing")
	}
	chunkB := qB.Citations[0].ChunkID

	paths := func(roomID string) []struct{ method, path string } {
		docB := "/api/rooms/" + roomID + "/documents/" + dB.ID
		return []struct{ method, path string }{
			{"GET", "/api/rooms/" + roomID},
			{"GET", "/api/rooms/" + roomID + "/members"},
			{"POST", "/api/rooms/" + roomID + "/members"},
			{"PUT", "/api/rooms/" + roomID + "/members/alice"},
			{"GET", "/api/rooms/" + roomID + "/documents"},
			{"POST", "/api/rooms/" + roomID + "/documents"},
			{"GET", docB},
			{"DELETE", docB},
			{"GET", docB + "/file"},
			{"GET", docB + "/pages"},
			{"GET", docB + "/pages/2"},
			{"GET", docB + "/pages/2/image"},
			{"GET", docB + "/pages/2/highlight?chunk=" + chunkB},
			{"GET", "/api/rooms/" + roomID + "/chunks/" + chunkB},
			{"GET", "/api/rooms/" + roomID + "/events"},
			{"POST", "/api/rooms/" + roomID + "/ask"},
			{"GET", "/api/rooms/" + roomID + "/queries/" + qB.ID},
			{"PUT", "/api/rooms/" + roomID + "/queries/" + qB.ID + "/feedback"},
			{"GET", "/api/rooms/" + roomID + "/history"},
			{"DELETE", "/api/rooms/" + roomID + "/history"},
			{"GET", "/api/rooms/" + roomID + "/history/export"},
		}
	}
	bodies := map[string]any{
		"/members": map[string]string{"user_name": "alice", "role": "owner"}, "/alice": map[string]string{"role": "owner"},
		"/ask": map[string]string{"question": capexQuestion}, "/feedback": map[string]string{"rating": "helpful"},
	}
	for _, user := range []string{"alice", "vic"} {
		// B's paths, and B's ids under room A's paths (chunk, document
		// and query ids of B addressed through a room the user is in).
		for _, roomID := range []string{e.b.ID, e.b.Name, e.a.ID} {
			for _, p := range paths(roomID) {
				if roomID == e.a.ID && !strings.Contains(p.path, dB.ID) && !strings.Contains(p.path, chunkB) && !strings.Contains(p.path, qB.ID) {
					continue // A's own paths
				}
				var r response
				if p.method == "POST" && strings.HasSuffix(p.path, "/documents") {
					r = e.upload(user, roomID, "leak.md", []byte("# Leak\n\nA document that must not land in another's room."))
				} else {
					body := bodies[p.path[strings.LastIndex(p.path, "/"):]]
					r = e.json(user, p.method, p.path, body)
				}
				if r.status != 404 && r.status != 403 {
					t.Errorf("%s %s %s as %s = %d %.200s; want 404 or 403", p.method, p.path, "", user, r.status, r.body)
					continue
				}
				if code := r.code(t); code != "NOT_FOUND" && code != "FORBIDDEN" {
					t.Errorf("%s %s as %s: code %s", p.method, p.path, user, code)
				}
				if bytes.Contains(r.body, []byte(capex)) || bytes.Contains(r.body, []byte(dB.Name)) {
					t.Errorf("%s %s as %s answers with B's content: %s", p.method, p.path, user, r.body)
				}
			}
		}
	}
	// Nothing of B changed.
	var docs struct{ Documents []room.Document }
	decode(t, e.json("bob", "GET", "/api/rooms/"+e.b.ID+"/documents", nil), &docs)
	if len(docs.Documents) != 1 || docs.Documents[0].ID != dB.ID {
		t.Errorf("room B's documents after the attempts: %+v", docs.Documents)
	}
	var q room.Query
	decode(t, e.json("bob", "GET", "/api/rooms/"+e.b.ID+"/queries/"+qB.ID, nil), &q)
	if q.Feedback != nil {
		t.Errorf("bob's answer got feedback from outside: %+v", q.Feedback)
	}
	var members struct{ Members []room.Member }
	decode(t, e.json("bob", "GET", "/api/rooms/"+e.b.ID+"/members", nil), &members)
	if len(members.Members) != 1 {
		t.Errorf("room B's members after the attempts: %+v", members.Members)
	}
	// A member of both rooms reaches B's content only through B's paths.
	ctx := context.Background()
	if _, err := e.svc.AddMember(ctx, e.alice.ID, e.a.ID, "bob", room.RoleViewer); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/documents/" + dB.ID, "/documents/" + dB.ID + "/pages/2", "/chunks/" + chunkB, "/queries/" + qB.ID} {
		if r := e.json("bob", "GET", "/api/rooms/"+e.a.ID+p, nil); r.status != 404 {
			t.Errorf("GET room A's %s with B's id as a member of both: %d; want 404", p, r.status)
		}
		if r := e.json("bob", "GET", "/api/rooms/"+e.b.ID+p, nil); r.status != 200 {
			t.Errorf("GET room B's %s as its owner: %d; want 200", p, r.status)
		}
	}
	// A's own documents are still served to A's members.
	if r := e.json("vic", "GET", "/api/rooms/"+e.a.ID+"/documents/"+dA.ID, nil); r.status != 200 {
		t.Errorf("vic reads A's document: %d", r.status)
	}
}

func TestRoomsAPIRateLimited(t *testing.T) {
	e := newRoomsEnv(t)
	ctx := context.Background()
	window := time.Now().UTC().Truncate(time.Hour)
	for range room.QueriesPerHour {
		if ok, _, err := e.store.TakeQuota(ctx, e.vic.ID, e.a.ID, window, room.QueriesPerHour); err != nil || !ok {
			t.Fatalf("take quota: %v %v", ok, err)
		}
	}
	r := e.json("vic", "POST", "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": capexQuestion})
	if r.status != http.StatusTooManyRequests || r.code(t) != "RATE_LIMITED" {
		t.Fatalf("the 61st question: %d %s; want 429 RATE_LIMITED", r.status, r.body)
	}
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 || secs > 3601 {
		t.Errorf("Retry-After %q; want the seconds until the hour ends", r.header.Get("Retry-After"))
	}
	// Alice's own quota in the room is untouched.
	if r := e.json("alice", "POST", "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": capexQuestion}); r.status != 200 {
		t.Errorf("alice asks: %d %s", r.status, r.body)
	}
}

func TestRoomsAPIBadUploads(t *testing.T) {
	e := newRoomsEnv(t)
	for _, c := range []struct {
		name    string
		content []byte
		status  int
		code    string
	}{
		{"empty.pdf", nil, 422, "EMPTY_FILE"},
		{"setup.exe", []byte("MZ not a document"), 415, "INVALID_FILE_TYPE"},
		{"no-extension", []byte("some words"), 415, "INVALID_FILE_TYPE"},
		{"huge.txt", bytes.Repeat([]byte("word "), int(e.maxUploadBytes)/5+1000), 413, "FILE_TOO_LARGE"},
		{"way-over.txt", bytes.Repeat([]byte("word "), int(e.maxUploadBytes)/2+(1<<20)), 413, "FILE_TOO_LARGE"},
	} {
		r := e.upload("alice", e.a.ID, c.name, c.content)
		if r.status != c.status || r.code(t) != c.code {
			t.Errorf("upload %s: %d %s; want %d %s", c.name, r.status, r.body, c.status, c.code)
		}
	}
	if r := e.do("alice", "POST", "/api/rooms/"+e.a.ID+"/documents", "application/json", strings.NewReader(`{}`)); r.status != 400 {
		t.Errorf("a JSON upload: %d %s; want 400", r.status, r.body)
	}
	var docs struct{ Documents []room.Document }
	decode(t, e.json("alice", "GET", "/api/rooms/"+e.a.ID+"/documents", nil), &docs)
	if len(docs.Documents) != 0 {
		t.Errorf("documents after bad uploads: %+v", docs.Documents)
	}
	left, _ := filepath.Glob(filepath.Join(e.dir, "rooms", "*", "documents", "*"))
	if len(left) != 0 {
		t.Errorf("bad uploads left files behind: %v", left)
	}
}

func TestRoomsAPIEvents(t *testing.T) {
	e := newRoomsEnv(t)
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/rooms/"+e.a.ID+"/events", nil)
	req.Header.Set("X-User", "vic")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	r := e.upload("alice", e.a.ID, "harbor-10k.pdf", filingPDF())
	var d room.Document
	decode(t, r, &d)
	var statuses []string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var p struct {
			DocumentID string `json:"document_id"`
			Status     string `json:"processing_status"`
		}
		if err := json.Unmarshal([]byte(data), &p); err != nil || p.DocumentID != d.ID {
			t.Fatalf("event %s; want one of document %s", data, d.ID)
		}
		statuses = append(statuses, p.Status)
		if p.Status == room.StatusCompleted {
			break
		}
	}
	if len(statuses) < 2 || statuses[0] != room.StatusProcessing || statuses[len(statuses)-1] != room.StatusCompleted {
		t.Errorf("events %v; want processing ... completed", statuses)
	}
}

func TestRoomsOffWithoutServiceOrAuth(t *testing.T) {
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	e := newRoomsEnv(t)
	for _, opt := range []web.Options{{Rooms: e.svc}, {Auth: web.LocalUser{Owner: e.alice}}} {
		h := web.New(a.Investigations, opt)
		for _, p := range []string{"/api/rooms", "/rooms"} {
			req, _ := http.NewRequest("GET", p, nil)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 404 {
				t.Errorf("GET %s with rooms %v, auth %v: %d; want 404", p, opt.Rooms != nil, opt.Auth != nil, rec.Code)
			}
			if strings.Contains(rec.Body.String(), "Data rooms") {
				t.Errorf("GET %s links to the data rooms without them", p)
			}
		}
	}
}

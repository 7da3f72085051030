package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms/roomstest"
)

// TestRoomsAPIBadDocuments sends the service suite's bad files over HTTP
// to a server with background workers: those the upload refuses answer
// their code at once, larger than the limit ones 413, and the others are
// accepted and end failed with their code, without pages; asking finds
// nothing of them, and the server goes on.
func TestRoomsAPIBadDocuments(t *testing.T) {
	e := newRoomsEnv(t)
	for _, b := range roomstest.Refused() {
		if r := e.upload("alice", e.a.ID, b.Name, b.Data); r.status < 400 || r.code(t) != b.Code {
			t.Errorf("upload %s: %d %s; want %s", b.Name, r.status, r.body, b.Code)
		}
	}
	pending := map[string]roomstest.BadFile{}
	for _, b := range roomstest.Failing() {
		r := e.upload("alice", e.a.ID, b.Name, b.Data)
		if int64(len(b.Data)) > e.maxUploadBytes {
			if r.status != http.StatusRequestEntityTooLarge || r.code(t) != "FILE_TOO_LARGE" {
				t.Errorf("upload %s (%d bytes): %d %s; want 413 FILE_TOO_LARGE", b.Name, len(b.Data), r.status, r.body)
			}
			continue
		}
		if r.status != http.StatusAccepted {
			t.Errorf("upload %s: %d %s; want 202", b.Name, r.status, r.body)
			continue
		}
		var d room.Document
		decode(t, r, &d)
		pending[d.ID] = b
	}
	if len(pending) < 5 {
		t.Fatalf("%d bad files were accepted; want most of them to reach the workers", len(pending))
	}
	deadline := time.Now().Add(raceSlowdown * time.Minute)
	for id, b := range pending {
		var d room.Document
		for d.Status != room.StatusFailed && d.Status != room.StatusCompleted && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			decode(t, e.json("alice", http.MethodGet, "/api/rooms/"+e.a.ID+"/documents/"+id, nil), &d)
		}
		if d.Status != room.StatusFailed || d.ErrorCode != b.Code || !strings.Contains(d.Error, b.Msg) || d.ChunkCount != 0 {
			t.Errorf("%s: %s, %s %q, %d chunks; want failed with %s %q", b.Name, d.Status, d.ErrorCode, d.Error, d.ChunkCount, b.Code, b.Msg)
		}
		var pages struct{ Pages []any }
		decode(t, e.json("alice", http.MethodGet, "/api/rooms/"+e.a.ID+"/documents/"+id+"/pages", nil), &pages)
		if len(pages.Pages) != 0 {
			t.Errorf("%s: %d pages; want none", b.Name, len(pages.Pages))
		}
	}
	var q room.Query
	decode(t, e.json("alice", http.MethodPost, "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": "What does the " + roomstest.Planted + " ledger say?"}), &q)
	if q.AnswerType != room.AnswerInsufficient || len(q.Citations) != 0 {
		t.Errorf("asking for the planted word: %s %q %+v; want insufficient evidence", q.AnswerType, q.Answer, q.Citations)
	}
	// The server goes on: a good document is processed and answers.
	e.document("alice", e.a.ID, "filing.pdf", filingPDF())
	decode(t, e.json("alice", http.MethodPost, "/api/rooms/"+e.a.ID+"/ask", map[string]string{"question": capexQuestion}), &q)
	if !strings.Contains(q.Answer, capex) {
		t.Errorf("asking after the bad documents: %q; want %s", q.Answer, capex)
	}
}

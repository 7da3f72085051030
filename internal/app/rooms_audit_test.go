package app_test

import (
	"context"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
)

// roomsEntries checks the data rooms' audit log of a data dir as quarry
// audit verify does, and returns its entries.
func roomsEntries(t *testing.T, dir string) []quarry.AuditEntry {
	t.Helper()
	path := app.RoomsAuditLog(dir)
	rep, err := audit.CheckIn(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("%s does not verify: %+v", path, rep)
	}
	entries, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// processedOnce reports each document that the entries do not record as
// completed exactly once.
func processedOnce(t *testing.T, entries []quarry.AuditEntry, docs []room.Document) {
	t.Helper()
	done := map[string]int{}
	for _, e := range entries {
		if e.EventData["observation"] == "document_processed" && e.EventData["status"] == room.StatusCompleted {
			done[e.RequestID]++
		}
	}
	for _, d := range docs {
		if done[d.ID] != 1 {
			t.Errorf("the log records %s completed %d times; want once", d.Name, done[d.ID])
		}
	}
}

// TestSampleRoomAuditLog: the sample room made offline, and a question
// asked of it, leave DATA_DIR/logs/rooms.jsonl verifying whole, with each
// document's processing and the question's retrieval and evidence
// decision in it.
func TestSampleRoomAuditLog(t *testing.T) {
	ctx := context.Background()
	svc, owner, dir := openRooms(t)
	r, err := app.SeedSampleRoom(ctx, svc, owner, dir)
	if err != nil || r == nil {
		t.Fatalf("SeedSampleRoom = %v, %v", r, err)
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "What was Northwind's revenue in 2023?")
	if err != nil {
		t.Fatal(err)
	}
	entries := roomsEntries(t, dir)
	docs, err := svc.Documents(ctx, owner.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ok []room.Document
	for _, d := range docs {
		// Without poppler-utils the PDF fails, and its failure is what
		// the log records.
		if d.Status == room.StatusCompleted {
			ok = append(ok, d)
		}
	}
	processedOnce(t, entries, ok)
	var got []string
	for _, e := range entries {
		if e.RequestID == q.ID {
			got = append(got, e.EventType)
			if e.EventType == quarry.EventPolicyDecision && (e.EventData["decision"] != q.AnswerType || e.EventData["room_id"] != r.ID) {
				t.Errorf("the evidence decision %v; want %s in room %s", e.EventData, q.AnswerType, r.ID)
			}
		}
	}
	want := []string{quarry.EventRequestSubmitted, quarry.EventToolCalled, quarry.EventPolicyDecision}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("the question's entries are %v; want %v", got, want)
	}
}

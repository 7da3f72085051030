package rooms_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// auditedService is openService writing to a shared audit log in a data
// dir's logs/rooms.jsonl, whose path it returns.
func auditedService(t *testing.T) (*rooms.Service, string) {
	t.Helper()
	svc := openService(t)
	path := filepath.Join(t.TempDir(), "logs", "rooms.jsonl")
	l := audit.NewShared(path, nil)
	t.Cleanup(func() { l.Close() })
	svc.Audit = l
	return svc, path
}

// readEntries returns the entries of the log at path, after checking
// that the whole log verifies.
func readEntries(t *testing.T, path string) []quarry.AuditEntry {
	t.Helper()
	entries, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// of returns the entries of one request, each as "event_type tool or
// action or observation".
func of(entries []quarry.AuditEntry, requestID string) ([]quarry.AuditEntry, []string) {
	var es []quarry.AuditEntry
	var kinds []string
	for _, e := range entries {
		if e.RequestID != requestID {
			continue
		}
		es = append(es, e)
		what, _ := e.EventData["tool"].(string)
		if what == "" {
			what, _ = e.EventData["action"].(string)
		}
		if what == "" {
			what, _ = e.EventData["observation"].(string)
		}
		kinds = append(kinds, e.EventType+" "+what)
	}
	return es, kinds
}

// TestAuditLogRecordsARoom walks a room through its changes, a document's
// processing and two questions (answered by the extract, then by a model),
// and reads back what the log holds for each.
func TestAuditLogRecordsARoom(t *testing.T) {
	ctx := context.Background()
	svc, path, owner, r, doc := auditedRoom(t)
	viewer, err := svc.AddMember(ctx, owner.ID, r.ID, "vera", room.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Upload(ctx, viewer.UserID, r.ID, "notes.md", strings.NewReader("# Notes\n\nA viewer's notes.\n")); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Fatalf("a viewer's upload: %v; want FORBIDDEN", err)
	}
	if _, err := svc.AddMember(ctx, owner.ID, r.ID, "vera", room.RoleEditor); err != nil {
		t.Fatal(err)
	}
	if err := svc.RemoveMember(ctx, owner.ID, r.ID, "vera"); err != nil {
		t.Fatal(err)
	}
	const question = "What were Northwind's capital expenditures in 2023?"
	byExtract, err := svc.Ask(ctx, owner.ID, r.ID, question)
	if err != nil {
		t.Fatal(err)
	}
	svc.Model = &llmtest.Model{ModelName: "scripted-ask", Reply: func(*llm.Request) (*llm.Response, error) {
		return llmtest.Text("Capital expenditures were $23.7 million in 2023 [1]."), nil
	}}
	byModel, err := svc.Ask(ctx, owner.ID, r.ID, question)
	if err != nil {
		t.Fatal(err)
	}
	entries := readEntries(t, path)

	_, kinds := of(entries, r.ID)
	want := []string{"policy_decision create_room", "policy_decision add_member", "policy_decision upload", "policy_decision change_role", "policy_decision remove_member"}
	if !slices.Equal(kinds, want) {
		t.Errorf("the room's entries are %q; want %q", kinds, want)
	}
	for _, e := range entries {
		if e.RequestID != r.ID {
			continue
		}
		if e.EventData["action"] == "upload" {
			if e.Actor != viewer.UserID || e.EventData["user_id"] != viewer.UserID || e.EventData["decision"] != "refused" || e.EventData["room_id"] != r.ID {
				t.Errorf("the viewer's upload is recorded as %v by %s; want refused, by the viewer %s", e.EventData, e.Actor, viewer.UserID)
			}
		} else if e.Actor != owner.ID || e.EventData["user_id"] != owner.ID || e.EventData["decision"] != "allowed" {
			t.Errorf("a room change %v by %s; want allowed, made by the owner %s", e.EventData, e.Actor, owner.ID)
		}
		if e.EventData["action"] == "change_role" && (e.EventData["member_id"] != viewer.UserID || e.EventData["previous_role"] != room.RoleViewer || e.EventData["role"] != room.RoleEditor) {
			t.Errorf("the role change records %v; want vera from viewer to editor", e.EventData)
		}
	}

	docEntries, kinds := of(entries, doc.ID)
	want = []string{"policy_decision upload", "tool_called docparse", "tool_called chunk", "observation_recorded document_processed"}
	if !slices.Equal(kinds, want) {
		t.Errorf("the document's entries are %q; want %q", kinds, want)
	}
	if len(docEntries) == len(want) {
		up, parse, chunk, done := docEntries[0], docEntries[1], docEntries[2], docEntries[3]
		if up.Actor != owner.ID || up.EventData["sha256"] != doc.SHA256 || up.EventData["room_id"] != r.ID {
			t.Errorf("upload entry %v by %s; want the owner's, with the document's SHA-256", up.EventData, up.Actor)
		}
		if parse.EventData["pages"] != float64(doc.PageCount) || parse.EventData["outcome"] != "ok" || parse.EventData["uploaded_by"] != owner.ID {
			t.Errorf("docparse entry %v; want %d pages, ok", parse.EventData, doc.PageCount)
		}
		if chunk.EventData["chunks"] != float64(doc.ChunkCount) {
			t.Errorf("chunk entry %v; want %d chunks", chunk.EventData, doc.ChunkCount)
		}
		if done.EventData["status"] != room.StatusCompleted {
			t.Errorf("processing ended %v; want completed", done.EventData)
		}
	}

	for _, tc := range []struct {
		q    *room.Query
		want []string
	}{
		{byExtract, []string{"request_submitted ", "tool_called retrieve", "policy_decision answer"}},
		{byModel, []string{"request_submitted ", "tool_called retrieve", "tool_called model", "policy_decision answer"}},
	} {
		es, kinds := of(entries, tc.q.ID)
		if !slices.Equal(kinds, tc.want) {
			t.Errorf("query %s's entries are %q; want %q", tc.q.ID, kinds, tc.want)
			continue
		}
		for _, e := range es {
			if e.Actor != owner.ID || e.EventData["room_id"] != r.ID || e.EventData["user_id"] != owner.ID || e.EventData["query_id"] != tc.q.ID {
				t.Errorf("entry %s %v by %s does not name the room, the user and the query", e.EventType, e.EventData, e.Actor)
			}
		}
		retrieval, decision := es[1].EventData, es[len(es)-1].EventData
		if retrieval["query"] != question || retrieval["outcome"] != "ok" {
			t.Errorf("retrieval %v; want the question, ok", retrieval)
		}
		kept := map[string]bool{}
		chunks, _ := retrieval["chunks"].([]any)
		for _, c := range chunks {
			c := c.(map[string]any)
			id, _ := c["chunk_id"].(string)
			if _, err := svc.Chunk(ctx, owner.ID, id); err != nil {
				t.Errorf("retrieval kept chunk %q, which is not the room's: %v", id, err)
			}
			if _, ok := c["score"].(float64); !ok {
				t.Errorf("retrieved chunk %v has no score", c)
			}
			kept[id] = true
		}
		if len(kept) == 0 || len(kept) != tc.q.ChunksRetrieved {
			t.Errorf("retrieval recorded %d chunks; the query retrieved %d", len(kept), tc.q.ChunksRetrieved)
		}
		if decision["decision"] != tc.q.AnswerType || decision["answer_sha256"] != quarry.SHA256Hex([]byte(tc.q.Answer)) {
			t.Errorf("decision %v; want %s with the answer's hash", decision, tc.q.AnswerType)
		}
		cited, _ := decision["citations"].([]any)
		unverified := 0
		for i, c := range cited {
			c := c.(map[string]any)
			if !kept[c["chunk_id"].(string)] {
				t.Errorf("the answer cites %v, which retrieval did not keep", c)
			}
			if i < len(tc.q.Citations) && (c["chunk_id"] != tc.q.Citations[i].ChunkID || c["verified"] != tc.q.Citations[i].Verified) {
				t.Errorf("citation %d recorded as %v; the answer has %+v", i, c, tc.q.Citations[i])
			}
			if v, _ := c["verified"].(bool); !v {
				unverified++
			}
		}
		if len(cited) != len(tc.q.Citations) || decision["unverified_citations"] != float64(unverified) {
			t.Errorf("decision records %d citations (%v unverified); the answer has %d", len(cited), decision["unverified_citations"], len(tc.q.Citations))
		}
	}
	if es, _ := of(entries, byModel.ID); len(es) == 4 {
		call := es[2].EventData
		if call["model"] != "scripted-ask" || call["outcome"] != "ok" || call["tokens_input"] != float64(byModel.TokensInput) ||
			call["tokens_output"] != float64(byModel.TokensOutput) || byModel.TokensInput == 0 || es[3].EventData["answered_by"] != "model" {
			t.Errorf("model call %v, answered by %v; want scripted-ask with the query's %d/%d tokens", call, es[3].EventData["answered_by"], byModel.TokensInput, byModel.TokensOutput)
		}
	}
}

// wordsEmbedder gives every text the same vector.
type wordsEmbedder struct{}

func (wordsEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0.5, 0.25}
	}
	return out, nil
}

// TestAuditLogOneEntryPerTool processes a document of 300 pages, embedded
// in many batches: the log gets one entry per tool, not one per page,
// chunk or batch.
func TestAuditLogOneEntryPerTool(t *testing.T) {
	ctx := context.Background()
	svc, path := auditedService(t)
	svc.Embedder, svc.EmbeddingModel = wordsEmbedder{}, "same-vector"
	owner, _ := svc.EnsureUser(ctx, "owner")
	r, err := svc.CreateRoom(ctx, owner.ID, "long", "")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "# Section %d\n\nThe lessee shall pay the rent of section %d in advance on the first day of every month to the lessor.\f", i, i)
	}
	d, err := svc.Upload(ctx, owner.ID, r.ID, "long-lease.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Process(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	d, _ = svc.Document(ctx, owner.ID, d.ID)
	if d.PageCount != 300 || d.ChunkCount < 300 {
		t.Fatalf("the document has %d pages and %d chunks; want 300 pages, a chunk each at least", d.PageCount, d.ChunkCount)
	}
	entries := readEntries(t, path)
	es, kinds := of(entries, d.ID)
	want := []string{"policy_decision upload", "tool_called docparse", "tool_called chunk", "tool_called embed", "observation_recorded document_processed"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("the document's entries are %q; want %q", kinds, want)
	}
	embed := es[3].EventData
	if embed["model"] != "same-vector" || embed["chunks"] != float64(d.ChunkCount) || embed["batches"] != float64((d.ChunkCount+63)/64) || embed["outcome"] != "ok" {
		t.Errorf("embed entry %v; want %d chunks in %d batches by same-vector", embed, d.ChunkCount, (d.ChunkCount+63)/64)
	}
	if len(entries) != 6 {
		t.Errorf("the log has %d entries; want 6 (the room's creation and the document's five)", len(entries))
	}
}

// failingLog passes the first ok appends to log and fails the rest as a
// broken log does, naming its file.
type failingLog struct {
	ok  int
	log rooms.AuditLog
}

func (f *failingLog) AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	if f.ok == 0 {
		return quarry.AuditEntry{}, quarry.Errorf(quarry.ECodeConflict, "audit log /srv/quarry/logs/rooms.jsonl is broken at entry 7: hash does not match")
	}
	f.ok--
	return f.log.AppendFor(requestID, eventType, actor, data)
}

// TestAuditLogThatCannotBeWritten: what the log cannot record is not
// done, and the user is not shown the server's path.
func TestAuditLogThatCannotBeWritten(t *testing.T) {
	ctx := context.Background()
	svc, path := auditedService(t)
	owner, _ := svc.EnsureUser(ctx, "owner")
	r, err := svc.CreateRoom(ctx, owner.ID, "deal", "")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{svc: svc}
	e.upload(t, owner, r, "northwind-2023-annual-report.md")
	good := svc.Audit
	checkErr := func(what string, err error) {
		t.Helper()
		if quarry.ErrorCode(err) != quarry.ECodeConflict || strings.Contains(err.Error(), "/srv/") {
			t.Errorf("%s with a broken log: %v; want CONFLICT without the server's path", what, err)
		}
	}

	svc.Audit = &failingLog{log: good}
	_, err = svc.Ask(ctx, owner.ID, r.ID, "What were Northwind's capital expenditures in 2023?")
	checkErr("ask", err)
	if h, _ := svc.History(ctx, owner.ID, r.ID, time.Time{}, 10); len(h) != 0 {
		t.Errorf("a question the log refused is in the history: %+v", h)
	}
	f, _ := os.Open(filepath.Join(samples, "harbor-supply-agreement.md"))
	_, err = svc.Upload(ctx, owner.ID, r.ID, "harbor-supply-agreement.md", f)
	f.Close()
	checkErr("upload", err)
	if docs, _ := svc.Documents(ctx, owner.ID, r.ID); len(docs) != 1 {
		t.Errorf("the room has %d documents after an upload the log refused; want 1", len(docs))
	}
	if left, _ := filepath.Glob(filepath.Join(svc.Dir, "rooms", r.ID, "documents", "*", "harbor*")); len(left) != 0 {
		t.Errorf("a refused upload left %v", left)
	}
	_, err = svc.AddMember(ctx, owner.ID, r.ID, "vera", room.RoleViewer)
	checkErr("add member", err)
	if ms, _ := svc.Members(ctx, owner.ID, r.ID); len(ms) != 1 {
		t.Errorf("the room has %d members after an addition the log refused; want 1", len(ms))
	}

	// The question is accepted, then its retrieval cannot be recorded:
	// the answer is withheld.
	svc.Audit = &failingLog{ok: 1, log: good}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "What were Northwind's capital expenditures in 2023?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerError || q.ErrorType != quarry.ECodeConflict || len(q.Citations) != 0 ||
		!strings.HasPrefix(q.Answer, "The answer was withheld") || strings.Contains(q.Answer, "23.7") || strings.Contains(q.Answer, "/srv/") {
		t.Errorf("answer with its entries unwritten: %s %s %q with %d citations; want it withheld", q.AnswerType, q.ErrorType, q.Answer, len(q.Citations))
	}
	svc.Audit = good
	entries := readEntries(t, path)
	if _, kinds := of(entries, q.ID); !slices.Equal(kinds, []string{"request_submitted "}) {
		t.Errorf("the withheld question's entries are %q; want only its submission", kinds)
	}
}

// TestAuditLogMasksPersonalData: a question with an e-mail address and a
// phone number is in the log masked, as in the store.
func TestAuditLogMasksPersonalData(t *testing.T) {
	ctx := context.Background()
	svc, path, owner, r, _ := auditedRoom(t)
	if _, err := svc.Ask(ctx, owner.ID, r.ID, "Capital expenditures in 2023? Mail ana@example.com or call +44 20 7946 0958"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); strings.Contains(s, "ana@example.com") || strings.Contains(s, "7946 0958") || !strings.Contains(s, "[redacted]") {
		t.Errorf("the audit log holds the question's personal data, or no mark of its masking:\n%s", s)
	}
}

// TestAuditLogRecordsDeletions: a room's deletion, refused and done, and
// a user's deletion are each a decision in the log.
func TestAuditLogRecordsDeletions(t *testing.T) {
	ctx := context.Background()
	svc, path, owner, r, _ := auditedRoom(t)
	m, err := svc.AddMember(ctx, owner.ID, r.ID, "vera", room.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteRoom(ctx, m.UserID, r.ID); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Fatalf("an editor deletes the room: %v; want FORBIDDEN", err)
	}
	if err := svc.DeleteRoom(ctx, owner.ID, r.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteUser(ctx, m.UserID, m.UserID); err != nil {
		t.Fatal(err)
	}
	entries := readEntries(t, path)
	var got []string
	for _, e := range entries {
		switch e.EventData["action"] {
		case "delete_room", "delete_user":
			got = append(got, fmt.Sprintf("%s %s by %s", e.EventData["action"], e.EventData["decision"], e.Actor))
		}
	}
	want := []string{"delete_room refused by " + m.UserID, "delete_room allowed by " + owner.ID, "delete_user allowed by " + m.UserID}
	if !slices.Equal(got, want) {
		t.Errorf("the log's deletions = %q; want %q", got, want)
	}
}

// auditedRoom is an auditedService with a room "deal" of alice's holding
// the sample annual report.
func auditedRoom(t *testing.T) (*rooms.Service, string, *room.User, *room.Room, *room.Document) {
	t.Helper()
	ctx := context.Background()
	svc, path := auditedService(t)
	owner, err := svc.EnsureUser(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	r, err := svc.CreateRoom(ctx, owner.ID, "deal", "")
	if err != nil {
		t.Fatal(err)
	}
	doc := (&env{svc: svc}).upload(t, owner, r, "northwind-2023-annual-report.md")
	return svc, path, owner, r, doc
}

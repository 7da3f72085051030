package roomtest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

func testDocuments(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	now := f.next()
	d := &room.Document{ID: quarry.NewID(), RoomID: f.a.ID, Name: "report.pdf", Format: "pdf", SizeBytes: 99, SHA256: strings.Repeat("0f", 32),
		Status: room.StatusPending, UploadedBy: f.alice.ID, Meta: room.DocMeta{Company: "Northwind", Years: []int{2023}},
		Notes: []string{"a note"}, CreatedAt: now, UpdatedAt: now}
	Must(t, s.CreateDocument(ctx, d))
	got, err := s.Document(ctx, d.ID)
	Must(t, err)
	if got.Name != d.Name || got.RoomID != f.a.ID || got.Format != "pdf" || got.SizeBytes != 99 || got.SHA256 != d.SHA256 ||
		got.Status != room.StatusPending || got.UploadedBy != f.alice.ID || !reflect.DeepEqual(got.Meta, d.Meta) ||
		!slices.Equal(got.Notes, d.Notes) || !sameTime(got.CreatedAt, now) {
		t.Errorf("Document = %+v; want %+v", got, d)
	}
	_, err = s.Document(ctx, quarry.NewID())
	WantCode(t, "Document(unknown)", err, quarry.ECodeNotFound)
	_, err = s.Document(ctx, "report.pdf")
	WantCode(t, "Document(not-an-id)", err, quarry.ECodeNotFound)

	second := f.pending(t, f.a, "second.txt")
	third := f.pending(t, f.a, "third.txt")
	other := f.pending(t, f.b, "other.txt")
	ds, err := s.ListDocuments(ctx, f.a.ID)
	Must(t, err)
	if got := ids(ds, func(d room.Document) string { return d.Name }); !slices.Equal(got, []string{"report.pdf", "second.txt", "third.txt"}) {
		t.Errorf("ListDocuments(room-a) = %v; want the room's three, oldest first", got)
	}

	Must(t, s.SetStatus(ctx, second.ID, room.StatusProcessing, "", ""))
	Must(t, s.SetStatus(ctx, third.ID, room.StatusFailed, quarry.ECodeMalformedDocument, "the PDF is encrypted"))
	got, err = s.Document(ctx, third.ID)
	if err != nil || got.Status != room.StatusFailed || got.ErrorCode != quarry.ECodeMalformedDocument || got.Error != "the PDF is encrypted" {
		t.Errorf("Document after SetStatus(failed) = %+v, %v; want failed with its code and message", got, err)
	}
	WantCode(t, "SetStatus(unknown)", s.SetStatus(ctx, quarry.NewID(), room.StatusFailed, "", ""), quarry.ECodeNotFound)
	WantCode(t, "SetStatus(bad status)", s.SetStatus(ctx, second.ID, "done", "", ""), quarry.ECodeInvalid)
	ds, err = s.Pending(ctx)
	Must(t, err)
	if got := ids(ds, func(d room.Document) string { return d.ID }); !slices.Equal(got, []string{d.ID, second.ID, other.ID}) {
		t.Errorf("Pending = %v; want report.pdf, second.txt (processing), other.txt: pending and processing, oldest first, every room", got)
	}
}

func testComplete(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d := f.pending(t, f.a, "annual.txt")
	Must(t, s.SetStatus(ctx, d.ID, room.StatusFailed, "INTERNAL", "an earlier try failed"))
	ps, cs := build(d,
		[]spec{{text: text("revenue grew"), context: "| year | revenue |"}, {text: text("capital expenditure"), vec: []float32{0, 1, 0}, model: "m"}},
		[]spec{{text: text("outlook")}})
	conf := 0.75
	ps[1].OCRConfidence = &conf
	d.Format, d.OCRAttempted, d.AvgChunkSize = "markdown", true, 12
	d.Meta = room.DocMeta{Title: "Annual report", Company: "Northwind", FormType: "10-K", Years: []int{2023, 2022}, Period: "FY2023"}
	d.Notes = []string{"page 2 was scanned"}
	Must(t, s.Complete(ctx, d, ps, cs))
	got, err := s.Document(ctx, d.ID)
	Must(t, err)
	if got.Status != room.StatusCompleted || got.ErrorCode != "" || got.Error != "" || got.PageCount != 2 || got.ChunkCount != 3 ||
		got.AvgChunkSize != 12 || got.Format != "markdown" || !got.OCRAttempted || !reflect.DeepEqual(got.Meta, d.Meta) || !slices.Equal(got.Notes, d.Notes) {
		t.Errorf("Document after Complete = %+v; want completed, error cleared, 2 pages, 3 chunks, its metadata and notes", got)
	}
	pages, err := s.Pages(ctx, d.ID)
	Must(t, err)
	if len(pages) != 2 || pages[0].Number != 1 || pages[1].Number != 2 || pages[0].Text != ps[0].Text || pages[0].OCRConfidence != nil ||
		pages[1].OCRConfidence == nil || *pages[1].OCRConfidence != 0.75 {
		t.Errorf("Pages = %+v; want pages 1 and 2 in order, the second with OCR confidence 0.75", pages)
	}
	p, err := s.Page(ctx, d.ID, 2)
	if err != nil || p.ID != ps[1].ID || p.Text != ps[1].Text {
		t.Errorf("Page(2) = %+v, %v; want %+v", p, err, ps[1])
	}
	_, err = s.Page(ctx, d.ID, 3)
	WantCode(t, "Page(3 of 2)", err, quarry.ECodeNotFound)
	c, err := s.Chunk(ctx, cs[1].ID)
	Must(t, err)
	want := cs[1]
	want.Embedding = nil
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("Chunk = %+v; want %+v", *c, want)
	}
	if c, err := s.Chunk(ctx, cs[0].ID); err != nil || c.Context != "| year | revenue |" || c.PageNumber != 1 {
		t.Errorf("Chunk(first) = %+v, %v; want its context kept", c, err)
	}
	_, err = s.Chunk(ctx, quarry.NewID())
	WantCode(t, "Chunk(unknown)", err, quarry.ECodeNotFound)
	if ps, err := s.Pages(ctx, quarry.NewID()); err != nil || len(ps) != 0 {
		t.Errorf("Pages(unknown document) = %+v, %v; want none", ps, err)
	}

	ghost := &room.Document{ID: quarry.NewID(), RoomID: f.a.ID, Name: "ghost.txt"}
	gps, gcs := build(ghost, []spec{{text: text("ghost")}})
	WantCode(t, "Complete(unknown document)", s.Complete(ctx, ghost, gps, gcs), quarry.ECodeNotFound)
	if _, err := s.Chunk(ctx, gcs[0].ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("a chunk of an unknown document was stored: %v", err)
	}
}

func testCompleteAllOrNothing(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	// A new document whose processing fails keeps nothing.
	d := f.pending(t, f.a, "bad.txt")
	ps, cs := build(d, []spec{{text: text("zeppelin")}, {text: text("zeppelin")}})
	cs[1].Text, cs[1].EndChar = "too short", cs[1].StartChar+9
	WantCode(t, "Complete with a 9-character chunk", s.Complete(ctx, d, ps, cs), quarry.ECodeInvalid)
	got, err := s.Document(ctx, d.ID)
	if err != nil || got.Status != room.StatusPending || got.ChunkCount != 0 {
		t.Errorf("Document after a refused Complete = %+v, %v; want still pending without chunks", got, err)
	}
	if pages, err := s.Pages(ctx, d.ID); err != nil || len(pages) != 0 {
		t.Errorf("Pages after a refused Complete = %d, %v; want none", len(pages), err)
	}
	if _, err := s.Chunk(ctx, cs[0].ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Chunk(the valid one) after a refused Complete: %v; want NOT_FOUND", err)
	}
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"zeppelin"}, Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks after a refused Complete = %s, %v; want none", describe(hs), err)
	}

	// A processed document whose reprocessing fails keeps what it had.
	d2, ps1, cs1 := f.doc(t, f.a, "good.txt", []spec{{text: text("albatross")}})
	ps2, cs2 := build(d2, []spec{{text: text("pelican")}}, []spec{{text: text("pelican")}})
	ps2[1].Number = 1 // two pages 1
	if err := s.Complete(ctx, d2, ps2, cs2); err == nil {
		t.Fatal("Complete with two pages numbered 1 succeeded")
	}
	got, err = s.Document(ctx, d2.ID)
	if err != nil || got.Status != room.StatusCompleted || got.ChunkCount != 1 || got.PageCount != 1 {
		t.Errorf("Document after a refused reprocessing = %+v, %v; want completed with its 1 page and 1 chunk", got, err)
	}
	if pages, err := s.Pages(ctx, d2.ID); err != nil || len(pages) != 1 || pages[0].ID != ps1[0].ID {
		t.Errorf("Pages after a refused reprocessing = %+v, %v; want the old page", pages, err)
	}
	hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"albatross"}, Limit: 5})
	if err != nil || len(hs) != 1 || hs[0].ID != cs1[0].ID {
		t.Errorf("SearchChunks(albatross) after a refused reprocessing = %s, %v; want the old chunk", describe(hs), err)
	}
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"pelican"}, Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks(pelican) after a refused reprocessing = %s, %v; want none", describe(hs), err)
	}
}

func testCompleteReplaces(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d, _, cs1 := f.doc(t, f.a, "v.txt", []spec{{text: text("albatross")}}, []spec{{text: text("albatross again")}})
	q := f.query(t, f.alice, f.a, cs1[0])
	Must(t, s.SetStatus(ctx, d.ID, room.StatusProcessing, "", ""))
	ps2, cs2 := build(d, []spec{{text: text("pelican")}, {text: text("pelican")}, {text: text("cormorant")}})
	Must(t, s.Complete(ctx, d, ps2, cs2))
	got, err := s.Document(ctx, d.ID)
	if err != nil || got.Status != room.StatusCompleted || got.PageCount != 1 || got.ChunkCount != 3 {
		t.Errorf("Document after reprocessing = %+v, %v; want completed with 1 page, 3 chunks", got, err)
	}
	if pages, err := s.Pages(ctx, d.ID); err != nil || len(pages) != 1 || pages[0].ID != ps2[0].ID {
		t.Errorf("Pages after reprocessing = %+v, %v; want only the new page", pages, err)
	}
	for _, c := range cs1 {
		if _, err := s.Chunk(ctx, c.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("Chunk(old %s) after reprocessing: %v; want NOT_FOUND", c.ID, err)
		}
	}
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"albatross"}, Limit: 5}); err != nil || len(hs) != 0 {
		t.Errorf("SearchChunks(old words) = %s, %v; want none", describe(hs), err)
	}
	if hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"pelican"}, Limit: 5}); err != nil || len(hs) != 2 {
		t.Errorf("SearchChunks(new words) = %s, %v; want the 2 new chunks", describe(hs), err)
	}
	if got, err := s.Query(ctx, q.ID); err != nil || len(got.Citations) != 0 {
		t.Errorf("Query after reprocessing = %+v, %v; want it kept without the citation of a chunk that is gone", got, err)
	}
}

func testChunkChecks(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	cases := []struct {
		name   string
		text   string
		tokens int
		page   int
		end    int // EndChar - StartChar when not 0
		ok     bool
	}{
		{"49 characters", strings.Repeat("a", 49), 10, 1, 0, false},
		{"50 characters", strings.Repeat("a", 50), 10, 1, 0, true},
		{"50 two-byte characters", strings.Repeat("é", 50), 10, 1, 0, true},
		{"3000 characters", strings.Repeat("word ", 600), 600, 1, 0, true},
		{"3000 two-byte characters", strings.Repeat("é", 3000), 600, 1, 0, true},
		{"3001 characters", strings.Repeat("word ", 600) + "x", 600, 1, 0, false},
		{"0 tokens", strings.Repeat("b", 60), 0, 1, 0, false},
		{"1 token", strings.Repeat("b", 60), 1, 1, 0, true},
		{"1000 tokens", strings.Repeat("b", 60), 1000, 1, 0, true},
		{"1001 tokens", strings.Repeat("b", 60), 1001, 1, 0, false},
		{"end before start", strings.Repeat("c", 60), 5, 1, -1, false},
		{"page 0", strings.Repeat("c", 60), 5, 0, 0, false},
	}
	for _, c := range cases {
		d := f.pending(t, f.a, c.name+".txt")
		ps, cs := build(d, []spec{{text: c.text}})
		cs[0].TokenCount = c.tokens
		ps[0].Number, cs[0].PageNumber = c.page, c.page
		if c.end != 0 {
			cs[0].EndChar = cs[0].StartChar + c.end
		}
		err := s.Complete(ctx, d, ps, cs)
		if c.ok {
			if err != nil {
				t.Errorf("%s: Complete: %v; want it accepted", c.name, err)
			}
			continue
		}
		WantCode(t, c.name, err, quarry.ECodeInvalid)
		if got, err := s.Document(ctx, d.ID); err != nil || got.Status != room.StatusPending {
			t.Errorf("%s: document after a refused chunk = %+v, %v; want pending", c.name, got, err)
		}
	}
}

func testDeleteDocumentCascades(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d, ps, cs := f.doc(t, f.a, "gone.txt", []spec{{text: text("walrus"), vec: []float32{1, 0, 0}, model: "m"}}, []spec{{text: text("walrus")}})
	_, _, keep := f.doc(t, f.a, "kept.txt", []spec{{text: text("walrus"), vec: []float32{0.9, 0.1, 0}, model: "m"}})
	q := f.query(t, f.alice, f.a, cs[0], keep[0], cs[1])
	Must(t, s.DeleteDocument(ctx, d.ID))
	_, err := s.Document(ctx, d.ID)
	WantCode(t, "Document after DeleteDocument", err, quarry.ECodeNotFound)
	if pages, err := s.Pages(ctx, d.ID); err != nil || len(pages) != 0 {
		t.Errorf("Pages after DeleteDocument = %d, %v; want none", len(pages), err)
	}
	_, err = s.Page(ctx, d.ID, ps[0].Number)
	WantCode(t, "Page after DeleteDocument", err, quarry.ECodeNotFound)
	for _, c := range cs {
		_, err = s.Chunk(ctx, c.ID)
		WantCode(t, "Chunk after DeleteDocument", err, quarry.ECodeNotFound)
	}
	got, err := s.Query(ctx, q.ID)
	Must(t, err)
	if len(got.Citations) != 1 || got.Citations[0].ChunkID != keep[0].ID {
		t.Errorf("citations after DeleteDocument = %+v; want only the kept document's", got.Citations)
	}
	hs, err := s.SearchChunks(ctx, f.a.ID, room.ChunkQuery{Terms: []string{"walrus"}, Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{keep[0].ID}) {
		t.Errorf("SearchChunks after DeleteDocument = %s, %v; want only the kept chunk", describe(hs), err)
	}
	hs, err = s.SearchVectors(ctx, f.a.ID, room.VectorQuery{Vector: []float32{1, 0, 0}, Model: "m", Limit: 10})
	if err != nil || !slices.Equal(hitIDs(hs), []string{keep[0].ID}) {
		t.Errorf("SearchVectors after DeleteDocument = %s, %v; want only the kept chunk", describe(hs), err)
	}
	if ds, err := s.ListDocuments(ctx, f.a.ID); err != nil || len(ds) != 1 {
		t.Errorf("ListDocuments after DeleteDocument = %d, %v; want 1", len(ds), err)
	}
	WantCode(t, "DeleteDocument(again)", s.DeleteDocument(ctx, d.ID), quarry.ECodeNotFound)
}

func testDeleteUserCascades(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	_, _, cs := f.doc(t, f.a, "shared.txt", []spec{{text: text("narwhal")}})
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleViewer, AddedAt: f.next()}))
	mine := f.query(t, f.bob, f.a, cs[0])
	Must(t, s.PutFeedback(ctx, room.Feedback{QueryID: mine.ID, UserID: f.bob.ID, Rating: room.RatingHelpful, CreatedAt: f.next(), UpdatedAt: f.next()}))
	hers := f.query(t, f.alice, f.a, cs[0])
	window := f.t0.Truncate(60 * 60 * 1e9)
	for _, u := range []*room.User{f.alice, f.bob} {
		if ok, _, err := s.TakeQuota(ctx, u.ID, f.a.ID, window, 5); err != nil || !ok {
			t.Fatalf("TakeQuota(%s) = %v, %v", u.Name, ok, err)
		}
	}
	Must(t, s.DeleteUser(ctx, f.bob.ID))
	_, err := s.User(ctx, f.bob.ID)
	WantCode(t, "User after DeleteUser", err, quarry.ECodeNotFound)
	_, err = s.Member(ctx, f.a.ID, f.bob.ID)
	WantCode(t, "Member after DeleteUser", err, quarry.ECodeNotFound)
	_, err = s.Query(ctx, mine.ID)
	WantCode(t, "Query after DeleteUser", err, quarry.ECodeNotFound)
	if qs, err := s.History(ctx, f.bob.ID, f.a.ID, f.t0.Add(1e12), 10); err != nil || len(qs) != 0 {
		t.Errorf("History after DeleteUser = %d, %v; want none", len(qs), err)
	}
	if _, err := s.Query(ctx, hers.ID); err != nil {
		t.Errorf("Query(another user's) after DeleteUser: %v", err)
	}
	if rs, err := s.RoomsOf(ctx, f.alice.ID); err != nil || len(rs) != 1 {
		t.Errorf("RoomsOf(alice) after DeleteUser(bob) = %+v, %v; want room-a", rs, err)
	}
	// Only alice's rate-limit window is left to clean.
	if n, err := s.CleanQuotas(ctx, window.Add(1e12)); err != nil || n != 1 {
		t.Errorf("CleanQuotas after DeleteUser = %d, %v; want 1 (bob's window went with him)", n, err)
	}
}

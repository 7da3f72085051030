// Package roomtest is the conformance suite of room.Store: the behaviour
// every store (sqlite.Rooms, postgres.Rooms) must show, written once and
// run against each. It checks error codes, the specification's cascades
// and checks, all-or-nothing processing, room scoping of both searches,
// pagination and the atomicity of the rate limit.
package roomtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Run runs the suite; open returns a new, empty store for each subtest
// (closed by open's own cleanup). Calls act as room.System.
func Run(t *testing.T, open func(t *testing.T) room.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, f *fixture)
	}{
		{"Users", testUsers},
		{"Tokens", testTokens},
		{"EndSession", testEndSession},
		{"SetPassword", testSetPassword},
		{"Rooms", testRooms},
		{"Members", testMembers},
		{"LastOwner", testLastOwner},
		{"LastOwnerConcurrent", testLastOwnerConcurrent},
		{"LoginFailures", testLoginFailures},
		{"DeleteRoom", testDeleteRoom},
		{"Documents", testDocuments},
		{"Leases", testLeases},
		{"Complete", testComplete},
		{"CompleteAllOrNothing", testCompleteAllOrNothing},
		{"CompleteReplaces", testCompleteReplaces},
		{"ChunkChecks", testChunkChecks},
		{"DeleteDocumentCascades", testDeleteDocumentCascades},
		{"DeleteUserCascades", testDeleteUserCascades},
		{"SearchChunks", testSearchChunks},
		{"SearchChunksHostileTerms", testSearchHostile},
		{"SearchChunksMaxTerms", testSearchChunksMaxTerms},
		{"SearchChunksMaxPostings", testSearchChunksMaxPostings},
		{"TermChunks", testTermChunks},
		{"SearchVectors", testSearchVectors},
		{"SearchVectorsInvalidated", testSearchVectorsInvalidated},
		{"Queries", testQueries},
		{"QueryChecks", testQueryChecks},
		{"History", testHistory},
		{"Feedback", testFeedback},
		{"TakeQuota", testTakeQuota},
		{"TakeQuotaConcurrent", testTakeQuotaConcurrent},
		{"CleanQuotas", testCleanQuotas},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newFixture(t, open(t)))
		})
	}
}

// Ctx is the context the suite calls stores with.
func Ctx() context.Context { return room.WithActor(context.Background(), room.System) }

// fixture is two users and two rooms: alice owns room A, bob room B.
type fixture struct {
	s          room.Store
	ctx        context.Context
	alice, bob *room.User
	a, b       *room.Room
	t0         time.Time
	seq        int
}

func newFixture(t *testing.T, s room.Store) *fixture {
	t.Helper()
	f := &fixture{s: s, ctx: Ctx(), t0: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
	f.alice = f.user(t, "alice")
	f.bob = f.user(t, "bob")
	f.a = f.room(t, "room-a", f.alice)
	f.b = f.room(t, "room-b", f.bob)
	return f
}

// next returns a later time on every call, so that orders by time are
// certain.
func (f *fixture) next() time.Time {
	f.seq++
	return f.t0.Add(time.Duration(f.seq) * time.Second)
}

func (f *fixture) user(t *testing.T, name string) *room.User {
	t.Helper()
	u := &room.User{ID: quarry.NewID(), Name: name, Email: name + "@example.com", CreatedAt: f.next()}
	Must(t, f.s.CreateUser(f.ctx, u, "hash-of-"+name))
	return u
}

func (f *fixture) room(t *testing.T, name string, owner *room.User) *room.Room {
	t.Helper()
	r := &room.Room{ID: quarry.NewID(), Name: name, Description: "about " + name, CreatedBy: owner.ID, CreatedAt: f.next()}
	Must(t, f.s.CreateRoom(f.ctx, r, owner.ID))
	return r
}

// pending records a pending document in r.
func (f *fixture) pending(t *testing.T, r *room.Room, name string) *room.Document {
	t.Helper()
	now := f.next()
	d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: name, Format: "text", SizeBytes: 1234, SHA256: strings.Repeat("ab", 32),
		Status: room.StatusPending, UploadedBy: r.CreatedBy, CreatedAt: now, UpdatedAt: now}
	Must(t, f.s.CreateDocument(f.ctx, d))
	return d
}

// spec describes a chunk to store: its text, and optionally its context
// and embedding.
type spec struct {
	text    string
	context string
	vec     []float32
	model   string
}

// build lays out pages of chunks as a processed document would: each
// page's text is its chunks' texts joined by blank lines, with offsets
// in characters.
func build(d *room.Document, pages ...[]spec) ([]room.Page, []room.Chunk) {
	var ps []room.Page
	var cs []room.Chunk
	for i, page := range pages {
		p := room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: i + 1}
		var text []string
		at := 0
		for _, c := range page {
			n := len([]rune(c.text))
			cs = append(cs, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: p.ID, PageNumber: p.Number, Index: len(cs),
				Text: c.text, Context: c.context, TokenCount: max(1, min(1000, len(strings.Fields(c.text)))), StartChar: at, EndChar: at + n,
				Embedding: c.vec, EmbeddingModel: c.model})
			text = append(text, c.text)
			at += n + 2
		}
		p.Text = strings.Join(text, "\n\n")
		ps = append(ps, p)
	}
	return ps, cs
}

// doc stores a completed document of pages of chunks in r.
func (f *fixture) doc(t *testing.T, r *room.Room, name string, pages ...[]spec) (*room.Document, []room.Page, []room.Chunk) {
	t.Helper()
	d := f.pending(t, r, name)
	ps, cs := build(d, pages...)
	d.AvgChunkSize = 7
	Must(t, f.s.Complete(f.ctx, d, ps, cs))
	return d, ps, cs
}

// filler makes a chunk long enough for the specification's 50 characters
// without words any test searches for.
const filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor"

// text is a chunk's text: the words, then filler.
func text(words ...string) string { return strings.Join(words, " ") + " " + filler }

// Must fails the test now on an error.
func Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// WantCode fails the test unless err carries code.
func WantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := quarry.ErrorCode(err); err == nil || got != code {
		t.Errorf("%s: error %v (code %s); want %s", what, err, got, code)
	}
}

// sameTime compares times stored at a store's precision (microseconds
// at least).
func sameTime(a, b time.Time) bool {
	d := a.Sub(b)
	return d < time.Millisecond && d > -time.Millisecond
}

func ids[T any](xs []T, id func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = id(x)
	}
	return out
}

func hitIDs(hs []room.ChunkHit) []string {
	return ids(hs, func(h room.ChunkHit) string { return h.ID })
}

func describe(hs []room.ChunkHit) string {
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "\n  %s doc=%s score=%.4f %.40q", h.ID, h.DocumentName, h.Score, h.Text)
	}
	return b.String()
}

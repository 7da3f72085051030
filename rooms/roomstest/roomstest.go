// Package roomstest is the behaviour of rooms.Service that must hold
// whatever store is under it, written once and run on every store
// (sqlite.Rooms in the rooms tests, postgres.Rooms with row-level
// security in the postgres tests):
//
//   - Leakage: a member of room A, and a user in no room, reach room B's
//     rooms, members, documents, files, pages, chunks, questions,
//     answers, feedback, history and progress by no method, with B's real
//     ids or guessed ones: always NOT_FOUND, never a hint that B is there,
//     and nothing of B changes.
//   - Roles: a viewer reads but neither uploads, deletes nor manages
//     members, an editor does not manage members (FORBIDDEN), and one
//     member's questions stay theirs.
//   - BadInput: zip bombs, a 5,000-page PDF, encrypted, malformed and
//     disguised files, empty files, wrong extensions and an enormous page
//     end with their error code, refused at upload or marked failed with
//     the reason, with nothing of them indexed, and the service goes on.
//   - Users: passwords set, changed and checked, and API tokens.
//   - Workers: a stopped worker hands its document back, a dead one's is
//     rescued, a live one keeps its lease, and a process without the
//     room's embedding model refuses its documents; upload names and
//     partial uploads leave nothing behind.
//   - Lockouts: failed sign-ins counted by name and by client in the
//     store, honoured by a second service over it.
//   - RoomNames: a name taken in someone else's room is free to use, and
//     nothing says it is taken.
//   - LastOwner: a room's last owner can be neither demoted nor removed.
//   - Duplicate: content a room has already is refused (CONFLICT, naming
//     the document there) and not stored twice.
//   - DeleteRoom: only an owner deletes a room, which goes whole: members,
//     documents, chunks (out of search), questions, files.
//   - DeleteUser: a user, or the administrator, deletes them with their
//     memberships, tokens, questions and feedback, and the rooms they
//     alone are in; the last owner of a shared room is refused.
//   - PII: e-mail addresses and phone numbers in a question, its answer
//     and a feedback comment are stored masked; the answer is worked out
//     from the question as asked.
package roomstest

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/internal/sampleroom"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
	"github.com/quarry-dev/quarry/rooms"
)

// Run runs the suite. open returns a Service over a new, empty store
// and an empty Dir for each subtest, without workers (the suite calls
// Process itself).
func Run(t *testing.T, open func(t *testing.T) *rooms.Service) {
	tests := []struct {
		name string
		fn   func(t *testing.T, f *fixture)
	}{
		{"Leakage", testLeakage},
		{"Roles", testRoles},
		{"BadInput", testBadInput},
		{"Users", testUsers},
		{"Workers", testWorkers},
		{"UploadNames", testUploadNames},
		{"PartialUploads", testPartialUploads},
		{"Lockouts", testLockouts},
		{"RoomNames", testRoomNames},
		{"LastOwner", testLastOwner},
		{"PII", testPII},
		{"Duplicate", testDuplicate},
		{"DeleteRoom", testDeleteRoom},
		{"DeleteUser", testDeleteUser},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newFixture(t, open(t)))
		})
	}
}

// fixture is two rooms: A, owned by owner with the sample annual report,
// where ed is an editor and vic a viewer; and B, owned by other with the
// sample supply agreement. stranger is in no room.
type fixture struct {
	svc                             *rooms.Service
	ctx                             context.Context
	owner, other, ed, vic, stranger *room.User
	a, b                            *room.Room
	docA, docB                      *room.Document
}

// Questions the sample documents answer: A's annual report its capital
// expenditures, B's supply agreement its termination clause (in words
// that appear nowhere in A).
const (
	questionA = "What were Northwind's capital expenditures in 2023?"
	answerA   = "23.7"
	questionB = "Can the supplier terminate for convenience?"
	answerB   = "one hundred eighty"
)

func newFixture(t *testing.T, svc *rooms.Service) *fixture {
	t.Helper()
	f := &fixture{svc: svc, ctx: context.Background()}
	f.owner = f.user(t, "owner")
	f.other = f.user(t, "other")
	f.stranger = f.user(t, "stranger")
	var err error
	f.a, err = svc.CreateRoom(f.ctx, f.owner.ID, "deal-a", "")
	roomtest.Must(t, err)
	f.b, err = svc.CreateRoom(f.ctx, f.other.ID, "deal-b", "")
	roomtest.Must(t, err)
	f.ed = f.member(t, f.a, "ed", room.RoleEditor)
	f.vic = f.member(t, f.a, "vic", room.RoleViewer)
	f.docA = f.sample(t, f.owner, f.a, "northwind-2023-annual-report.md")
	f.docB = f.sample(t, f.other, f.b, "harbor-supply-agreement.md")
	return f
}

func (f *fixture) user(t *testing.T, name string) *room.User {
	t.Helper()
	u, err := f.svc.EnsureUser(f.ctx, name)
	roomtest.Must(t, err)
	return u
}

// member adds the user called name to r with role, as r's owner.
func (f *fixture) member(t *testing.T, r *room.Room, name, role string) *room.User {
	t.Helper()
	m, err := f.svc.AddMember(f.ctx, r.CreatedBy, r.ID, name, role)
	roomtest.Must(t, err)
	u, err := f.svc.Store.User(room.WithActor(f.ctx, room.System), m.UserID)
	roomtest.Must(t, err)
	return u
}

// sample uploads a sample room document to r as u and processes it.
func (f *fixture) sample(t *testing.T, u *room.User, r *room.Room, name string) *room.Document {
	t.Helper()
	data, err := fs.ReadFile(sampleroom.FS, name)
	roomtest.Must(t, err)
	return f.processed(t, u, r, name, string(data))
}

// processed uploads text to r as u, processes it, and returns it
// completed with chunks.
func (f *fixture) processed(t *testing.T, u *room.User, r *room.Room, name, text string) *room.Document {
	t.Helper()
	d, err := f.svc.Upload(f.ctx, u.ID, r.ID, name, strings.NewReader(text))
	roomtest.Must(t, err)
	roomtest.Must(t, f.svc.Process(f.ctx, d.ID))
	d, err = f.svc.Document(f.ctx, u.ID, d.ID)
	if err != nil || d.Status != room.StatusCompleted || d.ChunkCount == 0 {
		t.Fatalf("%s after processing: %+v, %v; want completed with chunks", name, d, err)
	}
	return d
}

// ask asks as u in r and fails the test on an error.
func (f *fixture) ask(t *testing.T, u *room.User, r *room.Room, question string) *room.Query {
	t.Helper()
	q, err := f.svc.Ask(f.ctx, u.ID, r.ID, question)
	if err != nil {
		t.Fatalf("%s asks %q in %s: %v", u.Name, question, r.Name, err)
	}
	return q
}

// cites reports whether q cites the document.
func cites(q *room.Query, documentID string) bool {
	for _, c := range q.Citations {
		if c.DocumentID == documentID {
			return true
		}
	}
	return false
}

// Package rooms runs the data rooms: it is the one place that decides who
// may see or change what. Every call names the user it acts for, and
// access resolves that user's membership of the room the call reaches —
// directly, or through a document, page, chunk or query id — before the
// store is read. A room the user is not a member of does not exist for
// them: NOT_FOUND, never a hint that it is there.
package rooms

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
)

// Config wires a Service. Store and Dir are required.
type Config struct {
	Store room.Store
	// Dir holds the uploads, rooms/{room_id}/documents/{document_id}/...
	Dir string
	// Embedder, when set, embeds chunks with the model EmbeddingModel
	// names; answers then fuse vector and BM25 ranks.
	Embedder       llm.Embedder
	EmbeddingModel string
	// Model, when set, writes answers from the passages found; every
	// number it states is checked against the passages it cites.
	Model llm.Model
	Now   func() time.Time
	Log   *slog.Logger
	// Audit, when set, is the hash-chained log every question, every
	// tool a document's processing calls and every change to a room is
	// written to (see AuditLog). What cannot be written there is not
	// done: the question is answered with an error, the document fails,
	// the change is refused. Without it nothing is recorded.
	Audit AuditLog
	// Progress, when set, hears how a document's processing goes;
	// Watch streams the same steps to the pages of a room.
	Progress func(room.Progress)
	// Queue, when set, takes uploaded documents to be processed by its
	// workers instead of this process's (Start).
	Queue Queue
	// Lease is how long a worker's claim on a document lasts unless
	// renewed (DefaultLease when 0): a worker that dies leaves its
	// documents to be processed again about that long after.
	Lease time.Duration

	// SignIns bounds the password checks of Login and LoginFrom in this
	// process; zero values take the defaults.
	SignIns SignInLimits
}

// Service runs the data rooms over a store and a directory of uploaded
// files. It is safe for concurrent use; its Config may be changed only
// before its first use.
type Service struct {
	Config
	events     feed
	signInOnce sync.Once
	signIns    *gate

	mu        sync.Mutex
	pending   chan string
	wg        sync.WaitGroup
	roomLocks map[string]*roomLock
}

// New returns a Service. Call Start to process uploads in this process,
// or give it a Queue.
func New(cfg Config) *Service { return &Service{Config: cfg} }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// act names userID as the actor of the store calls made with ctx, for a
// store with its own access rules (postgres.Rooms's row-level security).
// Every method that acts for a user starts with it.
func act(ctx context.Context, userID string) context.Context {
	return room.WithActor(ctx, userID)
}

// access returns userID's membership of roomID when it grants want.
// Errors: NOT_FOUND when the room does not exist or the user is not a
// member (the same answer, so that ids cannot be probed), FORBIDDEN when
// the member's role is too weak.
func (s *Service) access(ctx context.Context, userID, roomID, want string) (*room.Member, error) {
	ctx = act(ctx, userID)
	m, err := s.Store.Member(ctx, roomID, userID)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no room %s", roomID)
	}
	if err != nil {
		return nil, err
	}
	if !room.RoleAtLeast(m.Role, want) {
		return nil, quarry.Errorf(quarry.ECodeForbidden, "%s needs the %s role in this room; you are a %s", verbOf(want), want, m.Role)
	}
	return m, nil
}

func verbOf(role string) string {
	switch role {
	case room.RoleOwner:
		return "managing members"
	case room.RoleEditor:
		return "changing documents"
	}
	return "reading"
}

// document returns a document userID may act on with want, NOT_FOUND
// for one in a room they are not in.
func (s *Service) document(ctx context.Context, userID, documentID, want string) (*room.Document, error) {
	ctx = act(ctx, userID)
	d, err := s.Store.Document(ctx, documentID)
	if err != nil {
		return nil, err
	}
	if _, err := s.access(ctx, userID, d.RoomID, want); err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeNotFound {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "no document %s", documentID)
		}
		return nil, err
	}
	return d, nil
}

// EnsureUser returns the user called name, creating it (without a
// password) when missing.
func (s *Service) EnsureUser(ctx context.Context, name string) (*room.User, error) {
	ctx = act(ctx, room.System)
	u, _, err := s.Store.UserByName(ctx, name)
	if err == nil {
		return u, nil
	}
	if quarry.ErrorCode(err) != quarry.ECodeNotFound {
		return nil, err
	}
	u = &room.User{ID: quarry.NewID(), Name: name, CreatedAt: s.now()}
	if err := s.Store.CreateUser(ctx, u, ""); err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeConflict {
			u, _, err = s.Store.UserByName(ctx, name)
			return u, err
		}
		return nil, err
	}
	return u, nil
}

// validName checks a room or user name.
func validName(kind, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return quarry.Errorf(quarry.ECodeInvalid, "the %s name is empty", kind)
	case len(name) > 100:
		return quarry.Errorf(quarry.ECodeInvalid, "the %s name is %d characters; at most 100", kind, len(name))
	case strings.ContainsAny(name, "/\\\x00\n"):
		return quarry.Errorf(quarry.ECodeInvalid, "the %s name %q contains a slash or a control character", kind, name)
	}
	return nil
}

// CreateRoom makes a room with userID as its owner. Errors: INVALID for
// a bad name, CONFLICT when userID has created a room of that name
// already. Names are unique per creator: whether someone else has a room
// of the name, the answer is the same.
func (s *Service) CreateRoom(ctx context.Context, userID, name, description string) (*room.Room, error) {
	ctx = act(ctx, userID)
	name = strings.TrimSpace(name)
	if err := validName("room", name); err != nil {
		return nil, err
	}
	r := &room.Room{ID: quarry.NewID(), Name: name, Description: description, CreatedBy: userID, CreatedAt: s.now(), Role: room.RoleOwner}
	err := s.change(r.ID, userID, map[string]any{"action": "create_room", "room_id": r.ID, "name": name}, func() error {
		return s.Store.CreateRoom(ctx, r, userID)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Rooms lists the rooms userID is a member of.
func (s *Service) Rooms(ctx context.Context, userID string) ([]room.Room, error) {
	ctx = act(ctx, userID)
	return s.Store.RoomsOf(ctx, userID)
}

// Room finds a room of userID's by id or name. A name is looked up
// among the rooms userID is a member of only, as names are unique per
// creator: another person's room of that name is not theirs to find.
// Errors: NOT_FOUND, CONFLICT when userID is in several rooms of that
// name (the message lists their ids).
func (s *Service) Room(ctx context.Context, userID, idOrName string) (*room.Room, error) {
	ctx = act(ctx, userID)
	notFound := quarry.Errorf(quarry.ECodeNotFound, "no room %s", idOrName).WithHint("quarry room list shows your rooms")
	r, err := s.Store.Room(ctx, idOrName)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		r, err = s.roomByName(ctx, userID, idOrName)
	}
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	m, err := s.access(ctx, userID, r.ID, room.RoleViewer)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	r.Role = m.Role
	return r, nil
}

// roomByName returns the one room of userID's called name (case-
// insensitively). Errors: NOT_FOUND, CONFLICT for several.
func (s *Service) roomByName(ctx context.Context, userID, name string) (*room.Room, error) {
	rs, err := s.Store.RoomsOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	var found []room.Room
	for _, r := range rs {
		if strings.EqualFold(r.Name, name) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no room %s", name)
	case 1:
		return &found[0], nil
	}
	ids := make([]string, len(found))
	for i, r := range found {
		ids[i] = r.ID
	}
	return nil, quarry.Errorf(quarry.ECodeConflict, "you are in %d rooms called %s", len(found), name).
		WithHint("name the room by its id: " + strings.Join(ids, ", "))
}

// AddMember gives the user called memberName a role in roomID, creating
// the user when missing. Only owners may. Errors: FORBIDDEN, INVALID for
// an unknown role, CONFLICT when memberName is the room's last owner and
// the role is not owner.
func (s *Service) AddMember(ctx context.Context, userID, roomID, memberName, role string) (*room.Member, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleOwner); err != nil {
		return nil, s.refused(roomID, userID, "add_member", roomID, err)
	}
	if !room.RoleAtLeast(role, room.RoleViewer) {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "role %q: want owner, editor or viewer", role)
	}
	if err := validName("user", memberName); err != nil {
		return nil, err
	}
	u, err := s.EnsureUser(ctx, memberName)
	if err != nil {
		return nil, err
	}
	m := room.Member{RoomID: roomID, UserID: u.ID, UserName: u.Name, Role: role, AddedAt: s.now()}
	decision := map[string]any{"action": "add_member", "room_id": roomID, "member_id": u.ID, "member_name": u.Name, "role": role}
	prev, err := s.Store.Member(ctx, roomID, u.ID)
	switch {
	case err == nil:
		decision["action"], decision["previous_role"] = "change_role", prev.Role
	case quarry.ErrorCode(err) != quarry.ECodeNotFound:
		return nil, err
	}
	if err := s.change(roomID, userID, decision, func() error { return s.Store.PutMember(ctx, m) }); err != nil {
		return nil, lastOwner(err, userID, u)
	}
	return &m, nil
}

// RemoveMember takes the user called memberName out of roomID: an owner
// may remove anyone, any member themselves. Errors: NOT_FOUND for a room
// userID is not in or a user who is not a member, FORBIDDEN for a
// non-owner removing someone else, CONFLICT for the room's last owner (a
// room keeps one; delete the room instead).
func (s *Service) RemoveMember(ctx context.Context, userID, roomID, memberName string) error {
	ctx = act(ctx, userID)
	me, err := s.access(ctx, userID, roomID, room.RoleViewer)
	if err != nil {
		return err
	}
	u, _, err := s.Store.UserByName(act(ctx, room.System), strings.TrimSpace(memberName))
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return quarry.Errorf(quarry.ECodeNotFound, "%s is not a member of this room", memberName)
	}
	if err != nil {
		return err
	}
	if u.ID != userID && me.Role != room.RoleOwner {
		return s.refused(roomID, userID, "remove_member", roomID,
			quarry.Errorf(quarry.ECodeForbidden, "managing members needs the owner role in this room; you are a %s", me.Role))
	}
	err = s.change(roomID, userID, map[string]any{"action": "remove_member", "room_id": roomID, "member_id": u.ID, "member_name": u.Name}, func() error {
		return s.Store.RemoveMember(ctx, roomID, u.ID)
	})
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return quarry.Errorf(quarry.ECodeNotFound, "%s is not a member of this room", u.Name)
	}
	return lastOwner(err, userID, u)
}

// lastOwner words the store's refusal to leave a room without an owner
// for the person asking.
func lastOwner(err error, userID string, member *room.User) error {
	if quarry.ErrorCode(err) != quarry.ECodeConflict {
		return err
	}
	if member.ID == userID {
		return quarry.Errorf(quarry.ECodeConflict, "you are the last owner of this room; a room must keep an owner").
			WithHint("make another member an owner first, or delete the room")
	}
	return quarry.Errorf(quarry.ECodeConflict, "%s is the last owner of this room; a room must keep an owner", member.Name).
		WithHint("make another member an owner first")
}

// Members lists a room's members.
func (s *Service) Members(ctx context.Context, userID, roomID string) ([]room.Member, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return nil, err
	}
	return s.Store.Members(ctx, roomID)
}

// Documents lists a room's documents.
func (s *Service) Documents(ctx context.Context, userID, roomID string) ([]room.Document, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return nil, err
	}
	return s.Store.ListDocuments(ctx, roomID)
}

// Document returns a document of a room userID is in.
func (s *Service) Document(ctx context.Context, userID, documentID string) (*room.Document, error) {
	ctx = act(ctx, userID)
	return s.document(ctx, userID, documentID, room.RoleViewer)
}

// Pages returns a document's pages.
func (s *Service) Pages(ctx context.Context, userID, documentID string) ([]room.Page, error) {
	ctx = act(ctx, userID)
	if _, err := s.document(ctx, userID, documentID, room.RoleViewer); err != nil {
		return nil, err
	}
	return s.Store.Pages(ctx, documentID)
}

// Page returns one page of a document.
func (s *Service) Page(ctx context.Context, userID, documentID string, number int) (*room.Page, error) {
	ctx = act(ctx, userID)
	if _, err := s.document(ctx, userID, documentID, room.RoleViewer); err != nil {
		return nil, err
	}
	return s.Store.Page(ctx, documentID, number)
}

// Chunk returns a chunk of a document userID may read.
func (s *Service) Chunk(ctx context.Context, userID, chunkID string) (*room.Chunk, error) {
	ctx = act(ctx, userID)
	c, err := s.Store.Chunk(ctx, chunkID)
	if err != nil {
		return nil, err
	}
	if _, err := s.document(ctx, userID, c.DocumentID, room.RoleViewer); err != nil {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no chunk %s", chunkID)
	}
	return c, nil
}

// DeleteDocument removes a document with everything made from it.
func (s *Service) DeleteDocument(ctx context.Context, userID, documentID string) error {
	ctx = act(ctx, userID)
	d, err := s.document(ctx, userID, documentID, room.RoleEditor)
	if err != nil {
		return s.refused(documentID, userID, "delete_document", "", err)
	}
	err = s.change(d.ID, userID, map[string]any{"action": "delete_document", "room_id": d.RoomID, "document_id": d.ID, "name": d.Name}, func() error {
		return s.Store.DeleteDocument(ctx, documentID)
	})
	if err != nil {
		return err
	}
	return s.removeFile(d)
}

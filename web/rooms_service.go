package web

import (
	"context"
	"io"
	"time"

	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// RoomService is what the data rooms' API and pages need
// (rooms.Service). Every method takes the acting user's id and decides
// access itself: NOT_FOUND for a room, document, page, chunk or query the
// user cannot reach, FORBIDDEN for a role too weak for the action. No
// handler decides access. Errors are *quarry.Error values.
type RoomService interface {
	// CreateRoom makes a room owned by userID. Errors: INVALID, CONFLICT.
	CreateRoom(ctx context.Context, userID, name, description string) (*room.Room, error)
	// Rooms lists userID's rooms with their role.
	Rooms(ctx context.Context, userID string) ([]room.Room, error)
	// Room finds one of userID's rooms by id or name.
	Room(ctx context.Context, userID, idOrName string) (*room.Room, error)
	// AddMember adds a member by user name or changes their role (owners
	// only). Errors: FORBIDDEN, INVALID.
	AddMember(ctx context.Context, userID, roomID, memberName, role string) (*room.Member, error)
	Members(ctx context.Context, userID, roomID string) ([]room.Member, error)

	Documents(ctx context.Context, userID, roomID string) ([]room.Document, error)
	Document(ctx context.Context, userID, documentID string) (*room.Document, error)
	// Upload stores a document as pending for the workers (editors and
	// owners). Errors: INVALID_FILE_TYPE, EMPTY_FILE, FILE_TOO_LARGE,
	// with nothing left behind.
	Upload(ctx context.Context, userID, roomID, name string, r io.Reader) (*room.Document, error)
	DeleteDocument(ctx context.Context, userID, documentID string) error
	// FilePath is where the document's original bytes are.
	FilePath(ctx context.Context, userID, documentID string) (string, *room.Document, error)
	Pages(ctx context.Context, userID, documentID string) ([]room.Page, error)
	Page(ctx context.Context, userID, documentID string, number int) (*room.Page, error)
	Chunk(ctx context.Context, userID, chunkID string) (*room.Chunk, error)
	// Watch streams the processing steps of a room's documents;
	// Latest is one document's current step, nil when none.
	Watch(ctx context.Context, userID, roomID string) (latest []room.Progress, live <-chan room.Progress, cancel func(), err error)
	Latest(ctx context.Context, userID, documentID string) (*room.Progress, error)

	// Ask answers a question and records it. Errors: INVALID, and
	// *room.RateLimited (RATE_LIMITED) past the hourly limit.
	Ask(ctx context.Context, userID, roomID, question string) (*room.Query, error)
	// Query is one of userID's own queries.
	Query(ctx context.Context, userID, queryID string) (*room.Query, error)
	Feedback(ctx context.Context, userID, queryID, rating, comment string) (*room.Feedback, error)
	// History lists userID's queries in a room, newest first, created
	// before before (zero: from the newest).
	History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]room.Query, error)
	DeleteHistory(ctx context.Context, userID, roomID string) (int, error)
	// ExportHistory is userID's history in a room with personal data
	// masked.
	ExportHistory(ctx context.Context, userID, roomID string) (*room.Export, error)
}

var _ RoomService = (*rooms.Service)(nil)

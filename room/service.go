package room

import (
	"context"
	"io"
	"time"
)

// Service is the data rooms as the web server, the MCP server and the
// command line call them; rooms.Service implements it. Every method takes
// the acting user's id and decides access itself: NOT_FOUND for a room,
// document, page, chunk or query the user cannot reach, FORBIDDEN for a
// role too weak for the action. No handler decides access. Errors are
// *quarry.Error values.
type Service interface {
	// CreateRoom makes a room owned by userID. Errors: INVALID, CONFLICT.
	CreateRoom(ctx context.Context, userID, name, description string) (*Room, error)
	// Rooms lists userID's rooms with their role.
	Rooms(ctx context.Context, userID string) ([]Room, error)
	// Room finds one of userID's rooms by id or name.
	Room(ctx context.Context, userID, idOrName string) (*Room, error)
	// AddMember adds a member by user name or changes their role (owners
	// only). Errors: FORBIDDEN, INVALID.
	AddMember(ctx context.Context, userID, roomID, memberName, role string) (*Member, error)
	Members(ctx context.Context, userID, roomID string) ([]Member, error)
	// RemoveMember takes the user called memberName out of the room: an
	// owner removes anyone, a member themselves. Errors: NOT_FOUND,
	// FORBIDDEN, CONFLICT for the room's last owner.
	RemoveMember(ctx context.Context, userID, roomID, memberName string) error
	// DeleteRoom deletes a room with its members, documents (their files
	// too), pages, chunks and questions (owners only). Errors:
	// NOT_FOUND, FORBIDDEN.
	DeleteRoom(ctx context.Context, userID, roomID string) error
	// DeleteUser deletes the user userID with their memberships, tokens,
	// questions and feedback, and the rooms they alone are in; actorID
	// is the user themselves or System. Errors: NOT_FOUND, FORBIDDEN
	// (another user, or the local owner), CONFLICT when they are the
	// last owner of a room others are in.
	DeleteUser(ctx context.Context, actorID, userID string) error

	Documents(ctx context.Context, userID, roomID string) ([]Document, error)
	Document(ctx context.Context, userID, documentID string) (*Document, error)
	// Upload stores a document as pending for the workers (editors and
	// owners). Errors: INVALID_FILE_TYPE, EMPTY_FILE, FILE_TOO_LARGE,
	// with nothing left behind; CONFLICT, a *Duplicate, for content the
	// room has already.
	Upload(ctx context.Context, userID, roomID, name string, r io.Reader) (*Document, error)
	DeleteDocument(ctx context.Context, userID, documentID string) error
	// FilePath is where the document's original bytes are.
	FilePath(ctx context.Context, userID, documentID string) (string, *Document, error)
	Pages(ctx context.Context, userID, documentID string) ([]Page, error)
	Page(ctx context.Context, userID, documentID string, number int) (*Page, error)
	// View is Page for a reader, and Download FilePath for one who takes
	// the file away: both are in the room's access log.
	View(ctx context.Context, userID, documentID string, number int) (*Page, error)
	Download(ctx context.Context, userID, documentID string) (string, *Document, error)
	// AccessLog is what users did in a room, for its owners.
	AccessLog(ctx context.Context, userID, roomID string) ([]Access, error)
	Chunk(ctx context.Context, userID, chunkID string) (*Chunk, error)
	// Watch streams the processing steps of a room's documents;
	// Latest is one document's current step, nil when none.
	Watch(ctx context.Context, userID, roomID string) (latest []Progress, live <-chan Progress, cancel func(), err error)
	Latest(ctx context.Context, userID, documentID string) (*Progress, error)

	// Ask answers a question and records it. Errors: INVALID, and
	// *RateLimited (RATE_LIMITED) past the hourly limit.
	Ask(ctx context.Context, userID, roomID, question string) (*Query, error)
	// Query is one of userID's own queries.
	Query(ctx context.Context, userID, queryID string) (*Query, error)
	Feedback(ctx context.Context, userID, queryID, rating, comment string) (*Feedback, error)
	// History lists userID's queries in a room, newest first, created
	// before before (zero: from the newest).
	History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]Query, error)
	DeleteHistory(ctx context.Context, userID, roomID string) (int, error)
	// ExportHistory is userID's history in a room with personal data
	// masked.
	ExportHistory(ctx context.Context, userID, roomID string) (*Export, error)
}

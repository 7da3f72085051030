package room

import (
	"context"
	"time"
)

// Store keeps users, rooms, documents with their pages and chunks, and
// queries with their citations and feedback. It does not check who asks:
// rooms.Service does, before calling it. Errors: NOT_FOUND for a missing
// id, CONFLICT for a duplicate name; the one conformance suite
// (room/roomtest) holds every implementation to the same behaviour.
type Store interface {
	Users
	Rooms
	Documents
	Search
	Queries
}

// Users keeps people and their credentials. Secrets are stored only as
// hashes made by the caller.
type Users interface {
	CreateUser(ctx context.Context, u *User, passwordHash string) error
	User(ctx context.Context, id string) (*User, error)
	// UserByName returns the user and their password hash.
	UserByName(ctx context.Context, name string) (*User, string, error)
	ListUsers(ctx context.Context) ([]User, error)
	// DeleteUser removes the user with their memberships, queries and
	// feedback (the right to erasure).
	DeleteUser(ctx context.Context, id string) error
	// CreateToken stores an API token's hash for a user.
	CreateToken(ctx context.Context, userID, name, tokenHash string) error
	UserByToken(ctx context.Context, tokenHash string) (*User, error)
	// ListTokens returns a user's tokens, newest first.
	ListTokens(ctx context.Context, userID string) ([]Token, error)
	// DeleteToken removes the user's token whose ID is id. Errors:
	// NOT_FOUND when the user has none.
	DeleteToken(ctx context.Context, userID, id string) error
	// EndSession records that userID signed out of sign-in session id,
	// which must be refused until it would have expired, and forgets
	// the ended sessions already past that.
	EndSession(ctx context.Context, userID, id string, expires time.Time) error
	// SessionEnded reports whether session id was ended.
	SessionEnded(ctx context.Context, id string) (bool, error)
	// FailLogin counts one failed sign-in under key (a user name's or a
	// client's, as the caller makes them) at now, and returns key's
	// failures since the first of its window: a count whose first
	// failure is window or more before now starts again at 1. It forgets
	// the counts whose window is over, so that only live ones are kept.
	// Concurrent calls for one key each count.
	FailLogin(ctx context.Context, key string, now time.Time, window time.Duration) (LoginFailures, error)
	// LoginFailures returns key's failures at now: none when it has none
	// or its window is over.
	LoginFailures(ctx context.Context, key string, now time.Time, window time.Duration) (LoginFailures, error)
	// ClearLoginFailures forgets key's failures, after a sign-in that
	// succeeded.
	ClearLoginFailures(ctx context.Context, key string) error
}

// LoginFailures are the failed sign-ins counted under one key since
// Since, the first of them in the window; Count 0 is none.
type LoginFailures struct {
	Count int
	Since time.Time
}

// PasswordSetter is a store that can replace a user's password hash, an
// optional capability of a Users (rooms.Service.SetPassword needs it).
// Errors: NOT_FOUND for an unknown user.
type PasswordSetter interface {
	SetPassword(ctx context.Context, userID, passwordHash string) error
}

// Rooms keeps rooms and memberships.
type Rooms interface {
	// CreateRoom stores r with owner as its first member, at once.
	// Errors: CONFLICT when r's creator has a room of that name already.
	// A name is unique per creator, case-insensitively, not across the
	// store: creating a room must not tell anyone whether a room they
	// cannot see has the name they chose.
	CreateRoom(ctx context.Context, r *Room, owner string) error
	Room(ctx context.Context, id string) (*Room, error)
	// RoomsOf lists the rooms userID is a member of, with their role.
	RoomsOf(ctx context.Context, userID string) ([]Room, error)
	DeleteRoom(ctx context.Context, id string) error
	// PutMember adds a member or changes their role. Errors: CONFLICT
	// when the change would leave the room without an owner.
	PutMember(ctx context.Context, m Member) error
	// RemoveMember removes a member. Errors: NOT_FOUND when userID is not
	// one, CONFLICT when they are the room's last owner.
	RemoveMember(ctx context.Context, roomID, userID string) error
	// Member returns userID's membership of roomID; NOT_FOUND when none.
	Member(ctx context.Context, roomID, userID string) (*Member, error)
	Members(ctx context.Context, roomID string) ([]Member, error)
}

// Documents keeps documents, their pages and their chunks.
type Documents interface {
	CreateDocument(ctx context.Context, d *Document) error
	Document(ctx context.Context, id string) (*Document, error)
	ListDocuments(ctx context.Context, roomID string) ([]Document, error)
	// SetStatus moves a document to processing or failed (with the
	// error's code and message).
	SetStatus(ctx context.Context, id, status, code, message string) error
	// Complete stores a processed document's pages and chunks, its
	// metadata, counts and notes, and marks it completed, all at once: a
	// search sees all of the document or none of it.
	Complete(ctx context.Context, d *Document, pages []Page, chunks []Chunk) error
	// DeleteDocument removes the document with its pages, chunks and the
	// citations of them.
	DeleteDocument(ctx context.Context, id string) error
	Pages(ctx context.Context, documentID string) ([]Page, error)
	Page(ctx context.Context, documentID string, number int) (*Page, error)
	Chunk(ctx context.Context, id string) (*Chunk, error)
	// Pending lists documents left pending or processing, oldest first,
	// for a worker to (re)process after a restart.
	Pending(ctx context.Context) ([]Document, error)
	Leases
}

// Leases are how processing survives the death of the process doing it.
// A worker claims a document for a lease that it renews while it works;
// the lease of a process that died runs out, and RescueExpired hands the
// document back, pending, for another worker. Durations count on the
// store's clock, so that workers on several machines agree.
type Leases interface {
	// ClaimDocument marks the document processing under holder's lease
	// for the next d and returns it: a pending document, or a processing
	// one whose lease ran out. Errors: NOT_FOUND; CONFLICT when the
	// document is completed or failed, or another holder's lease runs.
	ClaimDocument(ctx context.Context, id, holder string, d time.Duration) (*Document, error)
	// RenewLease extends holder's lease of a processing document to d
	// from now. Errors: CONFLICT when the document is no longer
	// processing under holder's lease (it ran out and was taken), NOT_FOUND.
	RenewLease(ctx context.Context, id, holder string, d time.Duration) error
	// ReleaseDocument hands holder's processing document back: pending,
	// in its next round, with no lease. Errors: CONFLICT when it is not
	// processing under holder's lease, NOT_FOUND.
	ReleaseDocument(ctx context.Context, id, holder string) (*Document, error)
	// RescueExpired hands back every processing document whose lease ran
	// out (or that has none), as ReleaseDocument does, and returns them
	// in their new round, oldest first.
	RescueExpired(ctx context.Context) ([]Document, error)
}

// Search finds chunks in a room.
type Search interface {
	// SearchChunks ranks the room's chunks against the query's terms with
	// BM25; with documentIDs, only theirs.
	SearchChunks(ctx context.Context, roomID string, q ChunkQuery) ([]ChunkHit, error)
	// SearchVectors ranks the room's chunks embedded by q.Model by cosine
	// similarity to q.Vector, best first (Score is the cosine); with
	// DocumentIDs, only theirs. Chunks of other models are not compared.
	SearchVectors(ctx context.Context, roomID string, q VectorQuery) ([]ChunkHit, error)
	// TermChunks returns, for each term (as retrieve.Terms gives them),
	// how many of the room's chunks hold a word of its family (revenue,
	// revenues), and how many chunks the room has: what makes a word of
	// a question rare or common in the room.
	TermChunks(ctx context.Context, roomID string, terms []string) (map[string]int, int, error)
}

// VectorQuery is a semantic search: the question's embedding by Model.
type VectorQuery struct {
	Vector      []float32
	Model       string
	DocumentIDs []string
	Limit       int
}

// ChunkQuery is a lexical search.
type ChunkQuery struct {
	// Terms are the words to match, as retrieve.Terms gives them; a chunk
	// matches when it has any of them.
	Terms       []string
	DocumentIDs []string
	Limit       int
	// MaxTerms, when above 0, lets a store search only that many of the
	// terms, the rarest in the room: words in much of the room add little
	// to a ranking and most of the cost of finding it. A store may search
	// them all.
	MaxTerms int
	// MaxPostings, when above 0, lets a store also leave out the
	// commonest of those terms while together they are in more than
	// MaxPostings of the room's chunks, keeping the rarest term at least:
	// the cost of a search grows with the chunks its words are in. A
	// store may search them all.
	MaxPostings int
}

// ChunkHit is a chunk found by a search, with its document's name and a
// score where larger is better.
type ChunkHit struct {
	Chunk
	DocumentName string  `json:"document_name"`
	Score        float64 `json:"score"`
}

// Queries keeps questions, answers, citations, feedback and rate limits.
type Queries interface {
	// SaveQuery stores a query with its citations.
	SaveQuery(ctx context.Context, q *Query) error
	// Query returns a query with its citations and feedback.
	Query(ctx context.Context, id string) (*Query, error)
	// History lists userID's queries in roomID, newest first, with their
	// citations and feedback; before (a created_at) pages backwards.
	History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]Query, error)
	// DeleteHistory removes userID's queries in roomID and returns how
	// many.
	DeleteHistory(ctx context.Context, userID, roomID string) (int, error)
	// PutFeedback stores or replaces the feedback of a query.
	PutFeedback(ctx context.Context, f Feedback) error
	// TakeQuota counts one query of userID in roomID in the hour window
	// starting at window, unless limit are counted already; it returns
	// whether it counted and the count.
	TakeQuota(ctx context.Context, userID, roomID string, window time.Time, limit int) (bool, int, error)
	// CleanQuotas removes rate-limit windows that started before.
	CleanQuotas(ctx context.Context, before time.Time) (int, error)
}

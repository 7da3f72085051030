package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Rooms is the data rooms' store (room.Store) in its own SQLite file,
// db/rooms.db under the data dir: the specification's tables, with the
// chunks' text in an FTS5 index searched per room with BM25. Foreign keys
// cascade as the specification's table says.
type Rooms struct {
	write   *sql.DB
	read    *sql.DB
	vectors vectorCache
	terms   termStats
}

var _ room.Store = (*Rooms)(nil)

const roomsSchema = `
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    email TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ended_sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_ended_sessions_expiry ON ended_sessions(expires_at);
CREATE TABLE IF NOT EXISTS login_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL CHECK (failures > 0),
    since TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_login_failures_since ON login_failures(since);
CREATE TABLE IF NOT EXISTS data_rooms (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE,
    description TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_rooms_creator_name ON data_rooms(created_by, name);
CREATE TABLE IF NOT EXISTS data_room_members (
    data_room_id TEXT NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    added_at TEXT NOT NULL,
    PRIMARY KEY (data_room_id, user_id)
);
CREATE INDEX IF NOT EXISTS idx_members_user ON data_room_members(user_id);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    data_room_id TEXT NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    processing_status TEXT NOT NULL CHECK (processing_status IN ('pending', 'processing', 'completed', 'failed')),
    error_code TEXT NOT NULL DEFAULT '',
    error_message TEXT NOT NULL DEFAULT '',
    ocr_attempted INTEGER NOT NULL DEFAULT 0,
    page_count INTEGER NOT NULL DEFAULT 0,
    chunk_count INTEGER NOT NULL DEFAULT 0 CHECK (chunk_count >= 0),
    avg_chunk_size INTEGER NOT NULL DEFAULT 0 CHECK (avg_chunk_size >= 0),
    metadata TEXT NOT NULL DEFAULT '{}',
    notes TEXT NOT NULL DEFAULT '[]',
    uploaded_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    embedding_model TEXT NOT NULL DEFAULT '',
    round INTEGER NOT NULL DEFAULT 0,
    lease_holder TEXT NOT NULL DEFAULT '',
    lease_until TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_documents_room ON documents(data_room_id, created_at);
CREATE INDEX IF NOT EXISTS idx_documents_status ON documents(processing_status, created_at);
CREATE TABLE IF NOT EXISTS document_pages (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page_number INTEGER NOT NULL CHECK (page_number > 0),
    text_content TEXT NOT NULL DEFAULT '',
    ocr_confidence REAL CHECK (ocr_confidence BETWEEN 0 AND 1),
    created_at TEXT NOT NULL,
    UNIQUE (document_id, page_number)
);
CREATE TABLE IF NOT EXISTS document_chunks (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page_id TEXT NOT NULL REFERENCES document_pages(id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL CHECK (chunk_index >= 0),
    text_content TEXT NOT NULL CHECK (length(text_content) BETWEEN 50 AND 3000),
    context TEXT NOT NULL DEFAULT '',
    token_count INTEGER NOT NULL CHECK (token_count > 0 AND token_count <= 1000),
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL CHECK (end_char > start_char),
    embedding BLOB,
    embedding_model TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (document_id, chunk_index)
);
CREATE INDEX IF NOT EXISTS idx_chunks_document ON document_chunks(document_id);
CREATE INDEX IF NOT EXISTS idx_chunks_page ON document_chunks(page_id);
CREATE TABLE IF NOT EXISTS chunk_search (
    rowid INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE REFERENCES document_chunks(id) ON DELETE CASCADE,
    document_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_chunk_search_document ON chunk_search(document_id);
CREATE TABLE IF NOT EXISTS room_words (
    data_room_id TEXT NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    word TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    PRIMARY KEY (data_room_id, word)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS qa_queries (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    data_room_id TEXT NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    question TEXT NOT NULL CHECK (length(question) BETWEEN 5 AND 2000),
    answer TEXT,
    answer_type TEXT CHECK (answer_type IN ('grounded', 'insufficient_evidence', 'error')),
    model_used TEXT NOT NULL DEFAULT '',
    retrieval_time_ms INTEGER CHECK (retrieval_time_ms >= 0),
    llm_time_ms INTEGER CHECK (llm_time_ms >= 0),
    total_time_ms INTEGER CHECK (total_time_ms >= 0),
    chunks_retrieved INTEGER CHECK (chunks_retrieved >= 0),
    tokens_input INTEGER CHECK (tokens_input >= 0),
    tokens_output INTEGER CHECK (tokens_output >= 0),
    error_type TEXT NOT NULL DEFAULT '',
    error_message TEXT NOT NULL DEFAULT '',
    retry_count INTEGER NOT NULL DEFAULT 0 CHECK (retry_count BETWEEN 0 AND 1),
    created_at TEXT NOT NULL,
    completed_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_queries_user_room ON qa_queries(user_id, data_room_id, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_queries_data_room ON qa_queries(data_room_id, created_at DESC);
CREATE TABLE IF NOT EXISTS qa_citations (
    id TEXT PRIMARY KEY,
    query_id TEXT NOT NULL REFERENCES qa_queries(id) ON DELETE CASCADE,
    chunk_id TEXT NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page_number INTEGER NOT NULL,
    relevance_score REAL NOT NULL CHECK (relevance_score BETWEEN 0 AND 1),
    rank INTEGER NOT NULL CHECK (rank > 0),
    text_preview TEXT NOT NULL CHECK (length(text_preview) <= 500),
    verified INTEGER NOT NULL DEFAULT 1,
    citation_format TEXT NOT NULL DEFAULT 'inline' CHECK (citation_format IN ('inline', 'footnote')),
    created_at TEXT NOT NULL,
    UNIQUE (query_id, rank)
);
CREATE INDEX IF NOT EXISTS idx_citations_query ON qa_citations(query_id, rank);
CREATE INDEX IF NOT EXISTS idx_citations_chunk ON qa_citations(chunk_id);
CREATE TABLE IF NOT EXISTS qa_feedback (
    id TEXT PRIMARY KEY,
    query_id TEXT NOT NULL UNIQUE REFERENCES qa_queries(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    rating TEXT NOT NULL CHECK (rating IN ('helpful', 'not_helpful')),
    comment TEXT NOT NULL DEFAULT '' CHECK (length(comment) <= 2000),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS qa_rate_limits (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    data_room_id TEXT NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    window_start TEXT NOT NULL,
    query_count INTEGER NOT NULL DEFAULT 0 CHECK (query_count BETWEEN 0 AND 100),
    last_query_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_ratelimit_user_room_window ON qa_rate_limits(user_id, data_room_id, window_start);
CREATE INDEX IF NOT EXISTS idx_ratelimit_window ON qa_rate_limits(window_start);
`

// OpenRooms opens (creating) the data rooms' store at path; ":memory:"
// opens a private one for tests.
func OpenRooms(path string) (*Rooms, error) {
	if path == ":memory:" {
		conn, err := sql.Open("sqlite", "file:rooms-"+quarry.NewID()+"?mode=memory&cache=shared&_pragma=foreign_keys(1)")
		if err != nil {
			return nil, err
		}
		conn.SetMaxOpenConns(1)
		conn.SetConnMaxIdleTime(0)
		conn.SetConnMaxLifetime(0)
		if _, err := conn.Exec(roomsSchema); err != nil {
			conn.Close()
			return nil, err
		}
		return &Rooms{write: conn, read: conn}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	write, read, err := openFile(path, func(write *sql.DB) error {
		if _, err := write.Exec(roomsSchema); err != nil {
			return err
		}
		if err := addDocumentColumns(write); err != nil {
			return err
		}
		if err := scopeRoomNames(write); err != nil {
			return err
		}
		if err := moveSearchIndexes(write); err != nil {
			return err
		}
		return countStoreWords(write)
	})
	if err != nil {
		return nil, err
	}
	return &Rooms{write: write, read: read}, nil
}

// scanner is a *sql.Row or *sql.Rows, for the scan functions.
type scanner = interface{ Scan(...any) error }

// queryAll runs a query and reads every row with scan.
func queryAll[T any](ctx context.Context, db *sql.DB, scan func(scanner) (*T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanAll(rows, scan)
}

// scanAll reads every row of rows with scan.
func scanAll[T any](rows *sql.Rows, scan func(scanner) (*T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *v)
	}
	return out, rows.Err()
}

// Close closes the store.
func (s *Rooms) Close() error { return closePair(s.write, s.read) }

// Times are stored as RFC 3339 with nanoseconds in UTC, so that they sort
// as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// notFound turns sql.ErrNoRows into NOT_FOUND naming what was missing.
func notFound(err error, what, id string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return quarry.Errorf(quarry.ECodeNotFound, "no %s %s", what, id)
	}
	return err
}

// conflict turns a uniqueness violation into CONFLICT.
func conflict(err error, format string, args ...any) error {
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed") {
		return quarry.Errorf(quarry.ECodeConflict, format, args...)
	}
	return checked(err, "")
}

// checked turns a violated CHECK of the data model (a chunk's length, a
// rating, a role) into INVALID naming the rule, what prefixing it.
func checked(err error, what string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	i := strings.Index(msg, "CHECK constraint failed: ")
	if i < 0 {
		if what != "" {
			return fmt.Errorf("%s: %w", what, err)
		}
		return err
	}
	rule := strings.TrimSuffix(msg[i+len("CHECK constraint failed: "):], " (275)")
	if what != "" {
		what += ": "
	}
	return quarry.Errorf(quarry.ECodeInvalid, "%sbreaks the rule %s", what, rule)
}

// CreateUser implements room.Users. Errors: CONFLICT for a taken name.
func (s *Rooms) CreateUser(ctx context.Context, u *room.User, passwordHash string) error {
	_, err := s.write.ExecContext(ctx, "INSERT INTO users (id, name, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
		u.ID, u.Name, u.Email, passwordHash, formatTime(u.CreatedAt))
	return conflict(err, "a user called %s exists", u.Name)
}

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*room.User, error) {
	var u room.User
	var created string
	if err := row.Scan(append([]any{&u.ID, &u.Name, &u.Email, &created}, extra...)...); err != nil {
		return nil, err
	}
	u.CreatedAt = parseTime(created)
	return &u, nil
}

// User implements room.Users.
func (s *Rooms) User(ctx context.Context, id string) (*room.User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx, "SELECT id, name, email, created_at FROM users WHERE id = ?", id))
	return u, notFound(err, "user", id)
}

// UserByName implements room.Users.
func (s *Rooms) UserByName(ctx context.Context, name string) (*room.User, string, error) {
	var hash string
	u, err := scanUser(s.read.QueryRowContext(ctx, "SELECT id, name, email, created_at, password_hash FROM users WHERE name = ?", name), &hash)
	return u, hash, notFound(err, "user", name)
}

// ListUsers implements room.Users.
func (s *Rooms) ListUsers(ctx context.Context) ([]room.User, error) {
	return queryAll(ctx, s.read, func(r scanner) (*room.User, error) { return scanUser(r) }, "SELECT id, name, email, created_at FROM users ORDER BY name")
}

// DeleteUser implements room.Users.
func (s *Rooms) DeleteUser(ctx context.Context, id string) error {
	return s.deleteOne(ctx, "DELETE FROM users WHERE id = ?", "user", id)
}

// CreateToken implements room.Users.
func (s *Rooms) CreateToken(ctx context.Context, userID, name, tokenHash string) error {
	_, err := s.write.ExecContext(ctx, "INSERT INTO api_tokens (token_hash, user_id, name, created_at) VALUES (?, ?, ?, ?)",
		tokenHash, userID, name, formatTime(time.Now()))
	return err
}

// UserByToken implements room.Users.
func (s *Rooms) UserByToken(ctx context.Context, tokenHash string) (*room.User, error) {
	u, err := scanUser(s.read.QueryRowContext(ctx,
		"SELECT u.id, u.name, u.email, u.created_at FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?", tokenHash))
	return u, notFound(err, "token", "")
}

// ListTokens implements room.Users.
func (s *Rooms) ListTokens(ctx context.Context, userID string) ([]room.Token, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT substr(token_hash, 1, ?), user_id, name, created_at FROM api_tokens
		WHERE user_id = ? ORDER BY created_at DESC, token_hash`, room.TokenIDLength, userID)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(row scanner) (*room.Token, error) {
		var t room.Token
		var created string
		if err := row.Scan(&t.ID, &t.UserID, &t.Name, &created); err != nil {
			return nil, err
		}
		t.CreatedAt = parseTime(created)
		return &t, nil
	})
}

// DeleteToken implements room.Users.
func (s *Rooms) DeleteToken(ctx context.Context, userID, id string) error {
	if len(id) != room.TokenIDLength {
		return quarry.Errorf(quarry.ECodeNotFound, "no token %s", id)
	}
	return s.deleteOne(ctx, "DELETE FROM api_tokens WHERE user_id = ? AND substr(token_hash, 1, ?) = ?", "token", id, userID, room.TokenIDLength, id)
}

// EndSession implements room.Users.
func (s *Rooms) EndSession(ctx context.Context, userID, id string, expires time.Time) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM ended_sessions WHERE expires_at <= ?", formatTime(time.Now())); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO ended_sessions (id, user_id, expires_at) VALUES (?, ?, ?)", id, userID, formatTime(expires)); err != nil {
		return err
	}
	return tx.Commit()
}

// SessionEnded implements room.Users.
func (s *Rooms) SessionEnded(ctx context.Context, id string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, "SELECT count(*) FROM ended_sessions WHERE id = ?", id).Scan(&n)
	return n > 0, err
}

var _ room.PasswordSetter = (*Rooms)(nil)

// SetPassword implements room.PasswordSetter.
func (s *Rooms) SetPassword(ctx context.Context, userID, passwordHash string) error {
	res, err := s.write.ExecContext(ctx, "UPDATE users SET password_hash = ? WHERE id = ?", passwordHash, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no user %s", userID)
	}
	return nil
}

// deleteOne runs a delete of one row, NOT_FOUND when there was none.
func (s *Rooms) deleteOne(ctx context.Context, query, what, id string, args ...any) error {
	if len(args) == 0 {
		args = []any{id}
	}
	res, err := s.write.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no %s %s", what, id)
	}
	return nil
}

// CreateRoom implements room.Rooms. Errors: CONFLICT when the creator
// has a room of that name already (names are unique per creator, so
// that a refusal says nothing of other people's rooms).
func (s *Rooms) CreateRoom(ctx context.Context, r *room.Room, owner string) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "INSERT INTO data_rooms (id, name, description, created_by, created_at) VALUES (?, ?, ?, ?, ?)",
		r.ID, r.Name, r.Description, r.CreatedBy, formatTime(r.CreatedAt))
	if err != nil {
		return conflict(err, "you have a room called %s already", r.Name)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO data_room_members (data_room_id, user_id, role, added_at) VALUES (?, ?, 'owner', ?)",
		r.ID, owner, formatTime(r.CreatedAt)); err != nil {
		return err
	}
	if err := createRoomIndex(ctx, tx, r.ID); err != nil {
		return err
	}
	return tx.Commit()
}

const roomColumns = "r.id, r.name, r.description, r.created_by, r.created_at, (SELECT count(*) FROM documents d WHERE d.data_room_id = r.id)"

func scanRoom(row interface{ Scan(...any) error }, extra ...any) (*room.Room, error) {
	var r room.Room
	var created string
	if err := row.Scan(append([]any{&r.ID, &r.Name, &r.Description, &r.CreatedBy, &created, &r.Documents}, extra...)...); err != nil {
		return nil, err
	}
	r.CreatedAt = parseTime(created)
	return &r, nil
}

// Room implements room.Rooms.
func (s *Rooms) Room(ctx context.Context, id string) (*room.Room, error) {
	r, err := scanRoom(s.read.QueryRowContext(ctx, "SELECT "+roomColumns+" FROM data_rooms r WHERE r.id = ?", id))
	return r, notFound(err, "room", id)
}

// RoomsOf implements room.Rooms.
func (s *Rooms) RoomsOf(ctx context.Context, userID string) ([]room.Room, error) {
	withRole := func(row scanner) (*room.Room, error) {
		var role string
		r, err := scanRoom(row, &role)
		if err != nil {
			return nil, err
		}
		r.Role = role
		return r, nil
	}
	return queryAll(ctx, s.read, withRole, "SELECT "+roomColumns+", m.role FROM data_rooms r JOIN data_room_members m ON m.data_room_id = r.id WHERE m.user_id = ? ORDER BY r.name", userID)
}

// DeleteRoom implements room.Rooms.
func (s *Rooms) DeleteRoom(ctx context.Context, id string) error {
	defer s.vectors.drop()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	defer s.terms.drop(id)
	if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+roomIndex(id)); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM data_rooms WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no room %s", id)
	}
	return tx.Commit()
}

// PutMember implements room.Rooms. Errors: INVALID for an unknown role,
// CONFLICT when it would leave the room without an owner.
func (s *Rooms) PutMember(ctx context.Context, m room.Member) error {
	return s.changeMembers(ctx, m.RoomID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO data_room_members (data_room_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (data_room_id, user_id) DO UPDATE SET role = excluded.role`, m.RoomID, m.UserID, m.Role, formatTime(m.AddedAt))
		return checked(err, "member")
	})
}

// RemoveMember implements room.Rooms. Errors: NOT_FOUND for one who is
// not a member, CONFLICT for the room's last owner.
func (s *Rooms) RemoveMember(ctx context.Context, roomID, userID string) error {
	return s.changeMembers(ctx, roomID, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM data_room_members WHERE data_room_id = ? AND user_id = ?", roomID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return quarry.Errorf(quarry.ECodeNotFound, "no member %s", userID)
		}
		return nil
	})
}

// changeMembers runs change in a transaction and commits it unless it
// left roomID without an owner. Write transactions begin IMMEDIATE, with
// the file's write lock, so that no other writer changes the owners
// between the change and the count.
func (s *Rooms) changeMembers(ctx context.Context, roomID string, change func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := change(tx); err != nil {
		return err
	}
	var owners int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM data_room_members WHERE data_room_id = ? AND role = 'owner'", roomID).Scan(&owners); err != nil {
		return err
	}
	if owners == 0 {
		return errLastOwner()
	}
	return tx.Commit()
}

// errLastOwner refuses a change that would leave a room without an owner.
func errLastOwner() error {
	return quarry.Errorf(quarry.ECodeConflict, "this is the room's last owner; a room must keep one").
		WithHint("make another member an owner first")
}

const memberColumns = "m.data_room_id, m.user_id, u.name, m.role, m.added_at FROM data_room_members m JOIN users u ON u.id = m.user_id"

func scanMember(row interface{ Scan(...any) error }) (*room.Member, error) {
	var m room.Member
	var added string
	if err := row.Scan(&m.RoomID, &m.UserID, &m.UserName, &m.Role, &added); err != nil {
		return nil, err
	}
	m.AddedAt = parseTime(added)
	return &m, nil
}

// Member implements room.Rooms.
func (s *Rooms) Member(ctx context.Context, roomID, userID string) (*room.Member, error) {
	m, err := scanMember(s.read.QueryRowContext(ctx, "SELECT "+memberColumns+" WHERE m.data_room_id = ? AND m.user_id = ?", roomID, userID))
	return m, notFound(err, "member", userID)
}

// Members implements room.Rooms.
func (s *Rooms) Members(ctx context.Context, roomID string) ([]room.Member, error) {
	return queryAll(ctx, s.read, scanMember, "SELECT "+memberColumns+" WHERE m.data_room_id = ? ORDER BY u.name", roomID)
}

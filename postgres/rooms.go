package postgres

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Rooms is the data rooms' store (room.Store) in PostgreSQL, for several
// processes at once: the specification's tables with their checks and
// cascades, chunks' text searched through their tsvectors in
// chunk_search with a GIN index (and the room's rarest words, by the
// counts in room_words), their vectors in pgvector with an HNSW cosine
// index, and row-level security as a second wall behind rooms.Service.
//
// Every call runs in a transaction that first sets app.user_id to the
// actor of its context (room.WithActor): a user's id or room.System. The
// policies let a user see only the rooms they are a member of; a call
// without an actor is refused. The role of the connection string must be
// neither a superuser nor BYPASSRLS: it owns the tables, and FORCE ROW
// LEVEL SECURITY binds it.
type Rooms struct {
	pool *pgxpool.Pool
	// hnsw remembers the dimensions that have their HNSW index.
	hnsw sync.Map
}

var _ room.Store = (*Rooms)(nil)

//go:embed rooms_schema.sql
var roomsSchema string

// OpenRooms connects to the database of dsn, creates or updates the
// schema, and returns the store. Errors: INVALID for a connection string
// that cannot be read or a role that would bypass row-level security,
// UNAVAILABLE for a server that cannot be reached or a database without
// pgvector, each with a hint.
func OpenRooms(ctx context.Context, dsn string) (*Rooms, error) {
	cfg, err := openPool(ctx, dsn, migrateRooms)
	if err != nil {
		return nil, err
	}
	cfg.AfterConnect = pgxvec.RegisterTypes
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &Rooms{pool: pool}, nil
}

// Close closes the store's connections.
func (s *Rooms) Close() error {
	s.pool.Close()
	return nil
}

// migrateRooms refuses a role that bypasses row-level security, makes
// sure pgvector is there, and applies the schema when it changed.
func migrateRooms(ctx context.Context, conn *pgx.Conn) error {
	var role string
	var bypass bool
	if err := conn.QueryRow(ctx, "SELECT current_user, rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user").Scan(&role, &bypass); err != nil {
		return err
	}
	if bypass {
		return quarry.Errorf(quarry.ECodeInvalid, "the PostgreSQL role %s is a superuser or bypasses row-level security, which would let every user see every room", role).
			WithHint("connect as a role of its own, e.g. as a superuser: CREATE ROLE quarry LOGIN PASSWORD '...'; CREATE DATABASE quarry OWNER quarry; then in that database: CREATE EXTENSION vector")
	}
	var hasVector bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')").Scan(&hasVector); err != nil {
		return err
	}
	if !hasVector {
		if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
			return quarry.Errorf(quarry.ECodeUnavailable, "the database has no pgvector extension and role %s cannot create it: %s", role, pgMessage(err)).
				WithHint("as a superuser, in this database: CREATE EXTENSION vector (Debian bookworm has no package: .ci/pgvector builds it)")
		}
	}
	return applySchema(ctx, conn, "rooms", roomsSchema, func(tx pgx.Tx) error {
		// The schema's own work reads and writes every room.
		if _, err := tx.Exec(ctx, "SELECT set_config('app.user_id', 'system', true)"); err != nil {
			return err
		}
		var oldSearch bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'document_chunks' AND column_name = 'search')`).Scan(&oldSearch); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, roomsSchema); err != nil {
			return fmt.Errorf("data rooms schema: %w", err)
		}
		if oldSearch {
			if _, err := tx.Exec(ctx, `INSERT INTO chunk_search (chunk_id, data_room_id, document_id, chunk_index, search)
				SELECT id, data_room_id, document_id, chunk_index, `+chunkVector+` FROM document_chunks`); err != nil {
				return fmt.Errorf("index the chunks for search: %w", err)
			}
		}
		if err := countStoreWords(ctx, tx); err != nil {
			return fmt.Errorf("count the rooms' words: %w", err)
		}
		return nil
	})
}

// tx runs fn in a transaction acting for the context's actor.
func (s *Rooms) tx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	actor, ok := room.ActorOf(ctx)
	if !ok {
		return quarry.Errorf(quarry.ECodeInternal, "no acting user for the data rooms' store").
			WithHint("rooms.Service names one; other callers use room.WithActor")
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('app.user_id', $1, true)", actor); err != nil {
			return err
		}
		return fn(tx)
	})
}

// one runs a query for one row acting for the context's actor, scanning
// it with scan; NOT_FOUND names what when there is none.
func (s *Rooms) one(ctx context.Context, what, id string, scan func(pgx.Row) error, query string, args ...any) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		return notFound(scan(tx.QueryRow(ctx, query, args...)), what, id)
	})
}

// exec runs one statement acting for the context's actor and returns the
// rows it touched.
func (s *Rooms) exec(ctx context.Context, query string, args ...any) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, query, args...)
		n = tag.RowsAffected()
		return err
	})
	return n, err
}

// execOne runs a statement that must touch one row: NOT_FOUND otherwise.
func (s *Rooms) execOne(ctx context.Context, what, id, query string, args ...any) error {
	n, err := s.exec(ctx, query, args...)
	if err != nil {
		return dbError(err, what)
	}
	if n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no %s %s", what, id)
	}
	return nil
}

// isID reports whether id can be a row's id (a UUID): anything else is
// not found without asking the server.
func isID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
			return false
		}
	}
	return true
}

func noSuch(what, id string) error { return quarry.Errorf(quarry.ECodeNotFound, "no %s %s", what, id) }

// notFound turns pgx.ErrNoRows into NOT_FOUND naming what was missing.
func notFound(err error, what, id string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return noSuch(what, id)
	}
	return dbError(err, what)
}

// dbError gives the data model's violations their codes: CONFLICT for a
// duplicate, INVALID for a broken check (named by its constraint),
// NOT_FOUND for a reference to a row that does not exist, FORBIDDEN for
// a row the row-level security policies refuse.
func dbError(err error, what string) error {
	var pgErr *pgconn.PgError
	if err == nil || !errors.As(err, &pgErr) {
		return err
	}
	prefix := ""
	if what != "" {
		prefix = what + ": "
	}
	switch pgErr.Code {
	case "23505":
		return quarry.Errorf(quarry.ECodeConflict, "%sa %s with that %s exists", prefix, what, uniqueField(pgErr.ConstraintName))
	case "23514", "23502", "22001", "22003":
		rule := pgErr.ConstraintName
		if rule == "" {
			rule = pgErr.Message
		}
		return quarry.Errorf(quarry.ECodeInvalid, "%sbreaks the rule %s", prefix, strings.ReplaceAll(rule, "_", " "))
	case "23503":
		return quarry.Errorf(quarry.ECodeNotFound, "%srefers to a row that does not exist (%s)", prefix, pgErr.ConstraintName)
	case "42501":
		return quarry.Errorf(quarry.ECodeForbidden, "%sthe row-level security policies refuse it", prefix)
	}
	return err
}

func uniqueField(constraint string) string {
	switch {
	case strings.HasSuffix(constraint, "_name"):
		return "name"
	case strings.HasSuffix(constraint, "_pkey"):
		return "id"
	}
	return strings.ReplaceAll(constraint, "_", " ")
}

func pgMessage(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message
	}
	return err.Error()
}

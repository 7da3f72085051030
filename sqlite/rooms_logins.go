package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/room"
)

// FailLogin implements room.Users.
func (s *Rooms) FailLogin(ctx context.Context, key string, now time.Time, window time.Duration) (room.LoginFailures, error) {
	var f room.LoginFailures
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return f, err
	}
	defer tx.Rollback()
	// Counts whose window is over go first, this key's with them, so
	// that the insert below starts it again at 1.
	if _, err := tx.ExecContext(ctx, "DELETE FROM login_failures WHERE since <= ?", formatTime(now.Add(-window))); err != nil {
		return f, err
	}
	var since string
	err = tx.QueryRowContext(ctx, `INSERT INTO login_failures (key, failures, since) VALUES (?, 1, ?)
		ON CONFLICT (key) DO UPDATE SET failures = failures + 1 RETURNING failures, since`, key, formatTime(now)).Scan(&f.Count, &since)
	if err != nil {
		return f, err
	}
	f.Since = parseTime(since)
	return f, tx.Commit()
}

// LoginFailures implements room.Users.
func (s *Rooms) LoginFailures(ctx context.Context, key string, now time.Time, window time.Duration) (room.LoginFailures, error) {
	var f room.LoginFailures
	var since string
	err := s.read.QueryRowContext(ctx, "SELECT failures, since FROM login_failures WHERE key = ? AND since > ?",
		key, formatTime(now.Add(-window))).Scan(&f.Count, &since)
	if errors.Is(err, sql.ErrNoRows) {
		return room.LoginFailures{}, nil
	}
	f.Since = parseTime(since)
	return f, err
}

// ClearLoginFailures implements room.Users.
func (s *Rooms) ClearLoginFailures(ctx context.Context, key string) error {
	_, err := s.write.ExecContext(ctx, "DELETE FROM login_failures WHERE key = ?", key)
	return err
}

// scopeRoomNames rebuilds the data_rooms table of a store made when
// room names were unique across the store, once: a name is now unique
// per creator (idx_rooms_creator_name), so that creating a room cannot
// tell whether someone else has one of that name. SQLite cannot drop a
// column's UNIQUE, hence the rebuild, done the way SQLite's ALTER TABLE
// documentation lays out: foreign keys off (or dropping the old table
// would cascade to every member and document), copy, drop, rename, check.
func scopeRoomNames(db *sql.DB) error {
	ctx := context.Background()
	var def string
	if err := db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'data_rooms'").Scan(&def); err != nil {
		return err
	}
	if !strings.Contains(def, "UNIQUE") {
		return nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range []string{
		`CREATE TABLE data_rooms_scoped (
			id TEXT PRIMARY KEY,
			name TEXT NOT NULL COLLATE NOCASE,
			description TEXT NOT NULL DEFAULT '',
			created_by TEXT NOT NULL,
			created_at TEXT NOT NULL
		)`,
		"INSERT INTO data_rooms_scoped (id, name, description, created_by, created_at) SELECT id, name, description, created_by, created_at FROM data_rooms",
		"DROP TABLE data_rooms",
		"ALTER TABLE data_rooms_scoped RENAME TO data_rooms",
		"CREATE UNIQUE INDEX idx_rooms_creator_name ON data_rooms(created_by, name)",
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("scope room names to their creator: %w", err)
		}
	}
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	broken := rows.Next()
	if err := rows.Close(); err != nil {
		return err
	}
	if broken {
		return fmt.Errorf("scope room names to their creator: the rebuilt rooms table breaks a foreign key")
	}
	return tx.Commit()
}

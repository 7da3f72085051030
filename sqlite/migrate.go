package sqlite

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
)

// migrations holds the schema as numbered SQL files (0001_chunks.sql, ...).
// A file, once released, is never edited: a change is a new file.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies, in order and each in its own transaction, every
// migration newer than the database's PRAGMA user_version, and records the
// new version in the same transaction.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for i, name := range names {
		version := i + 1
		if err := db.applyMigration(ctx, version, name); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

// applyMigration runs the migration file name as schema version version,
// unless the database already has it.
func (db *DB) applyMigration(ctx context.Context, version int, name string) error {
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var current int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current >= version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	// PRAGMA takes no parameters; version is an int we computed.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return err
	}
	return tx.Commit()
}

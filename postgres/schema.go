package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarry-dev/quarry"
)

// openPool reads dsn, runs migrate on one connection of it, and returns
// the pool's configuration for the store to finish and open. Errors:
// INVALID for a connection string that cannot be read, UNAVAILABLE for a
// server that cannot be reached, and migrate's own.
func openPool(ctx context.Context, dsn string, migrate func(context.Context, *pgx.Conn) error) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the PostgreSQL connection string %s is not valid: %s", Mask(dsn), scrub(parseDetail(err), dsn)).
			WithHint("write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "cannot reach the PostgreSQL database %s: %s", Mask(dsn), scrub(err.Error(), dsn))
	}
	defer conn.Close(ctx)
	if err := migrate(ctx, conn); err != nil {
		return nil, err
	}
	return cfg, nil
}

// applySchema runs apply in a transaction when schema, recorded under
// name in quarry_schema, differs from the one last applied, and then
// records it. The stores of one database take one advisory lock for it,
// so that one process applies a schema and the others wait, then find it
// applied.
func applySchema(ctx context.Context, conn *pgx.Conn, name, schema string, apply func(tx pgx.Tx) error) error {
	sum := sha256.Sum256([]byte(schema))
	want := hex.EncodeToString(sum[:])
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('quarry rooms schema'))"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS quarry_schema (name text PRIMARY KEY, sha256 text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have string
		if err := tx.QueryRow(ctx, "SELECT sha256 FROM quarry_schema WHERE name = $1", name).Scan(&have); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if have == want {
			return nil
		}
		if err := apply(tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO quarry_schema (name, sha256) VALUES ($1, $2)
			ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, applied_at = now()`, name, want)
		return err
	})
}

package pgtest

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Vector creates the pgvector extension in the database of dsn (a
// superuser's DSN, as Start returns). Without pgvector installed the test
// skips, or fails under CI=true: .ci/pgvector builds and installs it.
func Vector(t testing.TB, dsn string) {
	t.Helper()
	ctx, conn := connect(t, dsn)
	var available bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')").Scan(&available); err != nil {
		t.Fatal(err)
	}
	if !available {
		if os.Getenv("CI") == "true" {
			t.Fatal("pgvector is required in CI: the server has no vector extension (bash .ci/pgvector installs it)")
		}
		t.Skip("pgvector is not installed; bash .ci/pgvector builds and installs it")
	}
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
		t.Fatal(err)
	}
}

// AppDatabase returns the DSN of a new database with pgvector, for a role
// of its own that owns it (AppRole), and the superuser's DSN of it.
func AppDatabase(t testing.TB) (app, admin string) {
	t.Helper()
	admin = Start(t)
	Vector(t, admin)
	return AppRole(t, admin), admin
}

// connect opens a connection to dsn for the rest of the test, failing it
// on an error.
func connect(t testing.TB, dsn string) (context.Context, *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close(context.Background())
		cancel()
	})
	return ctx, conn
}

// AppRole makes a login role that is neither a superuser nor able to
// bypass row-level security, gives it the database of dsn, and returns
// dsn connecting as it: how an application should reach its database.
func AppRole(t testing.TB, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	role, password := "app_"+db, randomHex(12)
	Exec(t, dsn,
		"CREATE ROLE "+role+" LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '"+password+"'",
		"ALTER DATABASE "+db+" OWNER TO "+role)
	u.User = url.UserPassword(role, password)
	return u.String()
}

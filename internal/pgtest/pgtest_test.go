package pgtest_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Each Start is a new database on the package's one server.
func TestStart(t *testing.T) {
	a, b := pgtest.Start(t), pgtest.Start(t)
	if a == b {
		t.Fatalf("Start twice = %s; want two databases", a)
	}
	pgtest.Exec(t, a, "CREATE TABLE t (x int)", "INSERT INTO t VALUES (1), (2)")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 't'").Scan(&n); err != nil || n != 0 {
		t.Errorf("table t in the second database: %d, %v; want none", n, err)
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("PostgreSQL %s", version)
}

// A server of its own is stopped and its directory removed.
func TestStartServerStop(t *testing.T) {
	srv, err := pgtest.StartServer(pgtest.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	dsn, err := srv.CreateDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if _, err := pgx.Connect(context.Background(), dsn); err == nil {
		t.Errorf("connected to %s after Stop", dsn)
	}
	if _, err := os.Stat(srv.Dir()); !os.IsNotExist(err) {
		t.Errorf("%s after Stop: %v; want it removed", srv.Dir(), err)
	}
}

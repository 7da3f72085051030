package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/research/researchtest"
)

// openResearch returns a research store on a new database, connected as
// a role of its own (not a superuser), and that role's DSN. Without
// PostgreSQL it skips, and under CI=true it fails.
func openResearch(t testing.TB) (*postgres.Research, string) {
	t.Helper()
	dsn := pgtest.AppRole(t, pgtest.Start(t))
	st, err := postgres.OpenResearch(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, dsn
}

// TestResearchConformance runs the suite every research.Store passes;
// sqlite.TestResearchConformance runs it on SQLite.
func TestResearchConformance(t *testing.T) {
	researchtest.Run(t, func(t *testing.T) research.Store {
		st, _ := openResearch(t)
		return st
	})
}

// TestResearchBesideRooms opens the research store and the data rooms'
// store on one database, as quarry serve --db does, several processes at
// once: each applies its schema under the same lock, and a second start
// finds both applied.
func TestResearchBesideRooms(t *testing.T) {
	ctx := context.Background()
	dsn, _ := pgtest.AppDatabase(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				var st *postgres.Research
				if st, err = postgres.OpenResearch(ctx, dsn); err == nil {
					st.Close()
				}
			} else {
				var st *postgres.Rooms
				if st, err = postgres.OpenRooms(ctx, dsn); err == nil {
					st.Close()
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("open at once = %v", err)
		}
	}
	st, err := postgres.OpenResearch(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Save(ctx, researchtest.Sample()); err != nil {
		t.Fatalf("Save beside the rooms = %v", err)
	}
}

// TestResearchSavesTakeTurns saves one request from several connections
// at once: every save replaces the one before it whole, none collides
// with another's rows, and the result reads back as saved.
func TestResearchSavesTakeTurns(t *testing.T) {
	ctx := context.Background()
	_, dsn := openResearch(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Go(func() {
			// A store per writer, as separate processes would have.
			st, err := postgres.OpenResearch(ctx, dsn)
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			r := researchtest.Sample()
			r.Answer = fmt.Sprintf("Revenue was $12.4 million (save %d).", i)
			for range 5 {
				if err := st.Save(ctx, r); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Save at once = %v", err)
	}
	st, err := postgres.OpenResearch(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Get(ctx, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	want := researchtest.Sample()
	want.Answer = got.Answer
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Errorf("Get after saves at once = %s\nwant %s", gj, wj)
	}
}

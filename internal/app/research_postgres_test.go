package app_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/researches"
)

// TestResearchOnPostgres is quarry serve --db's research: a research
// started in the background over a room in PostgreSQL is saved in the
// same database (nothing in the data dir's SQLite), reads back whole
// from another process's service after this one closed, and stays its
// author's: to another user it is NOT_FOUND. Without PostgreSQL it
// skips, and under CI=true it fails.
func TestResearchOnPostgres(t *testing.T) {
	dsn, _ := pgtest.AppDatabase(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	svc, owner, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: dsn, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRooms()
	kestrel, err := svc.CreateRoom(ctx, owner.ID, "kestrel", "")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../internal/sampleresearch/kestrel/*.md")
	if len(files) == 0 {
		t.Fatal("no sample corpus")
	}
	if err := app.IngestFiles(ctx, svc, owner.ID, kestrel.ID, files); err != nil {
		t.Fatal(err)
	}

	open := func() *researches.Service {
		t.Helper()
		st, err := app.OpenResearchStore(ctx, dir, dsn)
		if err != nil {
			t.Fatal(err)
		}
		return app.NewResearches(st, svc, nil, nil)
	}
	rs := open()
	req, err := rs.Start(ctx, owner.ID, "How many employees did Kestrel Dynamics have at the end of 2024?", "quick", "kestrel")
	if err != nil {
		t.Fatal(err)
	}
	_, live, stop, err := rs.Subscribe(ctx, owner.ID, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	for range live {
	}
	stop()
	ran, err := rs.Get(ctx, owner.ID, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Close(); err != nil {
		t.Fatal(err)
	}
	if ran.Request.Status != research.StatusCompleted || len(ran.Facts) == 0 || ran.Report == nil {
		t.Fatalf("research %s: %s (%s), %d facts; want completed with facts and a report", req.ID, ran.Request.Status, ran.Request.Error, len(ran.Facts))
	}
	if _, err := os.Stat(filepath.Join(dir, "db", "research.db")); !os.IsNotExist(err) {
		t.Errorf("db/research.db in the data dir: %v; want the research in PostgreSQL alone", err)
	}

	// Another process: nothing in memory, everything from PostgreSQL.
	rs = open()
	defer rs.Close()
	got, err := rs.Get(ctx, owner.ID, req.ID)
	if err != nil {
		t.Fatalf("Get from PostgreSQL = %v", err)
	}
	if got.Request.UserID != owner.ID || got.Request.Status != research.StatusCompleted || got.Answer != ran.Answer ||
		!slices.Equal(factIDs(got), factIDs(ran)) || len(got.Discrepancies) != len(ran.Discrepancies) ||
		got.Report == nil || got.Report.ExecutiveSummary != ran.Report.ExecutiveSummary || len(got.Report.Sections) != len(ran.Report.Sections) ||
		got.Plan == nil || len(got.Plan.SubQuestions) != len(ran.Plan.SubQuestions) {
		t.Errorf("Get from PostgreSQL = %s by %s, %d facts, %d discrepancies, answer %q; want what ran: %s by %s, %d facts, %d discrepancies, answer %q",
			got.Request.Status, got.Request.UserID, len(got.Facts), len(got.Discrepancies), got.Answer,
			ran.Request.Status, owner.ID, len(ran.Facts), len(ran.Discrepancies), ran.Answer)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("the result read back does not hold together: %v", err)
	}
	if !got.Request.CreatedAt.Equal(ran.Request.CreatedAt.Truncate(time.Microsecond)) {
		t.Errorf("created_at %v; want %v to the microsecond", got.Request.CreatedAt, ran.Request.CreatedAt)
	}

	eve, err := svc.EnsureUser(ctx, "eve")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Get(ctx, eve.ID, req.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Get as another user = %v; want NOT_FOUND", err)
	}
	if _, _, _, err := rs.Subscribe(ctx, eve.ID, req.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Subscribe as another user = %v; want NOT_FOUND", err)
	}

	// The store's own list, as any process sees it.
	st, err := app.OpenResearchStore(ctx, dir, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for user, n := range map[string]int{owner.ID: 1, eve.ID: 0} {
		if list, err := st.List(ctx, user); err != nil || len(list) != n {
			t.Errorf("List(%s) = %v, %v; want %d", user, list, err, n)
		}
	}
}

func factIDs(r *research.Result) []string {
	var ids []string
	for _, f := range r.Facts {
		ids = append(ids, f.ID)
	}
	return ids
}

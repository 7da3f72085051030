package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/postgres"
)

// An analysis over a PostgreSQL source: the filter runs in PostgreSQL, the
// rest in the workspace, and the total agrees with PostgreSQL's own.
func TestAnalyze(t *testing.T) {
	dsn := pgtest.Start(t)
	pgtest.Exec(t, dsn, shop[:4]...) // stores and sales only
	dir := t.TempDir()
	store := fsstore.Analyses{Root: dir}
	if err := os.MkdirAll(filepath.Dir(store.AuditLog()), 0o755); err != nil {
		t.Fatal(err)
	}
	log, err := audit.Open(store.AuditLog(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	a := &analyze.Analyzer{
		NewWorkspace: func(context.Context) (analyze.Workspace, error) {
			return duckdb.Open(duckdb.Options{MemoryLimit: "512MB"})
		},
		OpenSource: func(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
			return postgres.OpenSource(ctx, ds.ConnectionString)
		},
		TableName: duckdb.TableName,
		Audit:     log,
		Store:     store,
	}
	res, err := a.Run(context.Background(), analysis.Request{Intent: "total amount by month in 2021",
		DataSources: []analysis.DataSource{{Type: analysis.SourceSQL, Name: "shop", ConnectionString: dsn}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == analysis.StatusFailed {
		t.Fatalf("status %s: %v %v", res.Status, res.Error, res.Undelivered)
	}
	// The total runs in PostgreSQL; the trend's rows are loaded from it.
	ran := map[string]any{}
	for _, c := range res.Calls {
		ran[c.TaskID] = c.Arguments["source"]
	}
	if ran["load"] != "shop" || ran["totals"] != "shop" || ran["trend"] != nil {
		t.Fatalf("steps ran in %v; want load and totals in the database, the trend here", ran)
	}
	src, err := postgres.OpenSource(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	want, err := src.Query(context.Background(), "SELECT sum(amount), count(*) FROM sales WHERE date >= '2021-01-01' AND date < '2022-01-01'", 1)
	if err != nil {
		t.Fatal(err)
	}
	load := observation(t, res, "load")
	if load.RowCount == nil || int64(*load.RowCount) != want.Rows[0][1].(int64) {
		t.Errorf("load read %v rows; PostgreSQL has %v in 2021", load.RowCount, want.Rows[0][1])
	}
	totals := observation(t, res, "totals")
	got := quarry.AsFloat(totals.Data.(map[string]any)["rows"].([][]any)[0][0])
	if diff := got - want.Float(0, 0); diff > 0.005 || diff < -0.005 {
		t.Errorf("total for 2021 = %.2f; PostgreSQL says %.2f", got, want.Float(0, 0))
	}
	trend := observation(t, res, "trend")
	if n := trend.RowCount; n == nil || *n != 12 {
		t.Errorf("trend has %v rows; want 12 months", n)
	}
}

func observation(t *testing.T, res *analysis.Result, task string) analysis.Observation {
	t.Helper()
	var last *analysis.Observation
	for i := range res.Observations {
		if res.Observations[i].TaskID == task {
			last = &res.Observations[i]
		}
	}
	if last == nil || last.Status != analysis.ObsSuccess {
		t.Fatalf("no successful observation of %s: %+v", task, last)
	}
	return *last
}

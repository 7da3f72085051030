package analyses_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/app"
)

// TestStartLocal: a request naming a file on this machine is FORBIDDEN
// from a client (Start) and runs from the command line (StartLocal),
// reading the file where it is: no copy under uploads/.
func TestStartLocal(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	sales, err := filepath.Abs(filepath.Join("..", "testdata", "analyze", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	req := analysis.Request{Intent: "total amount by state", DataSources: []analysis.DataSource{{Type: analysis.SourceCSV, FilePath: sales}}}
	if _, err := a.Analyses.Start(ctx, "", req, nil); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Fatalf("Start with a file path: %v; want %s", err, quarry.ECodeForbidden)
	}
	rec, err := a.Analyses.StartLocal(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Analyses.Wait(ctx, rec.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != analysis.StatusCompleted || len(res.Artifacts) == 0 {
		t.Fatalf("analysis %s with %d artifacts (%+v); want completed with its artifacts", res.Status, len(res.Artifacts), res.Error)
	}
	if got := res.Request.DataSources; len(got) != 1 || got[0].FilePath != sales {
		t.Errorf("sources %+v; want the file where it is, %s", got, sales)
	}
	if _, err := os.Stat(filepath.Join(dir, "uploads")); !os.IsNotExist(err) {
		t.Errorf("uploads/ exists (%v); a local file is not copied", err)
	}
}

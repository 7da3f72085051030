package rcabench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchDir returns the shared benchmark directory, skipping the test
// when it is absent (it is not part of the repository) or in -short mode.
func benchDir(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("benchmark data run skipped in -short mode")
	}
	dir := os.Getenv("QUARRY_BENCH_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "bench", "rca")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("benchmark data not found at %s", dir)
	}
	return dir
}

// TestBenchDataFloors guards against regressions on the two small
// datasets: the floors are the reference implementations' best F1
// (RiskLoc on L, RobustSpot on RS), which the search must keep beating.
func TestBenchDataFloors(t *testing.T) {
	dir := benchDir(t)
	res, err := Run(context.Background(), Options{Dir: dir, Datasets: []string{"L", "RS"}})
	if err != nil {
		t.Fatal(err)
	}
	floors := map[string]float64{"L": 0.737, "RS": 0.416}
	for _, s := range Summarize(res) {
		if s.Setting != SettingAll {
			continue
		}
		if f1 := s.Counts.F1(); f1 < floors[s.Dataset] {
			t.Errorf("F1 on %s = %.3f; want at least %.3f", s.Dataset, f1, floors[s.Dataset])
		}
	}
}

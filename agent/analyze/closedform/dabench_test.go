package closedform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/internal/dabench"
)

// minDABenchAccuracy is the accuracy by question reached on the public
// DABench dev set, less a small margin; the test fails below it.
const minDABenchAccuracy = 0.78

func dabenchDir(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the DABench run is skipped in -short mode")
	}
	for _, dir := range []string{os.Getenv("QUARRY_DABENCH_DATA"), filepath.Join("..", "..", "..", "..", "shared", "bench", "dabench"), "/work/shared/bench/dabench"} {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, dabench.QuestionsFile)); err == nil {
			return dir
		}
	}
	t.Skip("DABench data not found")
	return ""
}

// benchAnswer answers one DABench question as the bench command does.
func benchAnswer(ctx context.Context, q dabench.Question) (string, error) {
	e, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		return "", err
	}
	defer e.Close()
	table := duckdb.TableName(q.FileName, nil)
	if _, _, err := e.LoadCSV(ctx, table, q.Path); err != nil {
		table = "read_csv('" + strings.ReplaceAll(q.Path, "'", "''") + "', header=true, all_varchar=true)"
	}
	var specs []Spec
	for _, s := range dabench.Specs(q.Format, q.Constraints) {
		specs = append(specs, Spec{Name: s.Name, Decimals: s.Decimals, Kind: s.Kind})
	}
	vals, err := Answer(ctx, e, Question{Text: q.Question, Constraints: q.Constraints, Format: q.Format, Table: table}, specs)
	if err != nil {
		return "", err
	}
	var ds []dabench.Spec
	for _, s := range specs {
		ds = append(ds, dabench.Spec{Name: s.Name, Decimals: s.Decimals, Kind: s.Kind})
	}
	return dabench.Format(ds, vals), nil
}

func TestDABench(t *testing.T) {
	dir := dabenchDir(t)
	var only []int
	if s := os.Getenv("DABENCH_ONLY"); s != "" {
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatal(err)
			}
			only = append(only, n)
		}
	}
	if os.Getenv("DABENCH_DEBUG") != "" {
		debugf = func(format string, args ...any) { fmt.Printf("  debug: "+format+"\n", args...) }
		defer func() { debugf = nil }()
	}
	results, err := dabench.Run(context.Background(), dabench.Options{Dir: dir, Only: only}, benchAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s := dabench.Summarize(results)
	t.Logf("questions %d, fully correct %d (%.1f%%), sub-answers %.1f%%", s.Questions, s.CorrectQuestions, 100*s.Accuracy, 100*s.SubanswerAccuracy)
	for _, k := range sortedKeys(s.ByConcept) {
		c := s.ByConcept[k]
		t.Logf("  %-36s %3d/%3d %.1f%%", k, c.Correct, c.Questions, 100*c.Accuracy)
	}
	if os.Getenv("DABENCH_VERBOSE") != "" {
		qs, _ := dabench.Load(dir)
		byID := map[int]dabench.Question{}
		for _, q := range qs {
			byID[q.ID] = q
		}
		sort.Slice(results, func(i, j int) bool { return results[i].ID < results[j].ID })
		for _, r := range results {
			mark := "FAIL"
			if r.Err == "" && r.Correct == r.Total {
				mark = "ok  "
			}
			fmt.Printf("%s %d %d/%d got %s want %v %s\n", mark, r.ID, r.Correct, r.Total, r.Response, byID[r.ID].Answers, r.Err)
		}
	}
	if only == nil && s.Accuracy < minDABenchAccuracy {
		t.Errorf("accuracy %.3f, want at least %.3f", s.Accuracy, minDABenchAccuracy)
	}
}

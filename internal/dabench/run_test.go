package dabench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// runSet writes n questions with ids 10, 11, ... each labelled @v[id].
func runSet(t *testing.T, n int) string {
	t.Helper()
	var qs, ls []string
	for k := range n {
		id := 10 + k
		qs = append(qs, fmt.Sprintf(`{"id": %d, "question": "q%d", "concepts": ["C%d"], "constraints": "", "format": "@v[x] where \"x\" is an integer.", "file_name": "t.csv", "level": "easy"}`, id, id, k%2))
		ls = append(ls, fmt.Sprintf(`{"id": %d, "common_answers": [["v", "%d"]]}`, id, id))
	}
	return writeSet(t, qs, ls)
}

func TestRunKeepsOrder(t *testing.T) {
	dir := runSet(t, 7)
	var progress bytes.Buffer
	var running, most atomic.Int32
	results, err := Run(context.Background(), Options{Dir: dir, Workers: 3, Progress: &progress},
		func(ctx context.Context, q Question) (string, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Duration(16-q.ID) * time.Millisecond) // later questions finish first
			if q.ID == 12 {
				return "@v[0]", nil
			}
			return fmt.Sprintf("@v[%d]", q.ID), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 7 {
		t.Fatalf("%d results", len(results))
	}
	for k, r := range results {
		want := 1
		if r.ID == 12 {
			want = 0
		}
		if r.ID != 10+k || r.Correct != want || r.Total != 1 || r.Err != "" {
			t.Errorf("result %d = %+v", k, r)
		}
	}
	if most.Load() > 3 {
		t.Errorf("%d answers ran at once, want at most 3", most.Load())
	}
	if lines := strings.Count(progress.String(), "\n"); lines != 7 {
		t.Errorf("%d progress lines, want 7:\n%s", lines, progress.String())
	}
	if !strings.Contains(progress.String(), "id 12 (easy): 0/1 correct") {
		t.Errorf("progress lacks id 12:\n%s", progress.String())
	}
	if s := Summarize(results); s.CorrectQuestions != 6 || s.Questions != 7 {
		t.Errorf("Summarize = %+v", s)
	}
}

func TestRunErrorsAndPanics(t *testing.T) {
	dir := runSet(t, 4)
	var progress bytes.Buffer
	results, err := Run(context.Background(), Options{Dir: dir, Progress: &progress},
		func(ctx context.Context, q Question) (string, error) {
			switch q.ID {
			case 11:
				return "@v[11]", errors.New("model\nunavailable")
			case 12:
				panic("the answerer failed")
			}
			return fmt.Sprintf("@v[%d]", q.ID), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		correct int
		err     string
	}{{1, ""}, {0, "model\nunavailable"}, {0, "panic: the answerer failed"}, {1, ""}}
	for k, r := range results {
		if r.ID != 10+k || r.Correct != want[k].correct || r.Total != 1 || r.Err != want[k].err {
			t.Errorf("result %d = %+v, want %+v", k, r, want[k])
		}
	}
	if results[1].Response != "@v[11]" {
		t.Errorf("the response of a failed answer is kept for inspection: %q", results[1].Response)
	}
	if !strings.Contains(progress.String(), "id 11 (easy): error: model unavailable") {
		t.Errorf("progress:\n%s", progress.String())
	}
}

func TestRunOnly(t *testing.T) {
	dir := runSet(t, 5)
	var asked []int
	results, err := Run(context.Background(), Options{Dir: dir, Workers: 1, Only: []int{13, 10, 13}},
		func(ctx context.Context, q Question) (string, error) {
			asked = append(asked, q.ID)
			return "", nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || results[0].ID != 13 || results[1].ID != 10 || fmt.Sprint(asked) != "[13 10]" {
		t.Errorf("results %+v, asked %v", results, asked)
	}
	if _, err := Run(context.Background(), Options{Dir: dir, Only: []int{99}}, nil); err == nil || !strings.Contains(err.Error(), "99") {
		t.Errorf("unknown id: err = %v", err)
	}
	if _, err := Run(context.Background(), Options{Dir: t.TempDir()}, nil); err == nil {
		t.Error("Run on an empty directory succeeded")
	}
}

func TestRunCancel(t *testing.T) {
	dir := runSet(t, 6)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results, err := Run(ctx, Options{Dir: dir, Workers: 1}, func(ctx context.Context, q Question) (string, error) {
		if q.ID == 11 {
			cancel()
		}
		return fmt.Sprintf("@v[%d]", q.ID), nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(results) != 6 || results[0].Correct != 1 || results[1].Correct != 1 {
		t.Fatalf("results = %+v", results)
	}
	for _, r := range results[2:] {
		if r.Correct != 0 || r.Total != 1 || !strings.Contains(r.Err, "context canceled") {
			t.Errorf("unstarted result = %+v", r)
		}
	}
}

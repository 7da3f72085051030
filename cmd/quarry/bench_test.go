package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRunBenchUsage(t *testing.T) {
	tests := [][]string{
		nil,
		{"nope"},
		{"rca", "--dataset", "X"},
		{"rca", "extra"},
	}
	for _, args := range tests {
		err := runBench(context.Background(), args, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
		var u *usageError
		if !errors.As(err, &u) {
			t.Errorf("runBench(%q) = %v; want a usage error", args, err)
		}
	}
}

func TestRunBenchRCAJSON(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "riskloc_L")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := "case_id,setting,file,root_cause,root_cause_raw,n_elements,layer,significance\n1,,1.csv,a=a2,a=a2,1,1,0.5\n"
	leaves := "real,predict,a,b\n10,10,a1,b1\n10.1,10,a1,b2\n1,10,a2,b1\n1,10,a2,b2\n9.9,10,a3,b1\n10,10,a3,b2\n"
	if err := os.WriteFile(filepath.Join(folder, "cases.csv"), []byte(cases), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "1.csv"), []byte(leaves), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "QUARRY_BENCH_DATA" {
			return dir
		}
		return ""
	}
	var out bytes.Buffer
	if err := runBench(context.Background(), []string{"rca", "--dataset", "L", "--json", "--scenarios=false"}, getenv, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	type score struct {
		F1    float64 `json:"f1"`
		Cases int     `json:"cases"`
	}
	var got struct {
		Datasets map[string]struct {
			score
			HeldOut *score `json:"held_out"`
			Tuned   *score `json:"tuned"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("bench rca --json printed %q: %v", out.String(), err)
	}
	l := got.Datasets["L"]
	if l.Cases != 1 || l.F1 != 1 {
		t.Errorf("bench rca --json L = %+v; want 1 case with F1 1", l)
	}
	// 1.csv is in the held-out half (its SHA-256 starts with 0xaa).
	if l.HeldOut == nil || l.HeldOut.Cases != 1 || l.Tuned != nil {
		t.Errorf("bench rca --json L halves = %+v, %+v; want the one case held out", l.HeldOut, l.Tuned)
	}
}

// Investigations of the sample scenarios, as users run them, find every
// planted segment cause and raise no alarm on the steady scenario.
func TestBenchScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	s, err := benchScenarios(context.Background(), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Planted < 3 || s.Found != s.Planted || s.FalseAlarms != 0 {
		t.Errorf("benchScenarios = %+v; want every planted cause and no false alarm", s)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// writeSciFact writes a data set in the BEIR layout: corpus.jsonl,
// queries.jsonl and qrels/test.tsv.
func writeSciFact(t *testing.T, corpus, queries, qrels string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "qrels"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels} {
		if body == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	sciCorpus = `{"_id": "11", "title": "Glaciers retreat in warming alpine valleys.", "text": "Alpine glaciers lost a third of their mass as summers warmed, and meltwater lakes grew below them.", "metadata": {}}
{"_id": "12", "title": "Honeybee colonies and neonicotinoid pesticides.", "text": "Colonies fed neonicotinoid pesticides raised fewer queens and foraged less than untreated colonies.", "metadata": {}}
{"_id": "13", "title": "Sourdough fermentation by lactic bacteria.", "text": "Lactic bacteria in sourdough starters acidify the dough and slow the staling of bread after baking.", "metadata": {}}
{"_id": "14", "title": "Tidal currents shape estuary sandbanks.", "text": "Sandbanks in estuaries migrate with tidal currents, and dredging changes where they settle each season.", "metadata": {}}
`
	sciQueries = `{"_id": "1", "text": "Glaciers lose mass in alpine valleys.", "metadata": {}}
{"_id": "2", "text": "Neonicotinoid pesticides harm honeybee colonies.", "metadata": {}}
{"_id": "3", "text": "Volcanic ash darkens distant skies.", "metadata": {}}
{"_id": "4", "text": "Not judged.", "metadata": {}}
`
	sciQrels = "query-id\tcorpus-id\tscore\n1\t11\t1\n2\t12\t1\n3\t14\t1\n"
)

func TestNDCGAndRecall(t *testing.T) {
	// Gains 1 at rank 1 and 2 at rank 3: DCG = 1/log2(2) + 2/log2(4) = 2.
	// Ideal grades 2, 1, 1: IDCG = 2 + 1/log2(3) + 1/log2(4).
	graded := map[string]int{"a": 1, "c": 2, "x": 1}
	idcg := 2 + 1/math.Log2(3) + 0.5
	tests := []struct {
		name         string
		ranked       []string
		rel          map[string]int
		k            int
		ndcg, recall float64
	}{
		{"perfect", []string{"a", "b"}, map[string]int{"a": 1}, 10, 1, 1},
		{"second", []string{"b", "a"}, map[string]int{"a": 1}, 10, 1 / math.Log2(3), 1},
		{"graded", []string{"a", "b", "c"}, graded, 10, 2 / idcg, 2.0 / 3},
		{"cut at k", []string{"a", "b", "c"}, graded, 2, 1 / (2 + 1/math.Log2(3)), 1.0 / 3},
		{"two relevant, one found", []string{"b", "a"}, map[string]int{"a": 1, "z": 1}, 10, (1 / math.Log2(3)) / (1 + 1/math.Log2(3)), 0.5},
		{"nothing retrieved", nil, map[string]int{"a": 1}, 10, 0, 0},
		{"none relevant", []string{"a"}, map[string]int{}, 10, 0, 0},
	}
	for _, tt := range tests {
		if got := ndcgAt(tt.ranked, tt.rel, tt.k); math.Abs(got-tt.ndcg) > 1e-12 {
			t.Errorf("%s: ndcgAt(%v, %v, %d) = %v; want %v", tt.name, tt.ranked, tt.rel, tt.k, got, tt.ndcg)
		}
		if got := recallAt(tt.ranked, tt.rel, tt.k); math.Abs(got-tt.recall) > 1e-12 {
			t.Errorf("%s: recallAt(%v, %v, %d) = %v; want %v", tt.name, tt.ranked, tt.rel, tt.k, got, tt.recall)
		}
	}
}

// The whole bench on four abstracts: two claims find their abstract
// first (nDCG 1, recall 1), the third shares no word with its abstract
// (0 and 0), and the unjudged claim is not asked.
func TestBenchSciFactJSON(t *testing.T) {
	dir := writeSciFact(t, sciCorpus, sciQueries, sciQrels)
	var out, errOut bytes.Buffer
	err := runBench(context.Background(), []string{"scifact", "--data", dir, "--json"}, func(string) string { return "" }, &out, &errOut)
	if err != nil {
		t.Fatalf("bench scifact: %v\n%s", err, errOut.String())
	}
	var got scifactScore
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("bench scifact --json printed %q: %v", out.String(), err)
	}
	want := scifactScore{Split: "test", NDCGAt10: 0.667, RecallAt100: 0.667, Queries: 3, Documents: 4, Chunks: 4}
	if got.Split != want.Split || got.NDCGAt10 != want.NDCGAt10 || got.RecallAt100 != want.RecallAt100 ||
		got.Queries != want.Queries || got.Documents != want.Documents || got.Chunks != want.Chunks {
		t.Errorf("bench scifact --json = %+v; want %+v", got, want)
	}
	if got.IngestSeconds <= 0 || got.MeanQueryMS <= 0 {
		t.Errorf("bench scifact --json = %+v; want the ingestion and query times", got)
	}
}

func TestReadSciFactErrors(t *testing.T) {
	tests := []struct {
		name                   string
		corpus, queries, qrels string
		code, wantIn, wantAlso string
	}{
		{"no corpus", "", sciQueries, sciQrels, quarry.ECodeNotFound, "corpus.jsonl not found", ""},
		{"no queries", sciCorpus, "", sciQrels, quarry.ECodeNotFound, "queries.jsonl not found", ""},
		{"no qrels", sciCorpus, sciQueries, "", quarry.ECodeNotFound, "test.tsv not found", ""},
		{"corpus line not JSON", sciCorpus + "{\"_id\": \"15\", \"title\": \n", sciQueries, sciQrels, quarry.ECodeInvalid, "corpus.jsonl line 5", ""},
		{"query line not JSON", sciCorpus, "{\"_id\": 1, \"text\": \"x\"}\n", sciQrels, quarry.ECodeInvalid, "queries.jsonl line 1", ""},
		{"document without id", sciCorpus + "{\"title\": \"t\", \"text\": \"x\"}\n", sciQueries, sciQrels, quarry.ECodeInvalid, "line 5", "without an _id"},
		{"document twice", sciCorpus + strings.SplitAfter(sciCorpus, "\n")[0], sciQueries, sciQrels, quarry.ECodeInvalid, "line 5", "document 11 appears twice"},
		{"qrels not three columns", sciCorpus, sciQueries, "query-id\tcorpus-id\tscore\n1 11 1\n", quarry.ECodeInvalid, "test.tsv line 2", "separated by tabs"},
		{"qrels score not a number", sciCorpus, sciQueries, "query-id\tcorpus-id\tscore\n1\t11\tyes\n", quarry.ECodeInvalid, "test.tsv line 2", "not an integer"},
		{"qrels empty", sciCorpus, sciQueries, "query-id\tcorpus-id\tscore\n", quarry.ECodeInvalid, "no positive judgment", ""},
		{"unknown query", sciCorpus, sciQueries, "query-id\tcorpus-id\tscore\n9\t11\t1\n", quarry.ECodeInvalid, "judges query 9", ""},
		{"unknown document", sciCorpus, sciQueries, "query-id\tcorpus-id\tscore\n1\t99\t1\n", quarry.ECodeInvalid, "judges document 99", ""},
	}
	for _, tt := range tests {
		dir := writeSciFact(t, tt.corpus, tt.queries, tt.qrels)
		_, err := readSciFact(dir, "test")
		if err == nil {
			t.Errorf("%s: readSciFact = nil error; want %s", tt.name, tt.code)
			continue
		}
		if code := quarry.ErrorCode(err); code != tt.code || !strings.Contains(err.Error(), tt.wantIn) || !strings.Contains(err.Error(), tt.wantAlso) {
			t.Errorf("%s: readSciFact = %v (code %s); want %s naming %q %q", tt.name, err, code, tt.code, tt.wantIn, tt.wantAlso)
		}
	}
}

func TestBenchSciFactUsage(t *testing.T) {
	dir := writeSciFact(t, sciCorpus, sciQueries, sciQrels)
	err := runBench(context.Background(), []string{"scifact", "--data", dir, "--split", "dev"}, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
	var u *usageError
	if !errors.As(err, &u) {
		t.Errorf("bench scifact --split dev = %v; want a usage error", err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// TestRunBenchIngest: the floor and Quarry ingest the same PDFs, every
// page and chunk is counted, and the ratio is Quarry's CPU over the
// floor's.
func TestRunBenchIngest(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	dir := t.TempDir()
	for i, words := range []string{"First filing revenue grew", "Second filing margins fell"} {
		pages := []docparsetest.Page{docparsetest.TextPage(words + " across the year in every region we serve."),
			docparsetest.TextPage("Risk factors and the outlook for the coming year, in some detail.")}
		name := filepath.Join(dir, string(rune('a'+i))+".pdf")
		if err := os.WriteFile(name, docparsetest.PDF(pages, docparsetest.PDFOptions{}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := runBench(context.Background(), []string{"ingest", "--data", dir, "--json"}, func(string) string { return "" }, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var res ingestResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Files != 2 || res.Pages != 4 || res.Chunks < 4 || res.FloorCPU <= 0 || res.QuarryCPU <= 0 || res.QuarryChildCPU > res.QuarryCPU {
		t.Errorf("bench ingest = %+v; want 2 files, 4 pages, a chunk a page and CPU on both sides", res)
	}
	if want := round3(res.QuarryCPU / res.FloorCPU); res.RatioCPU != want {
		t.Errorf("ratio %v, want %v", res.RatioCPU, want)
	}
}

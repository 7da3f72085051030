package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	research "github.com/quarry-dev/quarry/agent/research"
	vocab "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/sqlite"
)

// BenchmarkResearch5000 times a standard-depth research over a folder of
// 5,000 documents (the target: under 5 s offline), after the
// folder is indexed once.
func BenchmarkResearch5000(b *testing.B) {
	dir := b.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 5000 {
		text := fmt.Sprintf("# Company %d filing\n\nFiled: March %d, 2025\n\nCompany %d Inc. reported revenue for fiscal 2024 of $%d.%d million. "+
			"As of December 31, 2024, Company %d employed %d people. Its chief executive officer is Person %d. "+
			"The company was founded in %d. A lawsuit was settled for $%d.%d million.\n",
			i, 1+i%28, i, 10+i%90, i%10, i, 100+i, i, 1950+i%70, 1+i%9, i%10)
		if err := os.WriteFile(filepath.Join(corpus, fmt.Sprintf("doc-%05d.md", i)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	idx, err := sqlite.Open(filepath.Join(dir, "quarry.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	c, err := OpenCorpus(ctx, dir, corpus, idx, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		req, err := vocab.NewRequest("What changed in Company 42's finances, operations and legal exposure?", "standard", time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (&research.Researcher{Corpus: c}).Run(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// A folder with one unreadable file is researched from the others, and
// the report names the file; a folder of nothing readable is an error.
func TestOpenCorpusUnreadableFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(corpus, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("broken.pdf", "this is not a PDF at all")
	idx, err := sqlite.Open(filepath.Join(dir, "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if _, err := OpenCorpus(ctx, dir, corpus, idx, nil); quarry.ErrorCode(err) != quarry.ECodeMalformedDocument {
		t.Fatalf("OpenCorpus(only a broken PDF) = %v; want MALFORMED_DOCUMENT", err)
	}
	write("acme.md", "# Acme results\n\nAcme Corp reported revenue of $12.5 million for fiscal 2024. Acme Corp employed 120 people at the end of 2024.\n")
	for _, again := range []bool{false, true} { // indexed, then read from the mark
		c, err := OpenCorpus(ctx, dir, corpus, idx, nil)
		if err != nil {
			t.Fatalf("OpenCorpus(again=%v) = %v", again, err)
		}
		if len(c.Docs) != 1 || len(c.Unread) != 1 || c.Unread[0].Source != "broken.pdf" {
			t.Fatalf("again=%v: docs %v, unread %+v; want acme.md read and broken.pdf named", again, c.Docs, c.Unread)
		}
	}
	c, _ := OpenCorpus(ctx, dir, corpus, idx, nil)
	req, err := vocab.NewRequest("What was Acme Corp's revenue in 2024?", "quick", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&research.Researcher{Corpus: c}).Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	named := false
	for _, l := range res.Report.Limitations {
		named = named || strings.Contains(l, "broken.pdf was not read")
	}
	if res.Request.Status != vocab.StatusCompleted || !named {
		t.Errorf("status %s, limitations %q; want completed, naming broken.pdf", res.Request.Status, res.Report.Limitations)
	}
}

// Files are read on every core at once and taken in their order: the
// progress names them in order, and every one is indexed.
func TestOpenCorpusInOrder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 40
	for i := range n {
		text := fmt.Sprintf("# Note %d\n\nUnit %d of Acme Corp shipped %d crates in 2024, from the depot at Dock %d.\n", i, i, 100+i, i)
		if err := os.WriteFile(filepath.Join(corpus, fmt.Sprintf("note%02d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := sqlite.Open(filepath.Join(dir, "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var seen []string
	c, err := OpenCorpus(ctx, dir, corpus, idx, func(format string, args ...any) {
		if strings.HasPrefix(format, "indexing") {
			seen = append(seen, args[0].(string))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != n || len(seen) != n || !slices.IsSorted(seen) {
		t.Fatalf("%d documents, progress %v; want %d, in order", len(c.Docs), seen, n)
	}
}

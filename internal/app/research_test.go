package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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

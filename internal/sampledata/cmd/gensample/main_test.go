package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/internal/sampledata"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run([]string{"-dir", dir}, &out); err != nil {
		t.Fatalf("run = %v", err)
	}
	want := 0
	for _, s := range sampledata.Scenarios() {
		for _, f := range s.Files {
			want++
			path := filepath.Join(dir, s.Name, f.Name)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("run did not write %s: %v", path, err)
			}
		}
	}
	// And the analyze job's sales export and shop database.
	for _, f := range []string{"sales.csv", "shop.db"} {
		want++
		if _, err := os.Stat(filepath.Join(dir, "analyze", f)); err != nil {
			t.Errorf("run did not write analyze/%s: %v", f, err)
		}
	}
	if got := strings.Count(out.String(), "\n"); got != want {
		t.Errorf("run printed %d paths; want %d", got, want)
	}
	if err := run([]string{"-bogus"}, &out); err == nil {
		t.Errorf("run(-bogus) = nil; want a flag error")
	}
}

package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/internal/atomicfile"
)

func TestWriteReplacesWithoutLeftovers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b.json")
	for _, want := range []string{"one", "two"} {
		if err := atomicfile.Write(path, []byte(want)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Fatalf("after Write(%q) read %q, %v", want, got, err)
		}
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v; want 0644", st.Mode().Perm())
	}
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 {
		t.Fatalf("temporary files left behind: %d entries", len(left))
	}
}

func TestWriteFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	if err := atomicfile.Write(filepath.Join(blocker, "inside.json"), []byte("y")); err == nil {
		t.Fatal("Write under a regular file succeeded; want an error")
	}
}

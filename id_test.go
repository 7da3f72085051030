package quarry

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSHA256File: a file read in pieces hashes as its bytes do, and a
// missing file is an error rather than the hash of nothing.
func TestSHA256File(t *testing.T) {
	data := bytes.Repeat([]byte("order_id,amount\n1,2.5\n"), 100_000) // past io.Copy's buffer
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := SHA256File(path); err != nil || got != SHA256Hex(data) {
		t.Errorf("SHA256File = %q, %v; want %q", got, err, SHA256Hex(data))
	}
	if got, err := SHA256File(filepath.Join(t.TempDir(), "missing.csv")); err == nil {
		t.Errorf("SHA256File(missing) = %q; want an error", got)
	}
}

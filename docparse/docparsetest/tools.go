package docparsetest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// RequireTools skips the test when a program it needs is not installed,
// and fails it under CI=true, where poppler-utils and tesseract-ocr are
// installed and a skip would hide a broken pipeline.
func RequireTools(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			msg := fmt.Sprintf("%s is not installed; install it with: apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-eng", name)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

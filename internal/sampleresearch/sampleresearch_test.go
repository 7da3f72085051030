package sampleresearch

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/research"
)

func TestDocuments(t *testing.T) {
	if len(Documents) != 8 {
		t.Fatalf("Documents %v; want the 8 files of kestrel/", Documents)
	}
	for _, name := range Documents {
		b, err := fs.ReadFile(FS, name)
		if err != nil || !strings.Contains(string(b), "Kestrel Dynamics") {
			t.Errorf("%s: %v; want a document about Kestrel Dynamics", name, err)
		}
	}
}

// TestCheck: a research that found nothing falls short of every planted
// contradiction and of the shared name.
func TestCheck(t *testing.T) {
	got := strings.Join(Check(research.View{}), "\n")
	for _, want := range []string{"0 discrepancies; want the 4 planted", "no discrepancy about revenue", "no discrepancy about settlement", "Inc and Ltd told apart"} {
		if !strings.Contains(got, want) {
			t.Errorf("Check of an empty view says\n%s\nwant %q", got, want)
		}
	}
}

package audit_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// writeSession writes a log that records two artifacts beside it.
func writeSession(t *testing.T) (dir, logPath string) {
	t.Helper()
	dir = t.TempDir()
	logPath = filepath.Join(dir, "audit.jsonl")
	files := map[string]string{"report.md": "# Report\n", "files/abc.csv": "day,amount\n2024-01-01,5\n"}
	l, err := audit.Open(logPath, "req", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(quarry.EventArtifactGenerated, "system", map[string]any{"path": rel, "sha256": quarry.SHA256Hex([]byte(body))}); err != nil {
			t.Fatal(err)
		}
	}
	l.Append(quarry.EventToolCalled, "system", map[string]any{"sql": "SELECT 1"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, logPath
}

func TestCheckFindsEveryKindOfTampering(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir, logPath string)
		want   string // in a problem, or in the anchor problem
	}{
		{"intact", func(*testing.T, string, string) {}, ""},
		{"report edited", func(t *testing.T, dir, _ string) {
			os.WriteFile(filepath.Join(dir, "report.md"), []byte("# Report, improved\n"), 0o644)
		}, "report.md: changed"},
		{"upload edited", func(t *testing.T, dir, _ string) {
			os.WriteFile(filepath.Join(dir, "files", "abc.csv"), []byte("day,amount\n2024-01-01,50\n"), 0o644)
		}, "files/abc.csv: changed"},
		{"artifact deleted", func(t *testing.T, dir, _ string) { os.Remove(filepath.Join(dir, "report.md")) }, "report.md: missing"},
		{"last entry cut off", func(t *testing.T, _, logPath string) {
			b, _ := os.ReadFile(logPath)
			lines := bytes.SplitAfter(bytes.TrimRight(b, "\n"), []byte("\n"))
			os.WriteFile(logPath, bytes.Join(lines[:len(lines)-1], nil), 0o644)
		}, "entries were removed from its end"},
		{"log emptied", func(t *testing.T, _, logPath string) { os.WriteFile(logPath, nil, 0o644) }, "entries were removed"},
		{"anchor deleted", func(t *testing.T, _, logPath string) { os.Remove(audit.AnchorPath(logPath)) }, "no anchor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, logPath := writeSession(t)
			tt.tamper(t, dir, logPath)
			rep, err := audit.Check(logPath)
			if err != nil {
				t.Fatal(err)
			}
			all := rep.AnchorProblem + " | " + strings.Join(rep.Problems, " | ")
			if tt.want == "" {
				if !rep.OK() || rep.Artifacts != 2 {
					t.Fatalf("intact session: %+v", rep)
				}
				return
			}
			if rep.OK() || !strings.Contains(all, tt.want) {
				t.Errorf("OK=%v, problems %q; want one containing %q", rep.OK(), all, tt.want)
			}
		})
	}
}

func TestOpenRefusesATruncatedLog(t *testing.T) {
	_, logPath := writeSession(t)
	b, _ := os.ReadFile(logPath)
	lines := bytes.SplitAfter(bytes.TrimRight(b, "\n"), []byte("\n"))
	os.WriteFile(logPath, bytes.Join(lines[:1], nil), 0o644)
	if _, err := audit.Open(logPath, "req", fixedClock()); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("Open on a log cut short of its anchor: %v; want CONFLICT", err)
	}
}

// TestAnchorWriteCutShort: an anchor that cannot be written (a full disk
// at that moment) leaves the entry recorded and the anchor lagging; Check
// reports the lag, not tampering, and the next write repairs it.
func TestAnchorWriteCutShort(t *testing.T) {
	_, logPath := writeSession(t)
	l, err := audit.Open(logPath, "req", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	// A directory where the anchor's temporary file goes makes its write
	// fail, as ENOSPC would.
	blocker := audit.AnchorPath(logPath) + ".tmp"
	if err := os.Mkdir(blocker, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(quarry.EventToolCalled, "system", map[string]any{"sql": "SELECT 2"}); err != nil {
		t.Fatalf("Append with the anchor unwritable = %v; want the entry recorded", err)
	}
	rep, err := audit.Check(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.AnchorLag != 1 || rep.Entries != 4 {
		t.Fatalf("Check after a cut-short anchor write: ok=%v lag=%d entries=%d problem=%q; want ok, lag 1, 4 entries", rep.OK(), rep.AnchorLag, rep.Entries, rep.AnchorProblem)
	}
	if err := l.Close(); err == nil {
		t.Error("Close with the anchor still unwritable = nil; want the error")
	}
	os.Remove(blocker)
	// The next writer brings the anchor up to date on open.
	l, err = audit.Open(logPath, "req", fixedClock())
	if err != nil {
		t.Fatalf("Open after the disk was freed: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if rep, _ := audit.Check(logPath); !rep.OK() || rep.AnchorLag != 0 {
		t.Fatalf("Check after reopening: ok=%v lag=%d problem=%q; want ok, no lag", rep.OK(), rep.AnchorLag, rep.AnchorProblem)
	}
}

// TestTornAppend: an append cut short leaves a last line with no
// newline. It is reported as such, not as a broken chain, and the next
// writer cuts it off and goes on; unless the anchor recorded the entry,
// which means it was cut afterwards.
func TestTornAppend(t *testing.T) {
	_, logPath := writeSession(t)
	b, _ := os.ReadFile(logPath)
	lines := bytes.SplitAfter(bytes.TrimRight(b, "\n"), []byte("\n"))
	last := lines[len(lines)-1]
	// Half of a copy of the last entry, with no newline.
	f, _ := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(last[:len(last)/2])
	f.Close()

	rep, err := audit.Check(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || !rep.Torn || rep.Entries != 3 {
		t.Fatalf("Check of a torn append: ok=%v torn=%v entries=%d reason=%q problem=%q", rep.OK(), rep.Torn, rep.Entries, rep.Reason, rep.AnchorProblem)
	}
	l, err := audit.Open(logPath, "req", fixedClock())
	if err != nil {
		t.Fatalf("Open of a log with a torn append: %v", err)
	}
	if _, err := l.Append(quarry.EventToolCalled, "system", map[string]any{"sql": "SELECT 3"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if res, err := audit.VerifyFile(logPath); err != nil || !res.OK() || res.Torn || res.Entries != 4 {
		t.Fatalf("after repair: %+v, %v; want 4 whole entries", res, err)
	}

	// The whole last entry without its newline, which the anchor
	// recorded: entries were cut, and nothing is chained onto it.
	b, _ = os.ReadFile(logPath)
	os.WriteFile(logPath, bytes.TrimSuffix(b, []byte("\n")), 0o644)
	if _, err := audit.Open(logPath, "req", fixedClock()); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("Open of a log whose anchored last entry lost its newline: %v; want CONFLICT", err)
	}
}

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

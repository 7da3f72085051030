package audit_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

func fixedClock() func() time.Time {
	t := time.Date(2024, 3, 18, 9, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

// writeLog writes n entries with varied event data and returns the path.
func writeLog(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, "req-1", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		data := map[string]any{
			"call_id":   i,
			"tool_name": "sql",
			"arguments": map[string]any{"sql": "SELECT SUM(amount) FROM orders -- Zürich ✓", "rows": 12.5},
		}
		if _, err := l.Append(quarry.EventToolCalled, "actor", data); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyIntactChain(t *testing.T) {
	path := writeLog(t, 5)
	res, err := audit.VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.Entries != 5 {
		t.Fatalf("VerifyFile = %+v; want 5 intact entries", res)
	}
}

func TestVerifyFindsFirstBrokenEntry(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(lines []string) []string
		want   int
	}{
		{"edited data", func(l []string) []string {
			l[2] = strings.Replace(l[2], "orders", "refunds", 1)
			return l
		}, 3},
		{"deleted entry", func(l []string) []string { return append(l[:1], l[2:]...) }, 2},
		{"swapped entries", func(l []string) []string { l[3], l[4] = l[4], l[3]; return l }, 4},
		{"edited timestamp", func(l []string) []string {
			l[0] = strings.Replace(l[0], "2024-03-18T09:00:01Z", "2024-03-18T09:00:09Z", 1)
			return l
		}, 1},
		{"garbage line", func(l []string) []string { l[1] = "{not json"; return l }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, 5)
			raw, _ := os.ReadFile(path)
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			lines = tt.tamper(lines)
			res, err := audit.Verify(strings.NewReader(strings.Join(lines, "\n") + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if res.FirstBroken != tt.want {
				t.Fatalf("Verify(%s) first broken = %d (%s); want %d", tt.name, res.FirstBroken, res.Reason, tt.want)
			}
		})
	}
}

func TestOpenContinuesChainAndRefusesBrokenLog(t *testing.T) {
	path := writeLog(t, 2)
	l, err := audit.Open(path, "req-1", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.Append(quarry.EventObservationRecorded, "actor", map[string]any{"rows": 3})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if e.SequenceNumber != 3 {
		t.Fatalf("continued entry sequence = %d; want 3", e.SequenceNumber)
	}
	if res, _ := audit.VerifyFile(path); !res.OK() || res.Entries != 3 {
		t.Fatalf("after continuing: %+v; want 3 intact entries", res)
	}
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(raw, []byte(`"rows":3`), []byte(`"rows":4`), 1), 0o644)
	if _, err := audit.Open(path, "req-1", nil); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("Open(tampered) error = %v; want %s", err, quarry.ECodeConflict)
	}
}

// The specification gives the verifier in Python; Quarry's logs must pass it.
const specVerifier = `
import json, hashlib, sys
def verify_audit_chain(log_path):
    with open(log_path, "r") as f:
        entries = [json.loads(line) for line in f]
    for i, entry in enumerate(entries):
        if entry["sequence_number"] != i + 1:
            return False
        expected_parent = entries[i-1]["hash"] if i > 0 else "0" * 64
        if entry["parent_hash"] != expected_parent:
            return False
        payload = f"{entry['parent_hash']}{entry['timestamp']}{entry['event_type']}{json.dumps(entry['event_data'], sort_keys=True)}"
        computed_hash = hashlib.sha256(payload.encode()).hexdigest()
        if computed_hash != entry["hash"]:
            return False
    return True
print(verify_audit_chain(sys.argv[1]))
`

func TestSpecificationVerifierAcceptsLog(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is required in CI for the specification verifier")
		}
		t.Skip("python3 not installed")
	}
	path := writeLog(t, 4)
	out, err := exec.Command(py, "-c", specVerifier, path).CombinedOutput()
	if err != nil {
		t.Fatalf("python verifier: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "True" {
		t.Fatalf("specification verifier = %s; want True", got)
	}
}

package audit_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/audit"
)

// editLine decodes line n (1-based) of the log at path, lets edit change
// its fields, and writes it back, every other byte unchanged.
func editLine(t *testing.T, path string, n int, edit func(map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	dec := json.NewDecoder(strings.NewReader(lines[n-1]))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	lines[n-1] = string(b)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The specification's hash leaves actor, request_id and entry_id out;
// hash_v2 covers them and any field added to a line, and cannot be
// removed to hide an edit.
func TestVerifyFindsEditsOutsideTheSpecificationHash(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(map[string]any)
		reason string
	}{
		{"actor", func(m map[string]any) { m["actor"] = "safety" }, "hash_v2"},
		{"request_id", func(m map[string]any) { m["request_id"] = "req-other" }, "hash_v2"},
		{"entry_id", func(m map[string]any) { m["entry_id"] = "00000000-0000-0000-0000-000000000000" }, "hash_v2"},
		{"field added", func(m map[string]any) { m["approved_by"] = "admin" }, "hash_v2"},
		{"hash_v2 removed", func(m map[string]any) { delete(m, "hash_v2"); m["actor"] = "safety" }, "hash_v2 is missing"},
		{"hash_v2 forged", func(m map[string]any) { m["hash_v2"] = strings.Repeat("ab", 32) }, "hash_v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, 5)
			// The spec's own formula still holds after each edit but the
			// forged one: only hash_v2 can find it.
			editLine(t, path, 3, tt.edit)
			res, err := audit.VerifyFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if res.FirstBroken != 3 || !strings.Contains(res.Reason, tt.reason) {
				t.Fatalf("Verify(%s edited) = broken at %d (%s); want entry 3, by %q", tt.name, res.FirstBroken, res.Reason, tt.reason)
			}
		})
	}
}

// Removing hash_v2 from every entry makes a log look written before it
// existed, so an actor could be edited; the anchor records the last
// hash_v2, and Check reports the log rewritten.
func TestCheckFindsEveryHashV2Removed(t *testing.T) {
	path := writeLog(t, 4)
	for n := 1; n <= 4; n++ {
		editLine(t, path, n, func(m map[string]any) {
			delete(m, "hash_v2")
			m["actor"] = "safety"
		})
	}
	if res, _ := audit.VerifyFile(path); !res.OK() {
		t.Fatalf("the chain alone = %+v; want it intact, which is why the anchor must hold hash_v2", res)
	}
	rep, err := audit.Check(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(rep.AnchorProblem, "hash_v2") || !strings.Contains(rep.AnchorProblem, "rewritten") {
		t.Fatalf("Check = %+v; want the anchor to report the log rewritten by its hash_v2", rep)
	}
}

package audit_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// FuzzAppendVerify: any finite float and any string, written through the
// log writer, read back as the same value, the float written in Python's
// form (which reads back as itself), and the log verifies; bytes that are
// not UTF-8 read back as U+FFFD each, as encoding/json writes them. A NaN or an
// infinity is refused.
func FuzzAppendVerify(f *testing.F) {
	for _, x := range []float64{3.0255e-05, 1e-07, 1e16, 0.0001, math.Copysign(0, -1), 1, 5e-324, math.MaxFloat64, 123456789.123456789} {
		f.Add(math.Float64bits(x), "Zürich ✓ <b>&\"\\\n")
	}
	f.Fuzz(func(t *testing.T, bits uint64, s string) {
		x := math.Float64frombits(bits)
		py := quarry.PythonFloat(x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := audit.Open(path, "r", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if _, err := l.Append("tool_called", "actor", map[string]any{"x": x}); err == nil {
				t.Fatalf("Append(%v) succeeded; want it refused", x)
			}
			return
		}
		if back, err := strconv.ParseFloat(py, 64); err != nil || math.Float64bits(back) != bits {
			t.Fatalf("PythonFloat(%v) = %s, which reads back as %v (%v)", x, py, back, err)
		}
		if !json.Valid([]byte(py)) || !strings.ContainsAny(py, ".e") || quarry.PythonNumber(py) != py {
			t.Fatalf("PythonFloat(%v) = %s: not a JSON float literal in its own canonical form", x, py)
		}
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		l, err := audit.Open(path, "r", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append("tool_called", "actor", map[string]any{"x": x, "s": s, "list": []any{x, s}}); err != nil {
			t.Fatal(err)
		}
		l.Close()
		if res, err := audit.VerifyFile(path); err != nil || !res.OK() || res.Entries != 1 || res.LastHashV2 == "" {
			t.Fatalf("Verify = %+v, %v; want 1 intact entry", res, err)
		}
		es, err := audit.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := es[0].EventData["x"].(float64)
		if math.Float64bits(got) != bits && !(x == 0 && got == 0 && math.Signbit(got) == math.Signbit(x)) {
			t.Fatalf("read back x = %v; wrote %v", got, x)
		}
		if want := string([]rune(s)); es[0].EventData["s"] != want {
			t.Fatalf("read back s = %q; wrote %q", es[0].EventData["s"], want)
		}
	})
}

// FuzzParseHeads: an anchor file never panics the parser, and what it
// accepts prints and parses back the same.
func FuzzParseHeads(f *testing.F) {
	h := strings.Repeat("ab", 32)
	f.Add([]byte("# comment\nlogs/data_agent_runs.jsonl 14 " + h + " " + h + "\n"))
	f.Add([]byte("sessions/s1/audit.jsonl 0 " + h + " -\n"))
	f.Add([]byte(`{"logs":[{"path":"logs/rooms.jsonl","entries":3,"last_hash":"` + h + `"}]}`))
	f.Add([]byte("logs/x.jsonl three abc -\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		heads, err := audit.ParseHeads(data)
		if err != nil {
			if quarry.ErrorCode(err) != quarry.ECodeInvalid {
				t.Fatalf("ParseHeads error %v; want INVALID", err)
			}
			return
		}
		var lines []string
		for _, h := range heads {
			lines = append(lines, h.String())
		}
		again, err := audit.ParseHeads([]byte(strings.Join(lines, "\n")))
		if err != nil || len(again) != len(heads) {
			t.Fatalf("ParseHeads(%q) = %v, %v; printed and parsed again %v", data, heads, err, again)
		}
		for i := range heads {
			if again[i] != heads[i] {
				t.Fatalf("head %d: %+v printed and parsed again is %+v", i, heads[i], again[i])
			}
		}
	})
}

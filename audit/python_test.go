package audit_test

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// python returns a function that runs a Python script, written to a
// temporary file, with arguments, and returns its standard output. The
// test is skipped when python3 is absent, except in CI, which has it.
func python(t *testing.T) func(script string, args ...string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is required in CI to run the specification's verify_audit_chain")
		}
		t.Skip("python3 is not installed: the specification's verify_audit_chain cannot be run")
	}
	dir := t.TempDir()
	n := 0
	return func(script string, args ...string) string {
		t.Helper()
		n++
		p := filepath.Join(dir, fmt.Sprintf("script%d.py", n))
		if err := os.WriteFile(p, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(py, append([]string{p}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3 %s: %v\n%s", filepath.Base(p), err, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
}

// v2Verifier checks hash_v2 as quarry.AuditEntry documents it, written
// from that description, not from the Go code: a second implementation of
// the formula.
const v2Verifier = `
import json, hashlib, sys
def verify_v2(log_path):
    prev = "0" * 64
    with open(log_path) as f:
        for line in f:
            entry = json.loads(line)
            if "hash_v2" not in entry:
                prev = entry["hash"]
                continue
            fields = {k: v for k, v in entry.items() if k not in ("hash", "hash_v2")}
            payload = prev + json.dumps(fields, sort_keys=True)
            if hashlib.sha256(payload.encode()).hexdigest() != entry["hash_v2"]:
                return False
            prev = entry["hash_v2"]
    return True
print(verify_v2(sys.argv[1]))
`

// randomFloat draws from the kinds of float that Go and Python write
// differently or that are easy to get wrong: tiny and huge magnitudes,
// the 1e-6..1e-4 band, negative zero, integers held as floats, values
// with seventeen significant digits, subnormals and arbitrary bits.
func randomFloat(r *rand.Rand) float64 {
	sign := 1.0
	if r.IntN(2) == 0 {
		sign = -1
	}
	switch r.IntN(10) {
	case 0:
		return sign * r.Float64() * math.Pow(10, float64(-r.IntN(300)-5)) // tiny
	case 1:
		return sign * (1 + r.Float64()*9) * math.Pow(10, float64(-6+r.IntN(3))) // 1e-6..1e-4
	case 2:
		return sign * (1 + r.Float64()*9) * math.Pow(10, float64(14+r.IntN(294))) // huge
	case 3:
		return math.Copysign(0, -1)
	case 4:
		return sign * float64(r.Int64N(1<<53)) // an integer as a float
	case 5:
		return sign * float64(r.IntN(100000)) * math.Pow(10, float64(r.IntN(25))) // round, up to 1e29
	case 6:
		return sign * r.Float64() * math.Pow(10, float64(r.IntN(20)-4)) // many digits
	case 7:
		return sign * math.Float64frombits(uint64(r.Int64N(1<<52))) // subnormal
	case 8:
		for {
			if f := math.Float64frombits(r.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	default:
		return []float64{1, 0.0001, 1e-5, 1e-7, 1e16, 1e15, 3.0255e-05, 0.1, 1e21, 1e22, math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789012345678}[r.IntN(13)]
	}
}

// randomString draws runes Python escapes in its own way: controls, DEL,
// quotes and backslashes, accented letters, the BMP's last and the astral
// planes (a surrogate pair to Python).
func randomString(r *rand.Rand) string {
	pool := []rune{0, 1, '\b', '\f', '\n', '\r', '\t', 0x1f, ' ', '"', '\\', '/', '<', '>', '&', '~', 0x7f, 0x80, 0xe9, 0x2028, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff, 'a', 'Z', '0'}
	b := make([]rune, r.IntN(12))
	for i := range b {
		b[i] = pool[r.IntN(len(pool))]
	}
	return string(b)
}

// TestPythonFloatMatchesRepr compares quarry.PythonFloat with Python's own
// repr over thousands of random floats, passed to Python by their bits.
func TestPythonFloatMatchesRepr(t *testing.T) {
	run := python(t)
	r := rand.New(rand.NewPCG(22, 6))
	var bits, want []string
	for range 5000 {
		f := randomFloat(r)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
		bits = append(bits, hex.EncodeToString(b[:]))
		want = append(want, quarry.PythonFloat(f))
	}
	p := filepath.Join(t.TempDir(), "bits")
	os.WriteFile(p, []byte(strings.Join(bits, "\n")), 0o644)
	got := strings.Split(run(`
import struct, sys, json
for line in open(sys.argv[1]):
    print(json.dumps(struct.unpack("<d", bytes.fromhex(line.strip()))[0]))
`, p), "\n")
	if len(got) != len(want) {
		t.Fatalf("python printed %d floats; want %d", len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			bad++
			if bad <= 10 {
				t.Errorf("float %s: PythonFloat = %s; Python writes %s", bits[i], want[i], got[i])
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d floats differ from Python's json.dumps", bad, len(want))
	}
}

// TestSpecVerifierAcceptsRandomFloats writes random floats, nested in
// maps and lists as tool arguments and observations are, with a random
// string key and value beside them, through
// Quarry's log writer, and runs the specification's verify_audit_chain on
// the log, and the hash_v2 formula's own Python verifier, as well as
// Verify.
func TestSpecVerifierAcceptsRandomFloats(t *testing.T) {
	run := python(t)
	r := rand.New(rand.NewPCG(22, 1))
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, "req-floats", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	var written [][]float64
	for i := range 60 {
		var fs []float64
		list := make([]any, 0, 8)
		for range 8 {
			f := randomFloat(r)
			fs = append(fs, f)
			list = append(list, f)
		}
		g, h := randomFloat(r), randomFloat(r)
		fs = append(fs, g, h)
		data := map[string]any{
			"step":   i,
			"values": list,
			"stats": map[string]any{
				"mean":   g,
				"nested": []any{map[string]any{"p_value": h, "n": int64(r.Uint64() >> 1)}},
				"f32":    float32(math.Mod(g, 1e30)),
				"typed":  []float64{g, h},
				"number": json.Number("1.50"),
				"label":  "température ≥ 30 °C",
			},
			randomString(r): randomString(r),
		}
		if _, err := l.Append(quarry.EventObservationRecorded, "actor", data); err != nil {
			t.Fatal(err)
		}
		written = append(written, fs)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if res, err := audit.VerifyFile(path); err != nil || !res.OK() || res.Entries != 60 || res.Legacy != 0 {
		t.Fatalf("Verify = %+v, %v; want 60 intact entries, none by the old formula", res, err)
	}
	if got := run(specVerifier, path); got != "True" {
		t.Fatalf("the specification's verify_audit_chain = %s; want True", got)
	}
	if got := run(v2Verifier, path); got != "True" {
		t.Fatalf("the hash_v2 verifier in Python = %s; want True", got)
	}
	// The values Python reads are the floats written, each still a float.
	got := run(`
import json, sys, struct
for line in open(sys.argv[1]):
    d = json.loads(line)["event_data"]
    vals = d["values"] + [d["stats"]["mean"], d["stats"]["nested"][0]["p_value"]]
    print(" ".join(struct.pack("<d", v).hex() if type(v) is float else "not-a-float:" + repr(v) for v in vals))
`, path)
	for i, line := range strings.Split(got, "\n") {
		for j, hx := range strings.Fields(line) {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(written[i][j]))
			if hx != hex.EncodeToString(b[:]) {
				t.Fatalf("entry %d value %d: Python read %s; Go wrote %v (%s)", i+1, j, hx, written[i][j], hex.EncodeToString(b[:]))
			}
		}
	}
}

// TestVerifyAcceptsWhatPythonWrites has Python write a log by the
// specification's formula, with hash_v2 as documented, holding floats
// Go's encoder writes differently, and Verify must accept it; an edited
// actor in it must then be found.
func TestVerifyAcceptsWhatPythonWrites(t *testing.T) {
	run := python(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	run(`
import json, hashlib, sys
values = [1.0, -0.0, 3.0255e-05, 1e-07, 1e+16, 0.0001, 1e22, 5e-324, 1.7976931348623157e+308, 10**30, -7, 0.1]
prev, prev2 = "0" * 64, "0" * 64
with open(sys.argv[1], "w") as f:
    for i in range(6):
        data = {"values": values, "nested": {"x": values[i], "ort": "Zürich ✓"}, "i": i}
        e = {"entry_id": "e%d" % i, "request_id": "req-py", "sequence_number": i + 1, "parent_hash": prev,
             "timestamp": "2026-11-28T12:00:0%dZ" % i, "event_type": "tool_called", "event_data": data, "actor": "planner"}
        payload = f"{e['parent_hash']}{e['timestamp']}{e['event_type']}{json.dumps(e['event_data'], sort_keys=True)}"
        e["hash"] = hashlib.sha256(payload.encode()).hexdigest()
        fields = {k: v for k, v in e.items() if k != "hash"}
        e["hash_v2"] = hashlib.sha256((prev2 + json.dumps(fields, sort_keys=True)).encode()).hexdigest()
        prev, prev2 = e["hash"], e["hash_v2"]
        f.write(json.dumps(e) + "\n")
`, path)
	res, err := audit.VerifyFile(path)
	if err != nil || !res.OK() || res.Entries != 6 || res.Legacy != 0 {
		t.Fatalf("Verify(Python's log) = %+v, %v; want 6 intact entries", res, err)
	}
	raw, _ := os.ReadFile(path)
	edited := strings.Replace(string(raw), `"actor": "planner"`, `"actor": "safety"`, 1)
	res, _ = audit.Verify(strings.NewReader(edited))
	if res.FirstBroken != 1 || !strings.Contains(res.Reason, "hash_v2") {
		t.Fatalf("Verify(Python's log, actor edited) = %+v; want entry 1 broken by its hash_v2", res)
	}
}

// TestLegacyLogStillVerifies builds a log as Quarry wrote it before its
// numbers followed Python's ("0.000030255", "1e-7", "-0", hashed as
// written, no hash_v2), which the specification's verifier rejects: it
// must still verify, counted as legacy, and a new writer must continue it
// with hash_v2 entries.
func TestLegacyLogStillVerifies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	var lines []string
	prev := quarry.GenesisHash
	for i, lit := range []string{`{"rows":3,"share":0.5}`, `{"p_value":0.000030255}`, `{"eps":1e-7,"zero":-0}`} {
		dec := json.NewDecoder(strings.NewReader(lit))
		dec.UseNumber()
		var data map[string]any
		if err := dec.Decode(&data); err != nil {
			t.Fatal(err)
		}
		e := quarry.AuditEntry{EntryID: fmt.Sprint("e", i), RequestID: "old", SequenceNumber: i + 1, ParentHash: prev,
			Timestamp: fmt.Sprintf("2025-01-01T00:00:0%dZ", i), EventType: quarry.EventToolCalled, EventData: data, Actor: "actor"}
		var err error
		if e.Hash, err = e.ComputeLegacyHash(); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), "hash_v2") || !strings.Contains(string(b), lit) {
			t.Fatalf("the old line %s is not as the old writer wrote it", b)
		}
		lines = append(lines, string(b))
		prev = e.Hash
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	res, err := audit.VerifyFile(path)
	if err != nil || !res.OK() || res.Entries != 3 || res.Legacy != 2 {
		t.Fatalf("Verify(old log) = %+v, %v; want 3 intact entries, 2 by the old formula (the first has no float it changes)", res, err)
	}
	if py, err := exec.LookPath("python3"); err == nil {
		// What the old writer got wrong: the specification rejects it.
		out, _ := exec.Command(py, "-c", specVerifier, path).Output()
		if strings.TrimSpace(string(out)) != "False" {
			t.Fatalf("the specification's verifier on the old log = %s; want False, as the issue found", out)
		}
	}
	// Edited data in an old entry is found all the same.
	edited := strings.Replace(strings.Join(lines, "\n")+"\n", "0.000030255", "0.000030256", 1)
	if res, _ := audit.Verify(strings.NewReader(edited)); res.FirstBroken != 2 {
		t.Fatalf("Verify(old log, edited) first broken = %d; want 2", res.FirstBroken)
	}
	l, err := audit.Open(path, "new", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(quarry.EventToolCalled, "actor", map[string]any{"p_value": 3.0255e-05}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	rep, err := audit.Check(path)
	if err != nil || !rep.OK() || rep.Entries != 4 || rep.Legacy != 2 || rep.LastHashV2 == "" {
		t.Fatalf("Check(old log continued) = %+v, %v; want 4 entries, the new one with hash_v2", rep, err)
	}
}

// TestAppendRefusesNaN: NaN and the infinities have no JSON form (Python
// would write the non-JSON NaN and Infinity), so an entry holding one is
// refused, naming where, and nothing is written.
func TestAppendRefusesNaN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, "r", fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := l.Append(quarry.EventObservationRecorded, "actor", map[string]any{"stats": map[string]any{"mean": []any{1.0, f}}})
		if err == nil || !strings.Contains(err.Error(), "event_data.stats.mean[1]") {
			t.Errorf("Append(%v) error = %v; want a refusal naming event_data.stats.mean[1]", f, err)
		}
	}
	if _, err := l.Append(quarry.EventObservationRecorded, "actor", map[string]any{"mean": 1.0}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if n := strings.Count(string(raw), "\n"); n != 1 || !strings.Contains(string(raw), `"mean":1.0`) {
		t.Fatalf("log = %s; want the one valid entry, its float written 1.0", raw)
	}
}

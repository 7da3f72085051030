package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// TestAuditRecordsAndExternalAnchor: an analysis's result.json is hashed
// in the log and an edit to it is found; an edited actor is found; and a
// log rewritten whole with its sibling anchor, which verifies on its own,
// fails against an anchor kept outside the data dir, given as a file, as
// JSON or as one hash.
func TestAuditRecordsAndExternalAnchor(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, _ := runCLI(t, "analyze", "--source", "../../testdata/analyze/sales.csv", "--data-dir", dir, "--json",
		"Analyze Q1 2021 Arizona sales; trends + charts")
	var res struct {
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.RequestID == "" {
		t.Fatalf("quarry analyze --json: %v\n%s%s", err, stdout, stderr)
	}
	logPath := filepath.Join(dir, "logs", "data_agent_runs.jsonl")
	record := filepath.Join(dir, "analyses", res.RequestID, "result.json")
	recordRel := "analyses/" + res.RequestID + "/result.json"

	out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "ok      logs/data_agent_runs.jsonl") || !strings.Contains(out, ", 1 record") {
		t.Fatalf("intact: exit %d; want the analyses' log ok with 1 record\n%s%s", code, out, stderr)
	}

	// The anchor, kept outside the data dir, as text and as JSON.
	keep := t.TempDir()
	anchorText, stderr, code := runCLI(t, "audit", "anchor", "--data-dir", dir)
	if code != 0 || !strings.Contains(anchorText, "\nlogs/data_agent_runs.jsonl ") {
		t.Fatalf("audit anchor: exit %d\n%s%s", code, anchorText, stderr)
	}
	textFile := filepath.Join(keep, "anchor.txt")
	os.WriteFile(textFile, []byte(anchorText), 0o644)
	anchorJSON, _, code := runCLI(t, "audit", "anchor", "--data-dir", dir, "--json")
	var a audit.Anchor
	if err := json.Unmarshal([]byte(anchorJSON), &a); code != 0 || err != nil || len(a.Logs) != 1 || a.Logs[0].Path != "logs/data_agent_runs.jsonl" ||
		a.Logs[0].Entries < 3 || !audit.IsHash(a.Logs[0].LastHashV2) {
		t.Fatalf("audit anchor --json: exit %d, %v\n%s", code, err, anchorJSON)
	}
	jsonFile := filepath.Join(keep, "anchor.json")
	os.WriteFile(jsonFile, []byte(anchorJSON), 0o644)
	head := a.Logs[0]

	// The log goes on after the anchor: it still extends it.
	l, err := audit.OpenShared(logPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.AppendFor("later", quarry.EventRequestSubmitted, "system", map[string]any{"p_value": 3.0255e-05}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for _, anchor := range []string{textFile, jsonFile, head.LastHashV2, strings.ToUpper(head.LastHash)} {
		out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", anchor)
		if code != 0 || !strings.Contains(out, "extends the external anchor") || !strings.Contains(out, "against the external anchor") {
			t.Errorf("--anchor %s after one more entry: exit %d\n%s%s", anchor, code, out, stderr)
		}
		if partial := strings.Contains(out, "its hash_v2, which covers actor, request_id and entry_id too, would check more"); partial != (anchor == strings.ToUpper(head.LastHash)) {
			t.Errorf("--anchor %s: the output says the hash checks less (%v) only for the entry's hash\n%s", anchor, partial, out)
		}
	}
	if out, _, code := runCLI(t, "audit", "verify", logPath, "--anchor", textFile); code != 0 || !strings.Contains(out, "external:  extends the external anchor") {
		t.Errorf("verify PATH --anchor FILE: exit %d\n%s", code, out)
	}

	// result.json edited: its summary says something else.
	orig, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(record, []byte(strings.Replace(string(orig), `"summary": "`, `"summary": "Sales doubled. `, 1)), 0o644)
	out, stderr, code = runCLI(t, "audit", "verify", "--data-dir", dir)
	want := recordRel + " was changed after it was recorded"
	if code != 1 || !strings.Contains(out, "FAILED  logs/data_agent_runs.jsonl  "+want) || !strings.Contains(stderr, "error CONFLICT") {
		t.Errorf("result.json edited: exit %d; want %q\n%s%s", code, want, out, stderr)
	}
	os.Remove(record)
	if out, _, code := runCLI(t, "audit", "verify", logPath); code != 1 || !strings.Contains(out, "PROBLEM:   "+recordRel+" was recorded but is missing") {
		t.Errorf("result.json removed: exit %d\n%s", code, out)
	}
	os.WriteFile(record, orig, 0o644)

	// The actor of the first entry, outside the specification's hash.
	restore := editEntry(t, logPath, 1, func(e *quarry.AuditEntry) { e.Actor = "safety" })
	if _, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir); code != 1 || !strings.Contains(stderr, "entry 1 is broken: hash_v2") {
		t.Errorf("actor edited: exit %d\n%s", code, stderr)
	}
	restore()

	// The whole log rewritten, its first actor changed, with a fresh
	// sibling anchor: a valid chain on its own.
	entries, err := audit.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(logPath)
	os.Remove(audit.AnchorPath(logPath))
	forged, err := audit.OpenShared(logPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		actor := e.Actor
		if i == 0 {
			actor = "safety"
		}
		if _, err := forged.AppendFor(e.RequestID, e.EventType, actor, e.EventData); err != nil {
			t.Fatal(err)
		}
	}
	forged.Close()
	if out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir); code != 0 {
		t.Fatalf("the rewritten log on its own: exit %d; want it to pass, which is why an external anchor is needed\n%s%s", code, out, stderr)
	}
	for _, anchor := range []string{textFile, jsonFile} {
		out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", anchor)
		if code != 1 || !strings.Contains(out, "FAILED  logs/data_agent_runs.jsonl  entry ") || !strings.Contains(out, "the log was rewritten after the anchor was taken") {
			t.Errorf("rewritten, --anchor %s: exit %d\n%s%s", filepath.Base(anchor), code, out, stderr)
		}
	}
	out, stderr, code = runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", head.LastHashV2)
	if code != 1 || !strings.Contains(out, "no log holds the anchored entry") {
		t.Errorf("rewritten, --anchor HASH_V2: exit %d\n%s%s", code, out, stderr)
	}
	if out, _, code := runCLI(t, "audit", "verify", logPath, "--anchor", jsonFile); code != 1 || !strings.Contains(out, "external:  PROBLEM: entry ") {
		t.Errorf("rewritten, verify PATH --anchor: exit %d\n%s", code, out)
	}

	// The log removed altogether.
	os.Remove(logPath)
	out, _, code = runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", textFile)
	if code != 1 || !strings.Contains(out, "FAILED  logs/data_agent_runs.jsonl  the external anchor recorded") {
		t.Errorf("log removed, --anchor: exit %d\n%s", code, out)
	}
}

func TestAuditAnchorUsage(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", "nothing-like-a-hash"); code != 1 || !strings.Contains(stderr, "error INVALID") {
		t.Errorf("--anchor that is neither a file nor a hash: exit %d\n%s", code, stderr)
	}
	bad := filepath.Join(dir, "anchor.txt")
	os.WriteFile(bad, []byte("logs/x.jsonl three abc -\n"), 0o644)
	if _, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir, "--anchor", bad); code != 1 || !strings.Contains(stderr, "line 1 of the anchor") {
		t.Errorf("--anchor with a bad line: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "audit", "anchor", "--data-dir", filepath.Join(dir, "none")); code != 1 || !strings.Contains(stderr, "error NOT_FOUND") {
		t.Errorf("anchor a data dir that does not exist: exit %d\n%s", code, stderr)
	}
}

// TestAuditVerifyOldLog: a log an older Quarry wrote, its float hashed as
// Go wrote it ("0.000030255", which the specification's verifier
// rejects), verifies, and verify says which of its entries used that
// form.
func TestAuditVerifyOldLog(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "logs", "old.jsonl")
	os.MkdirAll(filepath.Dir(logPath), 0o755)
	var data map[string]any
	dec := json.NewDecoder(strings.NewReader(`{"p_value":0.000030255,"rows":3}`))
	dec.UseNumber()
	dec.Decode(&data)
	e := quarry.AuditEntry{EntryID: "e1", RequestID: "old", SequenceNumber: 1, ParentHash: quarry.GenesisHash,
		Timestamp: "2025-01-01T00:00:00Z", EventType: quarry.EventObservationRecorded, EventData: data, Actor: "actor"}
	var err error
	if e.Hash, err = e.ComputeLegacyHash(); err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(e)
	os.WriteFile(logPath, append(line, '\n'), 0o644)
	os.WriteFile(audit.AnchorPath(logPath), []byte(`{"entries":1,"last_hash":"`+e.Hash+`"}`), 0o644)

	out, stderr, code := runCLI(t, "audit", "verify", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "ok      logs/old.jsonl  1 entry; 1 entry by an older Quarry's number format") {
		t.Errorf("verify the data dir: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "audit", "verify", logPath)
	if code != 0 || !strings.Contains(out, "note:      1 entry was written by an older Quarry") {
		t.Errorf("verify PATH: exit %d\n%s%s", code, out, stderr)
	}
}

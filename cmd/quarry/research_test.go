package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampleresearch"
	"github.com/quarry-dev/quarry/research"
)

const kestrelCorpus = "../../internal/sampleresearch/kestrel"

const kestrelQuestion = "What changed in Kestrel Dynamics' finances, operations and legal exposure in 2024 and 2025?"

// TestResearchSampleCorpus runs quarry research over the committed sample
// corpus, a fictional company's filings and press releases with planted
// contradictions, and checks that each is found and resolved as planted
// and that the company sharing the name is not called a conflict.
func TestResearchSampleCorpus(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "research", "--data-dir", dir, "--corpus", kestrelCorpus, kestrelQuestion, "--json")
	if code != 0 {
		t.Fatalf("quarry research exited %d\n%s", code, stderr)
	}
	for _, stage := range []string{"planning", "executing", "verifying", "synthesizing", "completed"} {
		if !strings.Contains(stderr, "research: "+stage+":") {
			t.Errorf("stderr has no %s progress:\n%s", stage, stderr)
		}
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	// A folder's research runs through the research service, as a room's
	// does: its trail, each search of the folder among it, verifies.
	logPath := app.ResearchLog(dir)
	if rep, err := audit.CheckIn(logPath, dir); err != nil || !rep.OK() {
		t.Errorf("%s: %+v, %v; want a log that verifies", logPath, rep, err)
	}
	entries, err := audit.ReadFile(logPath)
	searches := 0
	for _, e := range entries {
		if e.EventData["tool"] == "folder_search" {
			searches++
		}
	}
	if err != nil || searches == 0 {
		t.Errorf("the research log holds %d entries, %d folder searches (%v); want the folder's searches", len(entries), searches, err)
	}
	roots, followUps := 0, 0
	for _, sq := range out.Plan.SubQuestions {
		if sq.ParentID == "" {
			roots++
		} else if sq.Depth == 1 {
			followUps++
		}
	}
	if out.Status != "completed" || roots < 5 || roots > 7 {
		t.Fatalf("status %s with %d root sub-questions; want completed with 5-7 (standard)", out.Status, roots)
	}
	// The disputed figures are followed up, one level down (standard).
	if followUps == 0 || roots+followUps != len(out.Plan.SubQuestions) || len(out.Plan.SubQuestions) > 10 {
		t.Errorf("%d roots and %d follow-ups of %d sub-questions; want follow-ups at depth 1 only, at most 10 in all", roots, followUps, len(out.Plan.SubQuestions))
	}
	facts := map[string]research.FactView{}
	for _, f := range out.Facts {
		facts[f.ID] = f
	}
	// The planted contradictions, found and resolved as planted, and the
	// Coventry firm told apart.
	for _, p := range sampleresearch.Check(out) {
		t.Error(p)
	}
	// Every claim's marker resolves; every section cites facts.
	texts := []string{out.Report.ExecutiveSummary}
	for _, s := range out.Report.Sections {
		texts = append(texts, s.Content)
		if len(s.FactIDs) == 0 {
			t.Errorf("section %s cites no fact", s.Title)
		}
	}
	for _, text := range texts {
		for _, id := range research.Markers(text) {
			if _, ok := facts[id]; !ok {
				t.Errorf("marker [cite:%s] names no fact", id)
			}
		}
	}
	if out.Report.QualityScore <= 0 || out.Report.QualityScore > 1 || out.Report.TotalSources < 6 {
		t.Errorf("quality %.2f from %d sources; want (0, 1] from at least 6", out.Report.QualityScore, out.Report.TotalSources)
	}
	// The result was saved, and a second run reuses the index.
	stdout2, stderr2, code := runCLI(t, "research", "--data-dir", dir, "--corpus", kestrelCorpus, "--depth", "quick", kestrelQuestion)
	if code != 0 || !strings.Contains(stderr2, "already indexed") || !strings.Contains(stdout2, "[1]") {
		t.Errorf("second research exited %d; want the index reused and a cited report\n%s", code, stderr2)
	}
	if _, err := os.Stat(filepath.Join(dir, "db", "research.db")); err != nil {
		t.Errorf("research.db: %v", err)
	}
}

// TestResearchBadInput: each mistake is refused with its code before
// anything is written.
func TestResearchBadInput(t *testing.T) {
	empty := t.TempDir()
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "filing.pdf"), []byte("not a pdf at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
		exit int
	}{
		{"short question", []string{"--corpus", kestrelCorpus, "Why?"}, "INVALID", 1},
		{"long question", []string{"--corpus", kestrelCorpus, strings.Repeat("why ", 130)}, "INVALID", 1},
		{"unknown depth", []string{"--corpus", kestrelCorpus, "--depth", "deep", kestrelQuestion}, "INVALID", 1},
		{"missing corpus", []string{"--corpus", filepath.Join(empty, "nope"), kestrelQuestion}, "NOT_FOUND", 1},
		{"empty corpus", []string{"--corpus", empty, kestrelQuestion}, "EMPTY_FILE", 1},
		{"unreadable corpus", []string{"--corpus", broken, kestrelQuestion}, "MALFORMED_DOCUMENT", 1},
		{"no source", []string{kestrelQuestion}, "exactly one of", 2},
		{"two sources", []string{"--corpus", kestrelCorpus, "--room", "sample", kestrelQuestion}, "exactly one of", 2},
	} {
		dir := t.TempDir()
		_, stderr, code := runCLI(t, append([]string{"research", "--data-dir", dir}, tc.args...)...)
		if code != tc.exit || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d with %s", tc.name, code, stderr, tc.exit, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "db", "research.db")); err == nil {
			t.Errorf("%s: research.db was written", tc.name)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, "db", "corpora", "*")); len(m) > 0 {
			t.Errorf("%s: corpus marker %v was written", tc.name, m)
		}
	}
}

// TestResearchRoom researches a data room through its permissions: its
// owner gets a report, a user who is not a member gets NOT_FOUND.
func TestResearchRoom(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := runCLI(t, "room", "create", "kestrel", "--data-dir", dir); code != 0 {
		t.Fatalf("room create: %s", stderr)
	}
	files, _ := filepath.Glob(filepath.Join(kestrelCorpus, "*.md"))
	if _, stderr, code := runCLI(t, append([]string{"ingest", "--room", "kestrel", "--data-dir", dir}, files...)...); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
	stdout, stderr, code := runCLI(t, "research", "--data-dir", dir, "--room", "kestrel", "--depth", "quick", "How many employees did Kestrel Dynamics have at the end of 2024?", "--json")
	if code != 0 {
		t.Fatalf("research --room exited %d\n%s", code, stderr)
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, "1,240") || strings.Contains(out.Answer, "1,420") {
		t.Errorf("answer %q; want the consensus headcount 1,240 and not the contradicted 1,420", out.Answer)
	}
	// The broad question hears every source of the room, not only the
	// filings of the issuer it names: the four planted contradictions are
	// found there as in the folder.
	stdout, stderr, code = runCLI(t, "research", "--data-dir", dir, "--room", "kestrel", kestrelQuestion, "--json")
	if code != 0 {
		t.Fatalf("research --room exited %d\n%s", code, stderr)
	}
	var broad research.View
	if err := json.Unmarshal([]byte(stdout), &broad); err != nil {
		t.Fatal(err)
	}
	for _, p := range sampleresearch.Check(broad) {
		t.Errorf("the broad question over the room: %s", p)
	}
	// Both researches are in the audit log, which verifies.
	rep, err := audit.CheckIn(filepath.Join(dir, "logs", "research.jsonl"), dir)
	if err != nil || !rep.OK() {
		t.Fatalf("the research audit log: %+v, %v; want it verified", rep, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "logs", "research.jsonl")); bytes.Count(b, []byte(`"event_type":"research_finished"`)) != 2 {
		t.Errorf("the research audit log holds %d finished researches; want 2", bytes.Count(b, []byte(`"event_type":"research_finished"`)))
	}
	if _, err := quarryRun(t, "bob's long password\n", "user", "add", "bob", "--password-stdin", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, "research", "--data-dir", dir, "--room", "kestrel", "--as", "bob", kestrelQuestion)
	if code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("research by a non-member: exit %d, %q; want NOT_FOUND", code, stderr)
	}
}

// TestResearchWithModel: quarry research asks the configured model to
// plan, read and write; a model whose answers are of no use (the wrong
// shape for every step) leaves the research to its offline steps, which
// still find the planted contradictions, and the progress says so.
func TestResearchWithModel(t *testing.T) {
	model := fakeOpenAI(t, `{"ok": true}`)
	defer model.Close()
	env := map[string]string{"QUARRY_LLM_PROVIDER": "openai", "QUARRY_LLM_MODEL": "llama3.2", "QUARRY_LLM_BASE_URL": model.URL + "/v1"}
	stdout, stderr, code := runCLIEnv(t, env, "research", "--data-dir", t.TempDir(), "--corpus", kestrelCorpus, kestrelQuestion, "--json")
	if code != 0 {
		t.Fatalf("quarry research exited %d\n%s", code, stderr)
	}
	for _, want := range []string{"model openai/llama3.2: ", "the plan was made offline", "the report was written offline"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the progress does not say %q:\n%s", want, stderr)
		}
	}
	var out research.View
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output: %v", err)
	}
	if problems := sampleresearch.Check(out); len(problems) > 0 {
		t.Errorf("with a useless model the research lost what it finds offline: %v", problems)
	}
}

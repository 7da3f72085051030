package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/sqlite"
)

// TestInvestigateRunsThroughTheService: quarry investigate runs the
// investigation through the server's session service, so that afterwards
// quarry serve's stack on the same data dir reads it by its ID, through
// the manager and the API, as one the server ran: completed with its
// start and end times, its report and explanations the command printed,
// and already in the chat index, which only the service fills.
func TestInvestigateRunsThroughTheService(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole investigation")
	}
	dir := t.TempDir()
	s, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(filepath.Join(dir, "samples"), s)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	args := []string{"investigate", "--data-dir", data, "--json", "--metric", s.MetricSQL,
		"--baseline", s.Baseline.String(), "--comparison", s.Comparison.String()}
	for i, p := range paths {
		args = append(args, "--file", p+"="+s.Files[i].Description)
	}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res investigation.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decode --json: %v\n%s", err, stdout)
	}
	if res.SessionID == "" || len(res.Explanations) == 0 {
		t.Fatalf("result %+v; want a session with explanations", res)
	}

	// The run indexed the investigation for chat, as the server's runs
	// do: read before any server opened the data dir (which would
	// index it at its start).
	db, err := sqlite.Open(filepath.Join(data, "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	hits, err := db.Search(context.Background(), res.SessionID, "metric", 1)
	db.Close()
	if err != nil || len(hits) == 0 {
		t.Fatalf("chat index holds %d passages of the session (%v); want the run's", len(hits), err)
	}

	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	sess, err := a.Investigations.Session(ctx, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Status != investigation.StatusCompleted || sess.Outcome != res.Status || !sess.ReportReady || sess.FileCount != len(paths) ||
		sess.StartedAt == nil || sess.FinishedAt == nil {
		t.Errorf("session %+v; want completed (%s) with its report, %d files, start and end", sess, res.Status, len(paths))
	}
	expls, err := a.Investigations.Explanations(ctx, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(expls) != len(res.Explanations) {
		t.Fatalf("%d explanations through the manager; the command printed %d", len(expls), len(res.Explanations))
	}
	for i := range expls {
		if expls[i].Title != res.Explanations[i].Title || expls[i].Rank != res.Explanations[i].Rank {
			t.Errorf("explanation %d = %q (rank %d); the command printed %q (rank %d)", i, expls[i].Title, expls[i].Rank,
				res.Explanations[i].Title, res.Explanations[i].Rank)
		}
	}
	report, err := a.Investigations.Report(ctx, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(res.ReportPath)
	if err != nil || report.Content != string(onDisk) {
		t.Errorf("the manager's report differs from %s (%v)", res.ReportPath, err)
	}
	files, err := a.Investigations.Files(ctx, res.SessionID)
	if err != nil || len(files) != len(paths) || files[0].Description != s.Files[0].Description || files[0].Schema == nil {
		t.Errorf("files %+v (%v); want the %d uploaded with their descriptions and schemas", files, err, len(paths))
	}

	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/sessions")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			Status    string `json:"status"`
		} `json:"sessions"`
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || len(list.Sessions) != 1 ||
		list.Sessions[0].SessionID != res.SessionID || list.Sessions[0].Status != string(investigation.StatusCompleted) {
		t.Errorf("GET /api/sessions: %d %+v (%v); want the command's session, completed", resp.StatusCode, list, err)
	}
	resp, err = http.Get(srv.URL + "/api/sessions/" + res.SessionID + "/explanations")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET its explanations: %d; want 200", resp.StatusCode)
	}
}

// cancelOn is a progress writer that cancels the command's context at the
// first line holding want, as Ctrl-C would mid-run.
type cancelOn struct {
	want   string
	cancel context.CancelFunc
	buf    strings.Builder
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.want) {
		c.cancel()
	}
	return c.buf.Write(p)
}

// TestInvestigateInterrupted: Ctrl-C during the run stops the service's
// investigation, which records the session failed with RUN_INTERRUPTED;
// the command exits with that error.
func TestInvestigateInterrupted(t *testing.T) {
	dir := t.TempDir()
	s, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(filepath.Join(dir, "samples"), s)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	args := []string{"investigate", "--data-dir", data, "--metric", s.MetricSQL,
		"--baseline", s.Baseline.String(), "--comparison", s.Comparison.String()}
	for _, p := range paths {
		args = append(args, "--file", p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOn{want: "] load ", cancel: cancel}
	var stdout strings.Builder
	err = run(ctx, args, func(string) string { return "" }, strings.NewReader(""), &stdout, stderr)
	if quarry.ErrorCode(err) != quarry.ECodeRunInterrupted {
		t.Fatalf("error %v; want %s\n%s", err, quarry.ECodeRunInterrupted, stderr.buf.String())
	}
	metas, _ := filepath.Glob(filepath.Join(data, "sessions", "*", "metadata.json"))
	if len(metas) != 1 {
		t.Fatalf("%d sessions; want 1", len(metas))
	}
	var meta investigation.Investigation
	raw, _ := os.ReadFile(metas[0])
	json.Unmarshal(raw, &meta)
	if meta.Status != investigation.StatusFailed || meta.Error == nil || meta.Error.Code != quarry.ECodeRunInterrupted {
		t.Errorf("session %+v; want failed with %s", meta, quarry.ECodeRunInterrupted)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q; want nothing from an interrupted run", stdout.String())
	}
}

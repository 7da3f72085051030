package mcp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/mcp"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

const (
	kestrelQuestion   = "What changed in Kestrel Dynamics' finances, operations and legal exposure in 2024 and 2025?"
	headcountQuestion = "How many employees did Kestrel Dynamics have at the end of 2024?"
)

// TestResearchTool researches the committed sample corpus, uploaded to a
// room of the local owner, through the research tool: the result carries
// the planted headcount discrepancy and a report whose every marker names a fact,
// with progress sent to a client that asked for it. Eve's room is
// NOT_FOUND, and bad input is INVALID before anything runs.
func TestResearchTool(t *testing.T) {
	e := newRoomEnv(t, "")
	ctx := context.Background()
	kestrel := newKestrelRoom(t, e)
	rs, err := app.OpenResearches(e.dir, e.svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	srv := mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc, RoomUser: e.owner, Research: rs})

	var mu sync.Mutex
	var progress []string
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcpsdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, r.Params.Message)
		}})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	params := &mcpsdk.CallToolParams{Name: "run_research", Arguments: map[string]any{"question": headcountQuestion, "room": "kestrel"}}
	params.SetProgressToken("r1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcpsdk.TextContent).Text
	if res.IsError {
		t.Fatalf("research failed: %s", text)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var v research.View
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Status != "completed" || v.Depth != "standard" || len(v.Plan.SubQuestions) < 5 || len(v.Facts) == 0 || len(v.Report.Sections) == 0 {
		t.Fatalf("research: status %s depth %s, %d sub-questions, %d facts, %d sections; want a completed standard research with facts and a report",
			v.Status, v.Depth, len(v.Plan.SubQuestions), len(v.Facts), len(v.Report.Sections))
	}
	if !strings.Contains(text, v.Report.ExecutiveSummary) || !strings.Contains(text, v.ID) {
		t.Errorf("text lacks the executive summary or the id:\n%s", text)
	}
	facts := map[string]research.FactView{}
	for _, f := range v.Facts {
		facts[f.ID] = f
		if !strings.HasPrefix(f.SourceURL, "room://"+kestrel.ID+"/") {
			t.Errorf("fact %s comes from %s, outside the kestrel room", f.ID, f.SourceURL)
		}
	}
	cited := 0
	for _, s := range append([]string{v.Report.ExecutiveSummary}, sectionTexts(v)...) {
		for _, id := range research.Markers(s) {
			cited++
			if f, ok := facts[id]; !ok || f.Passage == "" {
				t.Errorf("[cite:%s] names no fact with a passage", id)
			}
		}
	}
	if cited == 0 {
		t.Error("the report cites no fact")
	}
	// The planted contradiction: two press releases disagree on the
	// headcount, and the filings side with one of them.
	var found bool
	for _, d := range v.Discrepancies {
		if !strings.Contains(d.Topic, "employees") {
			continue
		}
		found = true
		if d.Strategy != research.StrategyConsensus || !strings.HasPrefix(d.Preferred, "1,240") || len(d.Sides) < 2 || d.Resolution == "" {
			t.Errorf("employees: %s prefers %q over %d sides: %s; want consensus on 1,240", d.Strategy, d.Preferred, len(d.Sides), d.Resolution)
		}
		for _, side := range d.Sides {
			for _, id := range side.FactIDs {
				if f := facts[id]; f.DiscrepancyID == nil || *f.DiscrepancyID != d.ID {
					t.Errorf("employees: side %s cites fact %s, which does not point back", side.Value, id)
				}
			}
		}
	}
	if !found {
		t.Errorf("discrepancies %+v; want the planted headcount", v.Discrepancies)
	}
	if !strings.Contains(text, "employees") {
		t.Errorf("the text does not list the discrepancy:\n%s", text)
	}
	mu.Lock()
	stages := strings.Join(progress, "\n")
	mu.Unlock()
	for _, s := range []string{"planning:", "executing:", "verifying:", "synthesizing:", "completed:"} {
		if !strings.Contains(stages, s) {
			t.Errorf("progress notifications lack %s\n%s", s, stages)
		}
	}
	// The result was saved, for its owner.
	if got, err := rs.Get(ctx, e.owner.ID, v.ID); err != nil || got.Report == nil {
		t.Errorf("saved result: %v", err)
	}

	for _, tt := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"eve's room", map[string]any{"question": kestrelQuestion, "room": "other"}, quarry.ECodeNotFound},
		{"eve's room by id", map[string]any{"question": kestrelQuestion, "room": e.other.ID}, quarry.ECodeNotFound},
		{"short question", map[string]any{"question": "revenue?", "room": "kestrel"}, quarry.ECodeInvalid},
		{"unknown depth", map[string]any{"question": kestrelQuestion, "room": "kestrel", "depth": "deep"}, quarry.ECodeInvalid},
		{"no room", map[string]any{"question": kestrelQuestion}, quarry.ECodeInvalid},
	} {
		if code, text := failCode(t, cs, "run_research", tt.args); code != tt.code {
			t.Errorf("%s: %s; want %s", tt.name, text, tt.code)
		}
	}
}

// TestResearchToolWeb researches the web through the research tool, over
// a local web of recorded pages behind a SearxNG-like search: alone it
// completes and its report cites the pages, the planted contradiction
// resolved to the filing's figure; with a room too it reads both. A
// server without a provider answers INVALID naming the settings, and
// says nothing of the web in its annotations.
func TestResearchToolWeb(t *testing.T) {
	e := newRoomEnv(t, "")
	ctx := context.Background()
	kestrel := newKestrelRoom(t, e)
	web := websearchtest.Start(t, websearchtest.Kestrel(), false)
	open := func(withWeb bool) *mcpsdk.ClientSession {
		t.Helper()
		rs, err := app.OpenResearches(e.dir, e.svc, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rs.Close() })
		if withWeb {
			if err := app.ResearchWeb(rs, app.WebConfig{SearxNGURL: web.SearchURL(), AllowPrivate: true}); err != nil {
				t.Fatal(err)
			}
		}
		return connectInMemory(t, mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc, RoomUser: e.owner, Research: rs}))
	}

	cs := open(true)
	v, text := ok[research.View](t, cs, "run_research", map[string]any{"question": websearchtest.KestrelQuestion, "depth": "quick", "web": true})
	if v.Status != "completed" || len(v.Facts) == 0 || v.Report.ExecutiveSummary == "" {
		t.Fatalf("research over the web: %s, %d facts; want completed with facts\n%s", v.Status, len(v.Facts), text)
	}
	facts := map[string]research.FactView{}
	for _, f := range v.Facts {
		facts[f.ID] = f
		if !strings.HasPrefix(f.SourceURL, web.URL+"/") {
			t.Errorf("fact %q from %s; want the local web's pages", f.Text, f.SourceURL)
		}
	}
	cited := 0
	for _, sec := range append([]string{v.Report.ExecutiveSummary}, sectionTexts(v)...) {
		for _, id := range research.Markers(sec) {
			if f, ok := facts[id]; ok && strings.HasPrefix(f.SourceURL, web.URL+"/") && f.Passage != "" {
				cited++
			}
		}
	}
	if cited == 0 {
		t.Error("the report cites no web page")
	}
	var revenue bool
	for _, d := range v.Discrepancies {
		if strings.Contains(d.Topic, "revenue") {
			revenue = strings.HasPrefix(d.Preferred, "$46.9 million")
		}
	}
	if !revenue {
		t.Errorf("discrepancies %+v; want revenue resolved to the filing's $46.9 million", v.Discrepancies)
	}
	if lim := strings.Join(v.Report.Limitations, "\n"); !strings.Contains(lim, "was not read: the page is application/pdf") {
		t.Errorf("limitations %q; want the PDF not read", lim)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "run_research" && (tool.Annotations.OpenWorldHint == nil || !*tool.Annotations.OpenWorldHint) {
			t.Error("research over the web is not marked open-world")
		}
	}

	both, _ := ok[research.View](t, cs, "run_research", map[string]any{"question": websearchtest.KestrelQuestion, "depth": "quick", "room": "kestrel", "web": true})
	var fromRoom, fromWeb bool
	for _, f := range both.Facts {
		fromRoom = fromRoom || strings.HasPrefix(f.SourceURL, "room://"+kestrel.ID+"/")
		fromWeb = fromWeb || strings.HasPrefix(f.SourceURL, web.URL+"/")
	}
	if both.Status != "completed" || !fromRoom || !fromWeb {
		t.Errorf("research over the room and the web: %s, facts from the room %v, from the web %v; want both", both.Status, fromRoom, fromWeb)
	}

	offline := open(false)
	for _, args := range []map[string]any{
		{"question": websearchtest.KestrelQuestion, "web": true},
		{"question": websearchtest.KestrelQuestion, "room": "kestrel", "web": true},
	} {
		if code, text := failCode(t, offline, "run_research", args); code != quarry.ECodeInvalid || !strings.Contains(text, "QUARRY_SEARXNG_URL") || !strings.Contains(text, "QUARRY_BRAVE_API_KEY") {
			t.Errorf("web without a provider %v: %s; want INVALID naming the settings", args, text)
		}
	}
	if n := web.Searches.Load(); n == 0 {
		t.Error("the web was never searched")
	}
	tools, err = offline.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "run_research" && tool.Annotations.OpenWorldHint != nil && *tool.Annotations.OpenWorldHint {
			t.Error("research without a provider is marked open-world")
		}
	}
}

// newKestrelRoom is room kestrel of e's owner, holding the committed
// sample corpus.
func newKestrelRoom(t *testing.T, e *roomEnv) *room.Room {
	t.Helper()
	ctx := context.Background()
	kestrel, err := e.svc.CreateRoom(ctx, e.owner.ID, "kestrel", "")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../internal/sampleresearch/kestrel/*.md")
	if len(files) == 0 {
		t.Fatal("no sample corpus")
	}
	if err := app.IngestFiles(ctx, e.svc, e.owner.ID, kestrel.ID, files); err != nil {
		t.Fatal(err)
	}
	return kestrel
}

func sectionTexts(v research.View) []string {
	var out []string
	for _, s := range v.Report.Sections {
		out = append(out, s.Content)
	}
	return out
}

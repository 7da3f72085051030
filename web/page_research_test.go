package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
)

// partsText writes paragraphs as text, a linked citation as {N}.
func partsText(ps []citedParagraph) []string {
	var out []string
	for _, p := range ps {
		var b strings.Builder
		for _, part := range p {
			if part.Fact != nil {
				b.WriteString("{" + part.Fact.ID + "}")
				continue
			}
			b.WriteString(part.Text)
		}
		out = append(out, b.String())
	}
	return out
}

func TestCiteParagraphs(t *testing.T) {
	facts := map[string]*factRow{"f1": {Fact: research.Fact{ID: "f1"}, N: 1}, "f-2": {Fact: research.Fact{ID: "f-2"}, N: 2}}
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"Revenue was $46.9 million [cite:f1].", []string{"Revenue was $46.9 million {f1}."}},
		{"Two sources [cite:f1] [cite:f-2] agree.", []string{"Two sources {f1} {f-2} agree."}},
		// A marker naming no fact stays as text, joined to its
		// neighbours.
		{"Unknown [cite:nope] here [cite:f1]", []string{"Unknown [cite:nope] here {f1}"}},
		{"[cite:]", []string{"[cite:]"}},
		{"First paragraph [cite:f1].\n\nSecond [cite:f-2].\r\n\r\n\n\nThird.", []string{"First paragraph {f1}.", "Second {f-2}.", "Third."}},
		{"", nil},
		{"<b>not html</b> [cite:f1]", []string{"<b>not html</b> {f1}"}},
	} {
		if got := partsText(citeParagraphs(tt.in, facts)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("citeParagraphs(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
	// Unknown markers are never parts of their own that could become
	// links.
	for _, p := range citeParagraphs("a [cite:x] b [cite:y] c", facts) {
		if len(p) != 1 || p[0].Fact != nil {
			t.Errorf("unknown markers gave parts %+v; want one text part", p)
		}
	}
}

func TestSourceLink(t *testing.T) {
	for _, tt := range []struct {
		url        string
		rooms      bool
		href, page string
		external   bool
	}{
		{"room://r1/d1#page=3", true, "/rooms/r1/documents/d1/pages/3", "page 3", false},
		{"room://r1/d1", true, "/rooms/r1/documents/d1/pages/1", "", false},
		{"room://r1/d1#page=0", true, "/rooms/r1/documents/d1/pages/1", "", false},
		{"room://r1/d1#page=3", false, "", "page 3", false},
		{"room://r1/#page=3", true, "", "page 3", false},
		{"room://r1/d1/x#page=3", true, "", "page 3", false},
		{"file:///data/kestrel/01.md#page=1&chunk=1", true, "", "page 1", false},
		{"https://example.com/news?id=4", true, "https://example.com/news?id=4", "", true},
		{"javascript:alert(1)", true, "", "", false},
		{"%zz", true, "", "", false},
	} {
		href, page, ext := sourceLink(tt.url, tt.rooms)
		if href != tt.href || page != tt.page || ext != tt.external {
			t.Errorf("sourceLink(%q, %v) = %q, %q, %v; want %q, %q, %v", tt.url, tt.rooms, href, page, ext, tt.href, tt.page, tt.external)
		}
	}
}

func TestNewTimeline(t *testing.T) {
	states := func(st research.Status, past ...research.Stage) string {
		var out []string
		for _, s := range newTimeline(st, past) {
			out = append(out, string(s.Status)+"="+s.State)
		}
		return strings.Join(out, " ")
	}
	plan := research.Stage{Status: research.StatusPlanning, Message: "7 sub-questions"}
	exec := research.Stage{Status: research.StatusExecuting, Message: "reading"}
	for _, tt := range []struct {
		name, got, want string
	}{
		{"running", states(research.StatusExecuting, plan, exec),
			"planning=done executing=current verifying=pending synthesizing=pending completed=pending"},
		{"completed from the store", states(research.StatusCompleted, research.Stage{Status: research.StatusCompleted, Message: "completed"}),
			"planning=done executing=done verifying=done synthesizing=done completed=done"},
		{"failed while reading", states(research.StatusFailed, plan, exec, research.Stage{Status: research.StatusFailed, Message: "room gone"}),
			"planning=done executing=failed verifying=pending synthesizing=pending failed=failed"},
		{"failed from the store", states(research.StatusFailed, research.Stage{Status: research.StatusFailed, Message: "x"}),
			"planning=pending executing=pending verifying=pending synthesizing=pending failed=failed"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: timeline %s; want %s", tt.name, tt.got, tt.want)
		}
	}
	tl := newTimeline(research.StatusExecuting, []research.Stage{plan, plan, exec})
	if got := tl[0].Messages; len(got) != 2 || got[0] != plan.Message {
		t.Errorf("planning messages %q; want both", got)
	}
}

func TestPlanTree(t *testing.T) {
	sqs := []research.SubQuestion{
		{ID: "b", Text: "B", Priority: 2},
		{ID: "a", Text: "A", Priority: 1},
		{ID: "b2", Text: "B2", Priority: 9, ParentID: "b", Depth: 1},
		{ID: "b1", Text: "B1", Priority: 8, ParentID: "b", Depth: 1},
		{ID: "b1x", Text: "B1x", Priority: 10, ParentID: "b1", Depth: 2},
		{ID: "orphan", Text: "O", Priority: 3, ParentID: "missing", Depth: 1},
		// A cycle: neither may vanish from the tree.
		{ID: "c1", Text: "C1", Priority: 4, ParentID: "c2"},
		{ID: "c2", Text: "C2", Priority: 5, ParentID: "c1"},
	}
	facts := []research.Fact{{SubQuestionID: "b1"}, {SubQuestionID: "b1"}, {SubQuestionID: "a"}}
	var walk func([]*planNode, string) string
	walk = func(ns []*planNode, indent string) string {
		var b strings.Builder
		for _, n := range ns {
			b.WriteString(indent + n.Text + "\n")
			b.WriteString(walk(n.Children, indent+"  "))
		}
		return b.String()
	}
	tree := planTree(sqs, facts)
	got := walk(tree, "")
	count := strings.Count(got, "\n")
	if !strings.HasPrefix(got, "A\nB\n  B1\n    B1x\n  B2\nO\n") || count != len(sqs) {
		t.Errorf("planTree =\n%s; want A, B (B1 (B1x), B2), O, then the cycle, every question once", got)
	}
	if tree[1].Children[0].Facts != 2 || tree[0].Facts != 1 {
		t.Errorf("facts per question: B1 %d, A %d; want 2 and 1", tree[1].Children[0].Facts, tree[0].Facts)
	}
}

// fakeResearch is a research.Service holding results by id for their
// owners.
type fakeResearch struct {
	research.Service // Research, which the pages never call, panics
	results          map[string]*research.Result
	stages           map[string][]research.Stage
	started          []string // questions Start received
}

func (f *fakeResearch) Start(_ context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	f.started = append(f.started, question)
	if roomName != "r1" {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "room %s not found", roomName)
	}
	return f.add(userID, question, depth)
}

// add holds a new request of userID's, for question at depth, with its
// result.
func (f *fakeResearch) add(userID, question, depth string) (*research.Request, error) {
	req, err := research.NewRequest(question, depth, time.Now())
	if err != nil {
		return nil, err
	}
	req.UserID = userID
	f.results[req.ID] = &research.Result{Request: req}
	return req, nil
}

func (f *fakeResearch) Get(_ context.Context, userID, id string) (*research.Result, error) {
	res, ok := f.results[id]
	if !ok || res.Request.UserID != userID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "research %s not found", id)
	}
	return res, nil
}

func (f *fakeResearch) Subscribe(ctx context.Context, userID, id string) ([]research.Stage, <-chan research.Stage, func(), error) {
	if _, err := f.Get(ctx, userID, id); err != nil {
		return nil, nil, nil, err
	}
	c := make(chan research.Stage)
	close(c)
	return f.stages[id], c, func() {}, nil
}

func (f *fakeResearch) List(_ context.Context, userID string) ([]research.Request, error) {
	var out []research.Request
	for _, r := range f.results {
		if r.Request.UserID == userID {
			out = append(out, *r.Request)
		}
	}
	return out, nil
}

// fakeRooms answers Rooms alone; any other call panics.
type fakeRooms struct {
	room.Service
	rooms []room.Room
}

func (f fakeRooms) Rooms(context.Context, string) ([]room.Room, error) { return f.rooms, nil }

// userAuth is the user named by the X-User header.
type userAuth map[string]*room.User

func (a userAuth) User(r *http.Request) (*room.User, error) {
	if u := a[r.Header.Get("X-User")]; u != nil {
		return u, nil
	}
	return nil, quarry.Errorf(quarry.ECodeUnauthorized, "who are you?")
}

// kestrelResult is a small completed research: a restated revenue
// between two filings, a name shared by two companies, a plan with a
// follow-up, and a report citing one fact that is not there.
func kestrelResult() *research.Result {
	at := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	req := &research.Request{ID: "res-1", Query: "What was Kestrel Dynamics' revenue for fiscal 2024?", Depth: research.DepthQuick,
		UserID: "u-alice", CreatedAt: at, Status: research.StatusCompleted}
	facts := []research.Fact{
		{ID: "f1", Text: "Revenue for fiscal 2024 is restated to $46.9 million.", SourceURL: "room://r1/d2#page=1", SourceID: "s2",
			SourceTitle: "Form 10-K/A", Confidence: 0.95, Section: "Financials", Verified: true, DiscrepancyID: "d1", SubQuestionID: "sq2",
			Value: "$46.9 million", Passage: "Revenue for fiscal 2024 is restated to $46.9 million from the $48.2 million previously reported."},
		{ID: "f2", Text: "Revenue for fiscal 2024 was $48.2 million.", SourceURL: "room://r1/d1#page=2", SourceID: "s1",
			SourceTitle: "Form 10-K", Confidence: 0.9, Section: "Financials", DiscrepancyID: "d1", SubQuestionID: "sq2", Value: "$48.2 million",
			Passage: "Revenue for fiscal 2024 was $48.2 million."},
		{ID: "f3", Text: "Kestrel Dynamics Ltd employed 85 people.", SourceURL: "https://coventry.example/post", SourceID: "s3",
			SourceTitle: "Coventry Evening Post", Confidence: 0.7, Section: "Operations", SubQuestionID: "sq1", Passage: "Kestrel Dynamics Ltd employed 85 people."},
		{ID: "f4", Text: "Kestrel Dynamics Inc employed 1,240 people.", SourceURL: "room://r1/d1#page=4", SourceID: "s1",
			SourceTitle: "Form 10-K", Confidence: 0.9, Section: "Operations", SubQuestionID: "sq1", Passage: "Kestrel Dynamics Inc employed 1,240 people."},
	}
	return &research.Result{
		Request: req,
		Plan: &research.Plan{ID: "p1", RequestID: req.ID, SubQuestions: []research.SubQuestion{
			{ID: "sq2", Text: "What do the sources report about revenue?", Priority: 2, Status: research.SubCompleted, Aspect: "Financials"},
			{ID: "sq1", Text: "What are the key findings about Kestrel?", Priority: 1, Status: research.SubCompleted, Aspect: "Key findings"},
			{ID: "sq3", Text: "Which sources confirm or correct the revenue?", Priority: 3, ParentID: "sq2", Depth: 1, Status: research.SubCompleted, Aspect: "Financials"},
		}},
		Sources: []research.SearchResult{
			{ID: "s1", URL: "room://r1/d1", Title: "Form 10-K", Published: time.Date(2025, 2, 14, 0, 0, 0, 0, time.UTC), CredibilityScore: 0.9},
			{ID: "s2", URL: "room://r1/d2", Title: "Form 10-K/A", Published: time.Date(2025, 4, 22, 0, 0, 0, 0, time.UTC), CredibilityScore: 0.9},
		},
		Facts: facts,
		Discrepancies: []research.Discrepancy{{ID: "d1", Topic: "Kestrel Dynamics Inc revenue (2024)", FactIDs: []string{"f1", "f2"},
			Sides:    []research.Side{{Value: "$46.9 million", FactIDs: []string{"f1"}}, {Value: "$48.2 million", FactIDs: []string{"f2"}}},
			Strategy: research.StrategyRecency, Preferred: "$46.9 million", ResolutionConfidence: 0.9,
			Resolution: "Prefer $46.9 million: the 10-K/A corrects the earlier figure."}},
		Ambiguities: []research.Ambiguity{{Name: "Kestrel Dynamics", Attribute: "employees (2024)", Entities: []research.EntityAnswers{
			{Entity: "Kestrel Dynamics Inc", Value: "1,240 people", FactIDs: []string{"f4"}},
			{Entity: "Kestrel Dynamics Ltd", Value: "85 people", FactIDs: []string{"f3"}}}}},
		Answer: "Kestrel Dynamics Inc: revenue was $46.9 million, as restated.",
		Report: &research.Report{ID: "rep", RequestID: req.ID, ExecutiveSummary: "Revenue was restated to $46.9 million [cite:f1] from $48.2 million [cite:f2]. A stray marker [cite:ghost] cites nothing.",
			Sections:       []research.Section{{Title: "Financials", Content: "The 10-K/A restates revenue [cite:f1].\n\nThe 10-K said otherwise [cite:f2].", Order: 1}},
			TotalWordCount: 30, TotalSources: 3, QualityScore: 0.42, Limitations: []string{"Financials rests on 20 words from 2 sources."}},
	}
}

func newResearchTestServer(t *testing.T) (*Server, *fakeResearch) {
	t.Helper()
	res := kestrelResult()
	fr := &fakeResearch{results: map[string]*research.Result{res.Request.ID: res},
		stages: map[string][]research.Stage{res.Request.ID: {{Status: research.StatusCompleted, Message: "completed in 0.1s"}}}}
	auth := userAuth{"alice": {ID: "u-alice", Name: "alice"}, "bob": {ID: "u-bob", Name: "bob"}}
	rooms := fakeRooms{rooms: []room.Room{{ID: "r1", Name: "kestrel", Documents: 8}}}
	return New(newFake(t), Options{Research: fr, Rooms: rooms, Auth: auth}), fr
}

func getAs(t *testing.T, h http.Handler, user, method, target string, body io.Reader) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	req.Header.Set("X-User", user)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestResearchPageRendering: citations link to the facts they name and
// a marker naming no fact stays text; room sources open their page
// view; the discrepancy shows both sides, the preferred one and why; the
// shared name is said not to be a conflict; the plan nests the
// follow-up.
func TestResearchPageRendering(t *testing.T) {
	s, _ := newResearchTestServer(t)
	rec := getAs(t, s, "alice", http.MethodGet, "/research/res-1", nil)
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /research/res-1: %d\n%s", rec.Code, body)
	}
	for _, want := range []string{
		`<h1 class="research-question">What was Kestrel Dynamics&#39; revenue for fiscal 2024?</h1>`,
		`<a class="cite-ref" href="#fact-f1" data-fact="f1" data-n="1">[1]<span class="visually-hidden"> (citation: Form 10-K/A)</span></a>`,
		`<a class="cite-ref" href="#fact-f2" data-fact="f2" data-n="2">[2]`,
		`A stray marker [cite:ghost] cites nothing.`,
		`<p>The 10-K/A restates revenue <a class="cite-ref" href="#fact-f1"`,
		`<p>The 10-K said otherwise <a class="cite-ref" href="#fact-f2"`,
		`<tr id="fact-f1" class="fact-row" tabindex="-1">`,
		`<template id="cite-f1">`,
		`Revenue for fiscal 2024 is restated to $46.9 million from the $48.2 million previously reported.`,
		`<a class="source-link" href="/rooms/r1/documents/d2/pages/1">Form 10-K/A, page 1</a> <span class="muted">(2025-04-22)</span>`,
		`<a class="source-link" href="https://coventry.example/post" rel="noopener noreferrer">Coventry Evening Post</a>`,
		`<article class="discrepancy" id="disc-d1"`,
		`<strong>$46.9 million</strong> <span class="badge badge-completed">Preferred</span>`,
		`<strong>$48.2 million</strong></p>`,
		`Prefer $46.9 million: the 10-K/A corrects the earlier figure.`,
		`Recency: The newer source corrects`,
		`<dd>0.90</dd>`,
		`Not a conflict: 2 different entities share the name.`,
		`<strong>Kestrel Dynamics Ltd</strong>: 85 people`,
		`<li>Financials rests on 20 words from 2 sources.</li>`,
		`<li class="stage stage-done" id="stage-end" data-stage="completed">`,
		`<li>completed in 0.1s</li>`,
		`data-running="false"`,
		`<dialog id="citation-dialog"`,
		`<a href="#disc-d1">D1</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(body, `href="#fact-ghost"`) || strings.Contains(body, `data-fact="ghost"`) {
		t.Error("the unknown fact ghost became a link")
	}
	// The plan: key findings (priority 1), then financials with its
	// follow-up nested inside it.
	i1, i2, i3 := strings.Index(body, `id="sq-sq1"`), strings.Index(body, `id="sq-sq2"`), strings.Index(body, `id="sq-sq3"`)
	nested := strings.Index(body[i2:], `<ol class="plan-tree"><li class="plan-node" id="sq-sq3">`)
	if i1 < 0 || i1 > i2 || i2 > i3 || nested < 0 {
		t.Errorf("plan order sq1 %d, sq2 %d, sq3 %d, follow-up nested at %d; want sq1 < sq2 < sq3 nested in sq2", i1, i2, i3, nested)
	}
	if strings.Contains(body, `http-equiv="refresh"`) {
		t.Error("a completed research's page refreshes itself")
	}
}

// TestResearchPageRunning: a running research refreshes without
// JavaScript, marks its stage current and has no report yet.
func TestResearchPageRunning(t *testing.T) {
	s, fr := newResearchTestServer(t)
	req := &research.Request{ID: "res-2", Query: "What changed at Kestrel Dynamics in 2024?", Depth: research.DepthStandard,
		UserID: "u-alice", CreatedAt: time.Now(), Status: research.StatusExecuting}
	fr.results[req.ID] = &research.Result{Request: req}
	fr.stages[req.ID] = []research.Stage{{Status: research.StatusPlanning, Message: "planning standard research"},
		{Status: research.StatusPlanning, Message: "7 sub-questions"}, {Status: research.StatusExecuting, Message: "reading"}}
	body := getAs(t, s, "alice", http.MethodGet, "/research/res-2", nil).Body.String()
	for _, want := range []string{
		`data-running="true" data-events-url="/api/research/res-2/events"`,
		`<ol id="stages" class="stages" data-seen="3">`,
		`<li class="stage stage-done" id="stage-planning" data-stage="planning">`,
		`<li class="stage stage-current" id="stage-executing" data-stage="executing">`,
		`<li class="stage stage-pending" id="stage-end" data-stage="completed">`,
		`<meta http-equiv="refresh" content="3">`,
		`<script src="/static/research.js?v=`,
		`role="status"`,
		`The report appears here when the research has finished.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the running page lacks %q:\n%.3000s", want, body)
		}
	}
	if strings.Contains(body, `<dialog`) {
		t.Error("a research without facts has a citation dialog")
	}
}

// TestResearchPagesBadInput: another user's research and an unknown id
// are the not-found page; a bad form keeps what was typed and says what
// is wrong at the field.
func TestResearchPagesBadInput(t *testing.T) {
	s, fr := newResearchTestServer(t)
	for _, tt := range []struct{ user, path string }{{"bob", "/research/res-1"}, {"alice", "/research/nope"}} {
		rec := getAs(t, s, tt.user, http.MethodGet, tt.path, nil)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Not found") {
			t.Errorf("%s GET %s: %d; want the not-found page", tt.user, tt.path, rec.Code)
		}
	}
	if rec := getAs(t, s, "", http.MethodGet, "/research", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("nobody GET /research: %d; want 401", rec.Code)
	}
	if body := getAs(t, s, "bob", http.MethodGet, "/research", nil).Body.String(); strings.Contains(body, "res-1") {
		t.Error("bob's list shows alice's research")
	}
	list := getAs(t, s, "alice", http.MethodGet, "/research?room=r1", nil).Body.String()
	for _, want := range []string{`<option value="r1" selected>kestrel (8 documents)</option>`, `href="/research/res-1"`, `id="depth-standard" name="depth" value="standard" checked`} {
		if !strings.Contains(list, want) {
			t.Errorf("the list page lacks %q", want)
		}
	}

	form := func(q, depth, room string) *httptest.ResponseRecorder {
		v := "question=" + q + "&depth=" + depth + "&room=" + room
		return getAs(t, s, "alice", http.MethodPost, "/research", strings.NewReader(v))
	}
	for _, tt := range []struct {
		name, q, depth, room string
		status               int
		want                 []string
	}{
		{"short", "why%3F", "quick", "r1", http.StatusUnprocessableEntity,
			[]string{`id="research-question-error"`, `aria-invalid="true">why?</textarea>`, `class="error-summary"`}},
		{"depth", "What+was+revenue+in+2024%3F", "deep", "r1", http.StatusUnprocessableEntity,
			[]string{`id="research-depth-error"`, `unknown depth`, `What was revenue in 2024?</textarea>`}},
		{"no room", "What+was+revenue+in+2024%3F", "quick", "", http.StatusUnprocessableEntity, []string{`id="research-room-error"`}},
		{"other room", "What+was+revenue+in+2024%3F", "quick", "r9", http.StatusNotFound, []string{`id="research-room-error"`, `room r9 not found`}},
	} {
		rec := form(tt.q, tt.depth, tt.room)
		if rec.Code != tt.status {
			t.Errorf("%s: %d; want %d", tt.name, rec.Code, tt.status)
		}
		for _, w := range tt.want {
			if !strings.Contains(rec.Body.String(), w) {
				t.Errorf("%s: the page lacks %q", tt.name, w)
			}
		}
	}
	if len(fr.started) != 2 {
		t.Errorf("Start got %q; want only the short question and the other room (the rest stop at the form)", fr.started)
	}
	rec := form("What+was+revenue+in+2024%3F", "quick", "r1")
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/research/") {
		t.Fatalf("a good form: %d to %q; want 303 to the research", rec.Code, loc)
	}
}

// fakeWebResearch is fakeResearch that can search the web with the
// provider source names ("" for none).
type fakeWebResearch struct {
	*fakeResearch
	source     string
	webStarted []string // rooms StartWeb received
}

func (f *fakeWebResearch) WebSource() string { return f.source }

func (f *fakeWebResearch) StartWeb(_ context.Context, userID, question, depth, roomName string) (*research.Request, error) {
	f.webStarted = append(f.webStarted, roomName)
	if roomName != "" && roomName != "r1" {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "room %s not found", roomName)
	}
	return f.add(userID, question, depth)
}

// TestResearchFormWeb: the form offers the web only when the service
// can search it and has a provider, naming the provider; checked, it
// starts the research with StartWeb, over the room or alone; an error
// keeps the box checked; a post asking for the web where there is none
// is refused at the form.
func TestResearchFormWeb(t *testing.T) {
	auth := userAuth{"alice": {ID: "u-alice", Name: "alice"}}
	rooms := fakeRooms{rooms: []room.Room{{ID: "r1", Name: "kestrel", Documents: 8}}}
	const provider = "the web (SearxNG at http://search.test)"
	serve := func(svc research.Service) *Server {
		return New(newFake(t), Options{Research: svc, Rooms: rooms, Auth: auth})
	}
	post := func(s *Server, v url.Values) *httptest.ResponseRecorder {
		return getAs(t, s, "alice", http.MethodPost, "/research", strings.NewReader(v.Encode()))
	}
	const question = "What was revenue in 2024?"

	plain := &fakeResearch{results: map[string]*research.Result{}}
	noProvider := &fakeWebResearch{fakeResearch: &fakeResearch{results: map[string]*research.Result{}}}
	for name, svc := range map[string]research.Service{"a service without the web": plain, "a service without a provider": noProvider} {
		s := serve(svc)
		body := getAs(t, s, "alice", http.MethodGet, "/research", nil).Body.String()
		if strings.Contains(body, `id="research-web"`) || strings.Contains(body, "Also search") || strings.Contains(body, `<option value=""`) {
			t.Errorf("%s: the form offers the web", name)
		}
		if !strings.Contains(body, `<span class="required">required</span>`) {
			t.Errorf("%s: the room is not required", name)
		}
		rec := post(s, url.Values{"question": {question}, "depth": {"quick"}, "room": {"r1"}, "web": {"1"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `id="research-web-error"`) ||
			!strings.Contains(rec.Body.String(), `href="#research-web"`) || !strings.Contains(rec.Body.String(), question+"</textarea>") {
			t.Errorf("%s: a post asking for the web: %d; want 422 with the error at the web and the question kept\n%s", name, rec.Code, rec.Body.String())
		}
	}
	if len(plain.started) != 0 || len(noProvider.started) != 0 || len(noProvider.webStarted) != 0 {
		t.Errorf("a post asking for the web of a server without one started a research: %q %q %q", plain.started, noProvider.started, noProvider.webStarted)
	}

	fw := &fakeWebResearch{fakeResearch: &fakeResearch{results: map[string]*research.Result{}}, source: provider}
	s := serve(fw)
	body := getAs(t, s, "alice", http.MethodGet, "/research", nil).Body.String()
	for _, want := range []string{
		`<input type="checkbox" id="research-web" name="web" value="1"`,
		`<label for="research-web">Also search the web (SearxNG at http://search.test)</label>`,
		`aria-describedby="research-web-hint"`,
		`<option value="">None: the web alone</option>`,
		`<span class="optional">(optional when searching the web)</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form with a provider lacks %q", want)
		}
	}
	if strings.Contains(body, `id="research-web" name="web" value="1" checked`) {
		t.Error("the web is checked before the user checks it")
	}

	// Without the box: Start, and a room is needed.
	if rec := post(s, url.Values{"question": {question}, "depth": {"quick"}, "room": {"r1"}}); rec.Code != http.StatusSeeOther || len(fw.started) != 1 || len(fw.webStarted) != 0 {
		t.Errorf("the form without the web: %d, Start %q, StartWeb %q; want 303 from Start", rec.Code, fw.started, fw.webStarted)
	}
	rec := post(s, url.Values{"question": {question}, "depth": {"quick"}, "room": {""}})
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "or search the web") {
		t.Errorf("neither a room nor the web: %d; want 422 saying to choose a room or the web", rec.Code)
	}

	// With it: StartWeb, over the room or alone.
	for _, roomName := range []string{"r1", ""} {
		rec := post(s, url.Values{"question": {question}, "depth": {"quick"}, "room": {roomName}, "web": {"1"}})
		if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/research/") {
			t.Errorf("the web with room %q: %d to %q; want 303 to the research", roomName, rec.Code, loc)
		}
	}
	if want := []string{"r1", ""}; !reflect.DeepEqual(fw.webStarted, want) || len(fw.started) != 1 {
		t.Errorf("StartWeb got rooms %q, Start %q; want %q and nothing more", fw.webStarted, fw.started, want)
	}

	// An error keeps the box checked and the web alone chosen.
	rec = post(s, url.Values{"question": {"why?"}, "depth": {"quick"}, "room": {""}, "web": {"1"}})
	for _, want := range []string{`id="research-question-error"`, `id="research-web" name="web" value="1" checked`, `<option value="" selected>None: the web alone</option>`} {
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("a short question with the web: %d; the page lacks %q", rec.Code, want)
		}
	}
	rec = post(s, url.Values{"question": {question}, "depth": {"quick"}, "room": {"r9"}, "web": {"1"}})
	for _, want := range []string{`id="research-room-error"`, `room r9 not found`, `id="research-web" name="web" value="1" checked`} {
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("another room with the web: %d; the page lacks %q", rec.Code, want)
		}
	}
}

package web

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/research"
)

// researchView is a research's page: its stages, and once it has them,
// its plan as a tree, the short answer, the report with its citations
// linked to the facts, the discrepancies with both sides, the names
// shared by different entities, and every fact with its source.
type researchView struct {
	pageBase
	ID, Query   string
	Depth       string
	Status      research.Status
	StatusLabel string
	Created     time.Time
	Error       string
	Running     bool
	EventsURL   string
	// Stages is the timeline; Seen is how many stage events it holds, so
	// that research.js skips them when the stream replays them.
	Stages []stageView
	Seen   int

	Plan          []*planNode
	PlanSize      int
	Answer        string
	Summary       []citedParagraph
	Sections      []sectionView
	Facts         []*factRow
	Discrepancies []*discrepancyView
	Ambiguities   []ambiguityView
	Limitations   []string
	HasReport     bool
	Words         int
	Sources       int
	Quality       float64
}

// stageView is one step of the timeline: planning, executing,
// verifying, synthesizing, then completed or failed.
type stageView struct {
	Status   research.Status
	Label    string
	State    string // done, current, pending or failed
	Messages []string
}

// StateLabel is the stage's state in words, so that it never rests on
// colour or a mark alone.
func (s stageView) StateLabel() string {
	switch s.State {
	case "done":
		return "done"
	case "current":
		return "in progress"
	case "failed":
		return "failed"
	}
	return "not started"
}

// researchStages are the steps every research goes through before it
// ends, in order.
var researchStages = []research.Status{research.StatusPlanning, research.StatusExecuting, research.StatusVerifying, research.StatusSynthesizing}

// stageLabels name the steps of the timeline.
var stageLabels = map[research.Status]string{
	research.StatusPlanning:     "Planning",
	research.StatusExecuting:    "Reading sources",
	research.StatusVerifying:    "Verifying facts",
	research.StatusSynthesizing: "Writing the report",
	research.StatusCompleted:    "Completed",
	research.StatusFailed:       "Failed",
}

// newTimeline lays out the stages of a research now in status st from
// the stage events so far (past). A research read back from the store
// has only its final event; the steps before it are done all the same.
func newTimeline(st research.Status, past []research.Stage) []stageView {
	out := make([]stageView, 0, len(researchStages)+1)
	at := map[research.Status]int{}
	for i, s := range researchStages {
		at[s] = i
		out = append(out, stageView{Status: s, Label: stageLabels[s], State: "pending"})
	}
	end := stageView{Status: research.StatusCompleted, Label: stageLabels[research.StatusCompleted], State: "pending"}
	last := -1 // the last step an event was heard from
	for _, e := range past {
		if i, ok := at[e.Status]; ok {
			out[i].Messages = append(out[i].Messages, e.Message)
			last = max(last, i)
		} else if e.Status == research.StatusCompleted || e.Status == research.StatusFailed {
			end.Messages = append(end.Messages, e.Message)
		}
	}
	switch st {
	case research.StatusCompleted:
		for i := range out {
			out[i].State = "done"
		}
		end.State = "done"
	case research.StatusFailed:
		end.Status, end.Label, end.State = research.StatusFailed, stageLabels[research.StatusFailed], "failed"
		for i := 0; i < last; i++ {
			out[i].State = "done"
		}
		if last >= 0 {
			out[last].State = "failed"
		}
	default:
		cur := at[st]
		for i := 0; i < cur; i++ {
			out[i].State = "done"
		}
		out[cur].State = "current"
	}
	return append(out, end)
}

// planNode is a sub-question with its follow-ups.
type planNode struct {
	research.SubQuestion
	Facts    int
	Children []*planNode
}

// StatusLabel is the sub-question's status in words with a mark.
func (n *planNode) StatusLabel() string {
	switch n.Status {
	case research.SubCompleted:
		return "✓ Answered"
	case research.SubSearching:
		return "◔ Searching"
	case research.SubFailed:
		return "✗ Failed"
	}
	return "○ Pending"
}

// Reading says how much the sub-question found.
func (n *planNode) Reading() string {
	r := len(n.SearchResults)
	return strconv.Itoa(r) + " " + plural(r, "source", "sources") + " read · " + strconv.Itoa(n.Facts) + " " + plural(n.Facts, "fact", "facts") + " extracted"
}

// StatusClass is the task-status class the sub-question's badge shares
// with the analyses' steps.
func (n *planNode) StatusClass() string {
	switch n.Status {
	case research.SubCompleted:
		return "succeeded"
	case research.SubSearching:
		return "running"
	case research.SubFailed:
		return "failed"
	}
	return "pending"
}

// planTree nests the sub-questions under their parents, each level by
// priority. A sub-question whose parent is missing is a root; the plan's
// rule against cycles is not relied on.
func planTree(sqs []research.SubQuestion, facts []research.Fact) []*planNode {
	perSQ := map[string]int{}
	for _, f := range facts {
		perSQ[f.SubQuestionID]++
	}
	nodes := map[string]*planNode{}
	for _, sq := range sqs {
		nodes[sq.ID] = &planNode{SubQuestion: sq, Facts: perSQ[sq.ID]}
	}
	var roots []*planNode
	for _, sq := range sqs {
		n := nodes[sq.ID]
		if p := nodes[sq.ParentID]; p != nil && sq.ParentID != sq.ID && !descends(nodes, sq.ParentID, sq.ID) {
			p.Children = append(p.Children, n)
			continue
		}
		roots = append(roots, n)
	}
	var order func([]*planNode)
	order = func(ns []*planNode) {
		slices.SortStableFunc(ns, func(a, b *planNode) int { return cmp.Compare(a.Priority, b.Priority) })
		for _, n := range ns {
			order(n.Children)
		}
	}
	order(roots)
	return roots
}

// descends reports whether id is among the ancestors of from.
func descends(nodes map[string]*planNode, from, id string) bool {
	seen := map[string]bool{}
	for cur := from; cur != "" && !seen[cur]; {
		if cur == id {
			return true
		}
		seen[cur] = true
		n := nodes[cur]
		if n == nil {
			return false
		}
		cur = n.ParentID
	}
	return false
}

// factRow is a fact as the page shows it: numbered, with its source's
// link and date, and the discrepancy it takes part in.
type factRow struct {
	research.Fact
	N int
	// SourceHref opens the source: a room document's page view, a web
	// page; "" for a local file. PageLabel says which page, if any.
	SourceHref, PageLabel string
	External              bool
	Published             time.Time
	Credibility           float64
	Discrepancy           *discrepancyView
}

// Quoted is the passage the fact was read from.
func (f *factRow) Quoted() string { return cmp.Or(f.Passage, f.Text) }

// ShowPassage is true when the passage says more than the fact's text.
func (f *factRow) ShowPassage() bool { return f.Passage != "" && f.Passage != f.Text }

// discrepancyView is a discrepancy with its sides' facts and why the
// preferred side was preferred.
type discrepancyView struct {
	research.Discrepancy
	N     int
	Sides []sideView
}

// sideView is one value of a discrepancy and the facts asserting it.
type sideView struct {
	Value     string
	Preferred bool
	Facts     []*factRow
}

// StrategyLabel names how the discrepancy was resolved.
func (d *discrepancyView) StrategyLabel() string {
	switch d.Strategy {
	case research.StrategyRecency:
		return "Recency"
	case research.StrategyCredibility:
		return "Credibility"
	case research.StrategyConsensus:
		return "Consensus"
	case research.StrategyUncertainty:
		return "Stated uncertainty"
	}
	return d.Strategy
}

// Why is the rule behind the strategy, in a sentence.
func (d *discrepancyView) Why() string {
	switch d.Strategy {
	case research.StrategyRecency:
		return "The newer source corrects or updates the older ones, so its figure is preferred."
	case research.StrategyCredibility:
		return "The sources differ in credibility (a filing against a blog, say), so the more credible one is preferred."
	case research.StrategyConsensus:
		return "More independent sources agree on one value than on the other."
	case research.StrategyUncertainty:
		return "Nothing decides between the sources, so the value stays uncertain and both are reported."
	}
	return ""
}

// ambiguityView is a name shared by different entities, each with its
// own answer.
type ambiguityView struct {
	Name, Attribute string
	Entities        []entityView
}

type entityView struct {
	Entity, Value string
	Facts         []*factRow
}

// sectionView is a report section with its paragraphs' citations linked.
type sectionView struct {
	Title      string
	Anchor     string
	Paragraphs []citedParagraph
}

// citedParagraph is a paragraph of the narrative in parts.
type citedParagraph []citePart

// citePart is a stretch of text, or a citation: linked when it names a
// fact of the research (Fact), left as its marker's text when not.
type citePart struct {
	Text string
	Fact *factRow
}

// citeMarker matches a [cite:fact-id] marker; the id is its first group
// (research.Markers' pattern).
var citeMarker = regexp.MustCompile(`\[cite:([^\]\s]+)\]`)

// citeParagraphs splits content into paragraphs at blank lines and each
// into text and citations. A marker naming no fact in facts stays plain
// text: it links nowhere rather than to a passage that does not exist.
func citeParagraphs(content string, facts map[string]*factRow) []citedParagraph {
	var out []citedParagraph
	for _, para := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		var parts citedParagraph
		text := func(s string) {
			if s == "" {
				return
			}
			if n := len(parts); n > 0 && parts[n-1].Fact == nil {
				parts[n-1].Text += s
				return
			}
			parts = append(parts, citePart{Text: s})
		}
		last := 0
		for _, m := range citeMarker.FindAllStringSubmatchIndex(para, -1) {
			text(para[last:m[0]])
			if f := facts[para[m[2]:m[3]]]; f != nil {
				parts = append(parts, citePart{Fact: f})
			} else {
				text(para[m[0]:m[1]])
			}
			last = m[1]
		}
		text(para[last:])
		out = append(out, parts)
	}
	return out
}

// sourceLink is where a source opens: a room document's page view for
// room://room/document#page=N (when this server has the rooms' pages),
// the address itself for a web page, nothing for a local file.
func sourceLink(raw string, roomPages bool) (href, pageLabel string, external bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	frag, _ := url.ParseQuery(u.Fragment)
	page := frag.Get("page")
	if n, err := strconv.Atoi(page); err != nil || n < 1 {
		page = ""
	}
	if page != "" {
		pageLabel = "page " + page
	}
	switch u.Scheme {
	case "room":
		doc := strings.Trim(u.Path, "/")
		if !roomPages || u.Host == "" || doc == "" || strings.Contains(doc, "/") {
			return "", pageLabel, false
		}
		return roomURL(u.Host) + "/documents/" + url.PathEscape(doc) + "/pages/" + cmp.Or(page, "1"), pageLabel, false
	case "http", "https":
		return raw, pageLabel, true
	}
	return "", pageLabel, false
}

// newResearchView builds a research's page from its result and the stage
// events so far; roomPages says whether room documents' pages can be
// linked to.
func newResearchView(res *research.Result, past []research.Stage, roomPages bool) researchView {
	req := res.Request
	v := researchView{ID: req.ID, Query: req.Query, Depth: depthLabel(req.Depth), Status: req.Status, StatusLabel: researchStatusLabel(req.Status),
		Created: req.CreatedAt, Error: req.Error, Running: req.Status != research.StatusCompleted && req.Status != research.StatusFailed,
		Stages: newTimeline(req.Status, past), Seen: len(past), Answer: res.Answer}
	v.Title = "Research · " + clip(req.Query, 60)

	sources := map[string]research.SearchResult{}
	for _, s := range res.Sources {
		sources[s.ID] = s
	}
	byID := map[string]*factRow{}
	for i, f := range res.Facts {
		row := &factRow{Fact: f, N: i + 1}
		row.SourceHref, row.PageLabel, row.External = sourceLink(f.SourceURL, roomPages)
		if s, ok := sources[f.SourceID]; ok {
			row.Published, row.Credibility = s.Published, s.CredibilityScore
		}
		v.Facts = append(v.Facts, row)
		byID[f.ID] = row
	}
	facts := func(ids []string) []*factRow {
		var out []*factRow
		for _, id := range ids {
			if f := byID[id]; f != nil {
				out = append(out, f)
			}
		}
		return out
	}
	for i, d := range res.Discrepancies {
		dv := &discrepancyView{Discrepancy: d, N: i + 1}
		for _, s := range d.Sides {
			dv.Sides = append(dv.Sides, sideView{Value: s.Value, Preferred: d.Preferred != "" && s.Value == d.Preferred, Facts: facts(s.FactIDs)})
		}
		for _, f := range facts(d.FactIDs) {
			f.Discrepancy = dv
		}
		v.Discrepancies = append(v.Discrepancies, dv)
	}
	for _, a := range res.Ambiguities {
		av := ambiguityView{Name: a.Name, Attribute: a.Attribute}
		for _, e := range a.Entities {
			av.Entities = append(av.Entities, entityView{Entity: e.Entity, Value: e.Value, Facts: facts(e.FactIDs)})
		}
		v.Ambiguities = append(v.Ambiguities, av)
	}
	if res.Plan != nil {
		v.Plan, v.PlanSize = planTree(res.Plan.SubQuestions, res.Facts), len(res.Plan.SubQuestions)
	}
	if rep := res.Report; rep != nil {
		v.HasReport, v.Words, v.Sources, v.Quality, v.Limitations = true, rep.TotalWordCount, rep.TotalSources, rep.QualityScore, rep.Limitations
		v.Summary = citeParagraphs(rep.ExecutiveSummary, byID)
		for i, s := range rep.Sections {
			v.Sections = append(v.Sections, sectionView{Title: s.Title, Anchor: "section-" + strconv.Itoa(i+1), Paragraphs: citeParagraphs(s.Content, byID)})
		}
	}
	return v
}

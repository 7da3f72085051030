package investigate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

// hypModel is a hypothesis the model proposed that no data-driven one
// covers; it is judged by the measured segments of its dimensions.
const hypModel = "model"

// schemaNotes is the model's reading of the data model.
type schemaNotes struct {
	Columns []struct {
		Table   string `json:"table"`
		Column  string `json:"column"`
		Meaning string `json:"meaning"`
	} `json:"columns"`
	Relationships         []string `json:"relationships"`
	RecommendedDimensions []string `json:"recommended_dimensions"`
}

// The output schemas list every property as required and forbid others,
// which is what strict structured output (OpenAI) demands and what every
// provider accepts.
const schemaNotesSchema = `{"type":"object","additionalProperties":false,"properties":{
"columns":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"table":{"type":"string"},"column":{"type":"string"},"meaning":{"type":"string"}},"required":["table","column","meaning"]}},
"relationships":{"type":"array","items":{"type":"string"}},
"recommended_dimensions":{"type":"array","items":{"type":"string"}}},
"required":["columns","relationships","recommended_dimensions"]}`

// readSchema asks the model what the columns mean and which candidate
// dimensions matter most, and puts those first (after the ones the user
// named). Unknown names are ignored: the model orders, it cannot invent.
func (r *run) readSchema(ctx context.Context, dims []*Dim) ([]*Dim, error) {
	if r.ai == nil {
		return dims, nil
	}
	type table struct {
		Name, File, Description string
		Rows                    int64
		Columns                 []quarry.Column
	}
	data := struct {
		MetricSQL     string
		Tables        []table
		Relationships []string
		Dimensions    []string
	}{MetricSQL: r.in.Context.MetricSQL}
	names := make([]string, 0, len(r.tables))
	for n := range r.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := r.tables[n]
		t := table{Name: n, File: f.OriginalName, Description: f.Description, Rows: f.RowCount}
		if f.Schema != nil {
			t.Columns = f.Schema.Columns
		}
		data.Tables = append(data.Tables, t)
	}
	for _, rel := range r.model.Relationships {
		data.Relationships = append(data.Relationships, fmt.Sprintf("%s.%s -> %s.%s (%s, confidence %.2f)", rel.FromTable, rel.FromColumn, rel.ToTable, rel.ToColumn, rel.RelationshipType, rel.Confidence))
	}
	for _, d := range dims {
		data.Dimensions = append(data.Dimensions, d.Name)
	}
	var notes schemaNotes
	req := &llm.Request{Purpose: "schema", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("schema", data)}},
		Output: schemaOf("schema_notes", schemaNotesSchema)}
	if ok, err := r.askJSON(ctx, req, 0, &notes); !ok {
		return dims, err
	}
	r.notes = &notes
	if err := r.artifact("analysis/schema_notes.json", notes); err != nil {
		return dims, err
	}
	byName := map[string]*Dim{}
	for _, d := range dims {
		byName[strings.ToLower(d.Name)] = d
	}
	var first []*Dim
	taken := map[*Dim]bool{}
	for _, name := range notes.RecommendedDimensions {
		if d := byName[strings.ToLower(strings.TrimSpace(name))]; d != nil && !taken[d] {
			first = append(first, d)
			taken[d] = true
		}
	}
	for _, d := range dims {
		if !taken[d] {
			first = append(first, d)
		}
	}
	return first, nil
}

// modelHypothesis is one hypothesis as the model writes it.
type modelHypothesis struct {
	Title           string   `json:"title"`
	CausalStory     string   `json:"causal_story"`
	Kind            string   `json:"kind"`
	Dimensions      []string `json:"dimensions"`
	ExpectedPattern string   `json:"expected_pattern"`
	Priority        int      `json:"priority"`
}

const hypothesesSchema = `{"type":"object","additionalProperties":false,"properties":{"hypotheses":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{
"title":{"type":"string"},"causal_story":{"type":"string"},
"kind":{"type":"string","enum":["data_quality","calendar","mix","segment","uniform","other"]},
"dimensions":{"type":"array","items":{"type":"string"}},
"expected_pattern":{"type":"string"},"priority":{"type":"integer"}},
"required":["title","causal_story","kind","dimensions","expected_pattern","priority"]}}},"required":["hypotheses"]}`

// proposeHypotheses asks the model for 5-7 hypotheses from the business
// context and merges them with the data-driven ones: a model hypothesis
// that a data-driven one already tests lends it its title and story; one
// that names dimensions no data-driven one covers joins the list (taking
// the place of the last per-dimension hypotheses when the list is full,
// since the segment search measures every dimension anyway); one that no
// column can test is dropped and the audit log says so. Every hypothesis
// keeps a test Quarry can measure.
func (r *run) proposeHypotheses(ctx context.Context) error {
	if r.ai == nil {
		return nil
	}
	data := struct {
		MetricSQL, Periods, Change, BusinessContext, Prompt string
		Dimensions, Notes                                   []string
		Offline                                             []*investigation.Hypothesis
	}{
		MetricSQL: r.in.Context.MetricSQL, Periods: r.in.Context.Describe(), Change: r.changeSentence(),
		BusinessContext: r.in.Context.BusinessContext, Prompt: r.in.Context.InvestigationPrompt,
		Dimensions: r.model.RecommendedDimensions, Notes: r.noteLines(), Offline: r.hyps,
	}
	var out struct {
		Hypotheses []modelHypothesis `json:"hypotheses"`
	}
	req := &llm.Request{Purpose: "hypotheses", System: r.system(), Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt("hypotheses", data)}},
		Output: schemaOf("hypotheses", hypothesesSchema)}
	if ok, err := r.askJSON(ctx, req, 0, &out); !ok {
		return err
	}
	var dropped []string
	for _, mh := range out.Hypotheses {
		if why := r.merge(mh); why != "" {
			dropped = append(dropped, fmt.Sprintf("%q: %s", truncate(mh.Title, 80), why))
		}
	}
	if len(dropped) > 0 {
		if err := r.policy("hypotheses", "dropped", map[string]any{"hypotheses": dropped}); err != nil {
			return err
		}
	}
	for i, h := range r.hyps {
		h.HypothesisID = fmt.Sprintf("hyp_%03d", i+1)
		h.Priority = min(i+1, 10)
		if err := r.saveHypothesis(h); err != nil {
			return err
		}
	}
	r.progress(investigation.Event{Step: "hypotheses", Message: fmt.Sprintf("the model proposed %d hypotheses; %d kept after merging with the data-driven ones", len(out.Hypotheses), len(out.Hypotheses)-len(dropped))})
	return nil
}

// merge adds one model hypothesis to r.hyps; it returns why it was dropped,
// or "".
func (r *run) merge(mh modelHypothesis) string {
	title, story := strings.TrimSpace(mh.Title), strings.TrimSpace(mh.CausalStory)
	if title == "" || story == "" {
		return "no title or story"
	}
	var dims []string
	seen := map[string]bool{}
	for _, name := range mh.Dimensions {
		for _, d := range r.dims {
			if strings.EqualFold(d.Name, strings.TrimSpace(name)) && !seen[d.Name] {
				dims = append(dims, d.Name)
				seen[d.Name] = true
			}
		}
	}
	enrich := func(h *investigation.Hypothesis) string {
		if h.CausalStory == "" || !strings.Contains(h.CausalStory, "(model)") {
			h.Title = truncate(title, quarry.MaxHypothesisTitleLen)
			h.CausalStory = truncate(story+" (model)", quarry.MaxCausalStoryLen)
		}
		return ""
	}
	kinds := map[string]string{"data_quality": investigation.KindDataQuality, "calendar": investigation.KindCalendar, "mix": investigation.KindMix, "uniform": hypUniform}
	if k, ok := kinds[mh.Kind]; ok {
		for _, h := range r.hyps {
			if h.Kind == k {
				return enrich(h)
			}
		}
	}
	if len(dims) == 0 {
		return "no uploaded column can test it"
	}
	for _, h := range r.hyps {
		if (h.Kind == hypDimension || h.Kind == hypModel) && sameSet(h.Dimensions, dims) {
			return enrich(h)
		}
	}
	if len(r.hyps) >= quarry.MaxHypotheses {
		last := -1
		for i, h := range r.hyps {
			if h.Kind == hypDimension {
				last = i
			}
		}
		if last < 0 {
			return "the list is full"
		}
		r.hyps = append(r.hyps[:last], r.hyps[last+1:]...)
	}
	h := &investigation.Hypothesis{
		SessionID: r.in.SessionID, Title: truncate(title, quarry.MaxHypothesisTitleLen),
		CausalStory: truncate(story+" (model)", quarry.MaxCausalStoryLen), ExpectedPattern: mh.ExpectedPattern,
		Dimensions: dims, Kind: hypModel, Status: investigation.HypPending, CreatedAt: r.now(),
	}
	// Before the uniform shift, which stays last.
	r.hyps = append(r.hyps[:len(r.hyps)-1], h, r.hyps[len(r.hyps)-1])
	return ""
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]bool{}
	for _, s := range a {
		m[strings.ToLower(s)] = true
	}
	for _, s := range b {
		if !m[strings.ToLower(s)] {
			return false
		}
	}
	return true
}

// noteLines are the model's column meanings, one line each.
func (r *run) noteLines() []string {
	if r.notes == nil {
		return nil
	}
	var out []string
	for _, c := range r.notes.Columns {
		out = append(out, fmt.Sprintf("%s.%s: %s", c.Table, c.Column, truncate(c.Meaning, 200)))
	}
	return out
}

// system is the system prompt every model step shares.
func (r *run) system() string {
	return prompt("system", struct{ MaxRows int }{investigation.ModelMaxRows})
}

// changeSentence states the overall change with its numbers.
func (r *run) changeSentence() string {
	c := r.overall.change
	return fmt.Sprintf("from %s to %s (%s, %+.1f%%), %s", r.fmtValue(c.BaselineValue), r.fmtValue(c.ComparisonValue), r.fmtChange(c.Change), c.ChangePct, stat("p", c.PValue))
}

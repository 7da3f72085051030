package research

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

const planSystem = `You plan research over a collection of documents: you break a question into sub-questions that searches of the documents can answer.
Rules:
- The question itself is already sub-question 1, with priority 1; write the others.
- Each sub-question is one question of 10 to 200 characters that names what it asks about, so that it can be searched on its own.
- Give each a unique priority from 2 to 10, the most important first, and the section of the briefing its answers belong in.
- A sub-question may follow up another: follows_up is the other's priority and depth is one more than its depth. Otherwise follows_up and depth are 0.
- Never ask the same thing twice.`

// modelPlan is the model's reply to a planning request.
type modelPlan struct {
	SubQuestions []struct {
		Text      string `json:"text"`
		Priority  int    `json:"priority"`
		Section   string `json:"section"`
		FollowsUp int    `json:"follows_up"`
		Depth     int    `json:"depth"`
	} `json:"sub_questions"`
}

// sectionNames are the sections a sub-question may serve: the
// question's own and the aspects'.
func sectionNames() []string {
	names := []string{directAspect}
	for _, a := range aspects {
		names = append(names, a.Section)
	}
	return names
}

func planSchema() *llm.Schema {
	sections, _ := json.Marshal(sectionNames())
	return &llm.Schema{Name: "research_plan", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "sub_questions": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "text": {"type": "string", "description": "the sub-question, 10 to 200 characters"},
        "priority": {"type": "integer", "description": "unique, 2 to 10; the question itself is 1"},
        "section": {"type": "string", "enum": ` + string(sections) + `},
        "follows_up": {"type": "integer", "description": "the priority of the sub-question this one follows up, or 0"},
        "depth": {"type": "integer", "description": "0, or one more than the depth of the sub-question it follows up"}
      },
      "required": ["text", "priority", "section", "follows_up", "depth"],
      "additionalProperties": false
    }}
  },
  "required": ["sub_questions"],
  "additionalProperties": false
}`)}
}

// plan is the model's plan when it writes one that passes the checks,
// else the offline plan.
func (a *assist) plan(ctx context.Context, req *rs.Request, q question) (*rs.Plan, error) {
	if a.on() {
		p, err := a.modelPlan(ctx, req, q)
		if err == nil {
			a.r.report(rs.StatusPlanning, "model %s: the plan was written by the model (%d sub-questions)", a.model.Name(), len(p.SubQuestions))
			return p, nil
		}
		a.fellBack(rs.StatusPlanning, "plan", "the plan was made offline", err)
	}
	return a.r.plan(ctx, req, q)
}

// modelPlan asks the model for the sub-questions after the question
// itself and checks them by the rules of every plan (research.Plan.
// Validate: how many the depth asks for, unique priorities, lengths,
// follow-ups within the depth's limit and without cycles); it also
// rejects a plan that asks one thing twice or leaves out a section the
// question names. Priorities are then renumbered 1..n in the model's
// order, so that follow-ups found later number on from them. Errors are
// the call's or a *agentrt.Rejection.
func (a *assist) modelPlan(ctx context.Context, req *rs.Request, q question) (*rs.Plan, error) {
	lo, hi := req.Depth.SubQuestions()
	direct := strings.TrimSpace(req.Query)
	if len([]rune(direct)) > rs.MaxSubQuestionChars {
		direct = string([]rune(direct)[:rs.MaxSubQuestionChars-3]) + "..."
	}
	named := namedSections(req.Query)
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\n", req.Query)
	fmt.Fprintf(&b, "Depth: %s. The plan has %d to %d sub-questions that follow up none, the question itself included: write %d to %d of them. ",
		req.Depth, lo, hi, lo-1, hi-1)
	fmt.Fprintf(&b, "Follow-ups may go %d level(s) deep and are not counted; priorities stay unique and at most %d.\n\n", min(req.Depth.FollowUps(), rs.MaxDepth), rs.MaxPriority)
	b.WriteString("Sections:\n")
	fmt.Fprintf(&b, "- %s: the question itself\n", directAspect)
	for _, asp := range aspects {
		fmt.Fprintf(&b, "- %s: %s\n", asp.Section, strings.NewReplacer("SUBJECT'S", "the subject's", "SUBJECT", "the subject").Replace(asp.Question))
	}
	if len(named) > 0 {
		fmt.Fprintf(&b, "\nThe question names these sections, so the plan must ask about each: %s.\n", strings.Join(named, ", "))
	}
	var out modelPlan
	if err := a.askJSON(ctx, "research_plan", planSystem, b.String(), planSchema(), 1500, &out); err != nil {
		return nil, err
	}

	// The plan is checked with stand-in ids, so that a rejected plan
	// leaves no trace in the ids the offline plan is given.
	p := &rs.Plan{RequestID: req.ID, CreatedAt: a.r.now().UTC()}
	p.SubQuestions = append(p.SubQuestions, rs.SubQuestion{ID: "q1", Text: direct, Priority: 1, Status: rs.SubPending, Aspect: directAspect, SearchResults: []rs.SearchResult{}})
	idOf := map[int]string{1: "q1"}
	for i, m := range out.SubQuestions {
		id := fmt.Sprintf("q%d", i+2)
		if _, dup := idOf[m.Priority]; !dup {
			idOf[m.Priority] = id
		}
		if !slices.Contains(sectionNames(), m.Section) {
			return nil, rejectf("sub-question %q is for section %q, which is none of the report's", m.Text, m.Section)
		}
		p.SubQuestions = append(p.SubQuestions, rs.SubQuestion{ID: id, Text: strings.TrimSpace(m.Text), Priority: m.Priority, Depth: m.Depth,
			Status: rs.SubPending, Aspect: m.Section, SearchResults: []rs.SearchResult{}})
	}
	for i, m := range out.SubQuestions {
		if m.FollowsUp != 0 {
			parent, ok := idOf[m.FollowsUp]
			if !ok {
				parent = fmt.Sprintf("priority %d", m.FollowsUp)
			}
			p.SubQuestions[i+1].ParentID = parent
		}
	}
	if err := p.Validate(req.Depth); err != nil {
		return nil, rejectf("%s", strings.TrimSuffix(quarry.ErrorMessage(err), "."))
	}
	asked := map[string]string{}
	covered := map[string]bool{}
	for _, sq := range p.SubQuestions {
		key := strings.Join(words(sq.Text), " ")
		if other, dup := asked[key]; dup {
			return nil, rejectf("sub-questions %q and %q ask the same", other, sq.Text)
		}
		asked[key] = sq.Text
		covered[sq.Aspect] = true
	}
	for _, s := range named {
		if !covered[s] {
			return nil, rejectf("the question names %s, and no sub-question asks about it", s)
		}
	}

	slices.SortStableFunc(p.SubQuestions, func(x, y rs.SubQuestion) int { return x.Priority - y.Priority })
	p.ID = a.r.id()
	ids := map[string]string{}
	for i := range p.SubQuestions {
		sq := &p.SubQuestions[i]
		ids[sq.ID] = a.r.id()
		sq.ID, sq.PlanID, sq.Priority = ids[sq.ID], p.ID, i+1
		if i > 0 {
			a.planned[sq.ID] = true
		}
	}
	for i := range p.SubQuestions {
		if pid := p.SubQuestions[i].ParentID; pid != "" {
			p.SubQuestions[i].ParentID = ids[pid]
		}
	}
	p.EstimatedTimeSeconds = len(p.SubQuestions)
	if err := p.Validate(req.Depth); err != nil {
		return nil, rejectf("%s", quarry.ErrorMessage(err))
	}
	return p, nil
}

// namedSections are the aspects' sections the question names
// ("finances" names Financials), which the offline plan asks first.
func namedSections(query string) []string {
	lower := strings.ToLower(query)
	var out []string
	for _, a := range aspects {
		if strings.Contains(lower, aspectStem(a.Section)) {
			out = append(out, a.Section)
		}
	}
	return out
}

// query is what a sub-question the model wrote searches for: its own
// words, with the subject when it leaves it out, and the words that find
// its section. Other sub-questions search as the offline plan does.
func (a *assist) query(sq *rs.SubQuestion, q question, offline string) string {
	if !a.planned[sq.ID] {
		return offline
	}
	text := sq.Text
	if q.Subject != "" && !strings.Contains(strings.ToLower(text), strings.ToLower(q.Subject)) {
		text = q.Subject + " " + text
	}
	if asp, ok := aspectOf(sq.Aspect); ok {
		text += " " + asp.Search
	}
	return text
}

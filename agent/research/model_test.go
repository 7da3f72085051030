package research

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/internal/tokens"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/sqlite"
)

const acmeQuestion = "How many employees did Acme Widgets have at the end of 2024?"

// acme has a planted conflict (1,240 employees twice against 1,420
// once), revenue and a settlement.
var acme = memoryCorpus{
	{URL: "doc://annual", Title: "Annual report", Credibility: 0.9, Text: "Acme Widgets employed 1,240 people at the end of 2024, the annual report says. Revenue for fiscal 2024 was $48.2 million."},
	{URL: "doc://letter", Title: "Shareholder letter", Credibility: 0.7, Text: "At the end of 2024 Acme Widgets had 1,240 employees across two plants. Revenue for fiscal 2024 was $48.2 million, the letter says."},
	{URL: "doc://press", Title: "Press release", Credibility: 0.6, Text: "At the end of 2024 Acme Widgets had 1,420 employees across two plants, the press release says. Revenue for fiscal 2024 was $48.2 million."},
	{URL: "doc://court", Title: "Court filing", Credibility: 0.9, Text: "Acme Widgets settled the lawsuit with Corvid Aerial for $3.2 million in March 2025."},
}

// research runs question over corpus with model (nil for none), with
// ids and times that two runs share, and returns the result and the
// stage messages.
func research(t *testing.T, corpus Corpus, question, depth string, model llm.Model) (*rs.Result, []string) {
	t.Helper()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	req, err := rs.NewRequest(question, depth, now)
	if err != nil {
		t.Fatal(err)
	}
	req.ID = "request"
	n := 0
	var stages []string
	r := &Researcher{Corpus: corpus, Model: model, Now: func() time.Time { return now },
		NewID:    func() string { n++; return fmt.Sprintf("id%03d", n) },
		Progress: func(s rs.Stage) { stages = append(stages, string(s.Status)+": "+s.Message) }}
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run = %v\n%s", err, strings.Join(stages, "\n"))
	}
	if err := res.Validate(); err != nil {
		t.Fatalf("result does not validate: %v", err)
	}
	return res, stages
}

// The good model's answers, read off the prompts as a model would.
var (
	attributesRE = regexp.MustCompile(`(?m)^Attributes: (.*)$`)
	passageRE    = regexp.MustCompile(`(?m)^\[(\d+)\] [^\n]*\n([^\n]*)`)
	amountRE     = regexp.MustCompile(`\$\d+(?:\.\d+)? million|\d{1,3}(?:,\d{3})+`)
	sectionRE    = regexp.MustCompile(`(?m)^## (.+)$`)
	factLineRE   = regexp.MustCompile(`^\[cite:([^\]]+)\] (.*)$`)
)

func goodPlan(*llm.Request) (*llm.Response, error) {
	return llmtest.JSON(map[string]any{"sub_questions": []map[string]any{
		{"text": "How many people did Acme Widgets employ, and at how many plants?", "priority": 2, "section": "Operations", "follows_up": 0, "depth": 0},
		{"text": "What revenue did Acme Widgets report for fiscal 2024?", "priority": 3, "section": "Financials", "follows_up": 0, "depth": 0},
		{"text": "What lawsuits or settlements involve Acme Widgets?", "priority": 4, "section": "Legal", "follows_up": 0, "depth": 0},
	}}), nil
}

// goodFacts claims each sentence that states an amount or a count of an
// attribute asked, in its own words ("Per the passage, ...").
func goodFacts(req *llm.Request) (*llm.Response, error) {
	msg := req.Messages[0].Content
	attrs := strings.Split(attributesRE.FindStringSubmatch(msg)[1], "; ")
	claims := []modelClaim{}
	for _, m := range passageRE.FindAllStringSubmatch(msg, -1) {
		n, _ := strconv.Atoi(m[1])
		for _, s := range Sentences(m[2]) {
			attr := ""
			switch {
			case strings.Contains(s, "employ"):
				attr = "employees"
			case strings.Contains(s, "Revenue"):
				attr = "revenue"
			case strings.Contains(s, "settled"):
				attr = "settlement"
			}
			if v := amountRE.FindString(s); v != "" && slices.Contains(attrs, attr) {
				claims = append(claims, modelClaim{Passage: n, Text: "Per the passage, " + s, Value: v, Attribute: attr, Confidence: 0.9})
			}
		}
	}
	return llmtest.JSON(modelClaims{Claims: claims}), nil
}

// goodProse writes each section as its facts with their markers, after
// "From the facts:", which the offline writer never writes.
func goodProse(req *llm.Request) (*llm.Response, error) {
	return llmtest.JSON(prose(req, "")), nil
}

// prose writes the sections of the prompt, with extra added to the
// first.
func prose(req *llm.Request, extra string) modelProse {
	var out modelProse
	out.ExecutiveSummary = "Written by the model: the sources were read and compared."
	for _, line := range strings.Split(req.Messages[0].Content, "\n") {
		if d, ok := strings.CutPrefix(line, "- "); ok && strings.Contains(d, "[cite:") {
			out.ExecutiveSummary += " Sources disagree on " + d
			continue
		}
		if m := sectionRE.FindStringSubmatch(line); m != nil {
			out.Sections = append(out.Sections, struct {
				Title   string `json:"title"`
				Content string `json:"content"`
			}{Title: m[1], Content: "From the facts:"})
			continue
		}
		if m := factLineRE.FindStringSubmatch(line); m != nil && len(out.Sections) > 0 {
			s := &out.Sections[len(out.Sections)-1]
			s.Content += fmt.Sprintf(" %s [cite:%s].", strings.TrimRight(m[2], ". "), m[1])
			if extra != "" && len(out.Sections) == 1 {
				s.Content += " " + strings.ReplaceAll(extra, "ID", m[1])
				extra = ""
			}
		}
	}
	return out
}

func goodModel() *llmtest.Model {
	return &llmtest.Model{Purposes: map[string]llmtest.Reply{"research_plan": goodPlan, "research_facts": goodFacts, "research_report": goodProse}}
}

// TestModelGood: a model whose plan, facts and prose pass the checks
// writes all three, and verification still finds the conflict.
func TestModelGood(t *testing.T) {
	m := goodModel()
	res, stages := research(t, acme, acmeQuestion, "quick", m)
	var texts []string
	for _, sq := range res.Plan.SubQuestions {
		texts = append(texts, sq.Text)
	}
	want := []string{acmeQuestion, "How many people did Acme Widgets employ, and at how many plants?", "What revenue did Acme Widgets report for fiscal 2024?", "What lawsuits or settlements involve Acme Widgets?"}
	if !slices.Equal(texts[:4], want) {
		t.Errorf("plan %q; want the model's %q", texts, want)
	}
	model := 0
	for _, f := range res.Facts {
		if strings.HasPrefix(f.Text, "Per the passage, ") {
			model++
			if !strings.Contains(f.Passage, f.Value) {
				t.Errorf("fact %q: passage %q lacks its value %q", f.Text, f.Passage, f.Value)
			}
		}
	}
	if model < 5 || model != len(res.Facts) {
		t.Errorf("%d of %d facts are the model's; want every fact, at least 5", model, len(res.Facts))
	}
	if len(res.Discrepancies) != 1 || !strings.HasPrefix(res.Discrepancies[0].Preferred, "1,240") {
		t.Errorf("discrepancies %+v; want employees resolved to 1,240", res.Discrepancies)
	}
	if !strings.HasPrefix(res.Report.ExecutiveSummary, "Written by the model") {
		t.Errorf("summary %q; want the model's", res.Report.ExecutiveSummary)
	}
	for _, s := range res.Report.Sections {
		if !strings.HasPrefix(s.Content, "From the facts:") {
			t.Errorf("section %s = %q; want the model's prose", s.Title, s.Content)
		}
	}
	for _, l := range res.Report.Limitations {
		if strings.Contains(l, "model") {
			t.Errorf("limitation %q; want none about the model", l)
		}
	}
	for _, want := range []string{"the plan was written by the model (4 sub-questions)", "facts were extracted by the model for", "the model wrote the executive summary, section"} {
		if !containsAny(stages, want) {
			t.Errorf("stages do not say %q:\n%s", want, strings.Join(stages, "\n"))
		}
	}
	if got := m.CountByPurpose(); got["research_plan"] != 1 || got["research_report"] != 1 || got["research_facts"] < 4 || got["research_facts"] > maxFactCalls {
		t.Errorf("calls %v; want one plan, one report and one extraction a sub-question", got)
	}
	// The prompts carry what the checks need.
	for _, c := range m.Calls() {
		if c.Request.Output == nil || c.Request.System == "" {
			t.Errorf("call %s asks for no structured output or has no system prompt", c.Request.Purpose)
		}
	}
}

// TestModelInventsFactNumber: a claim whose number is not in its
// passage is dropped, the others kept, and the report says so.
func TestModelInventsFactNumber(t *testing.T) {
	m := goodModel()
	m.Purposes["research_facts"] = func(req *llm.Request) (*llm.Response, error) {
		resp, _ := goodFacts(req)
		var out modelClaims
		json.Unmarshal([]byte(resp.Text), &out)
		for i, c := range out.Claims {
			if c.Attribute == "employees" && strings.Contains(c.Text, "1,240 people") {
				out.Claims[i].Text = "Acme Widgets employed 5,000 people at the end of 2024, the annual report says."
			}
		}
		// A value the passage does not write is dropped too.
		if len(out.Claims) > 0 {
			out.Claims = append(out.Claims, modelClaim{Passage: 1, Text: "Acme Widgets employed 2,000 people at the end of 2024.", Value: "2,000", Attribute: out.Claims[0].Attribute, Confidence: 0.5})
		}
		return llmtest.JSON(out), nil
	}
	res, stages := research(t, acme, acmeQuestion, "quick", m)
	for _, f := range res.Facts {
		if strings.Contains(f.Text, "5,000") || strings.Contains(f.Text, "2,000") {
			t.Errorf("fact %q was kept; its number is not in its passage", f.Text)
		}
	}
	kept := 0
	for _, f := range res.Facts {
		if strings.HasPrefix(f.Text, "Per the passage") {
			kept++
		}
	}
	if kept == 0 {
		t.Error("no fact of the model was kept; want the honest ones")
	}
	if !containsAny(res.Report.Limitations, "claims the model extracted were dropped") || !containsAny(res.Report.Limitations, "5,000") && !containsAny(res.Report.Limitations, "2,000") {
		t.Errorf("limitations %q; want the dropped claims named", res.Report.Limitations)
	}
	if !containsAny(stages, "dropped") {
		t.Errorf("stages do not say claims were dropped:\n%s", strings.Join(stages, "\n"))
	}
	// The sentence of the dropped claim was read offline.
	if !slices.ContainsFunc(res.Facts, func(f rs.Fact) bool { return strings.HasPrefix(f.Text, "Acme Widgets employed 1,240 people") }) {
		t.Errorf("facts %v; want the offline reading of the sentence whose claim was dropped", factTexts(res.Facts))
	}
}

// TestModelInventsProseNumber: a section whose prose states a number its
// facts do not is written offline, and the report says why.
func TestModelInventsProseNumber(t *testing.T) {
	m := goodModel()
	m.Purposes["research_report"] = func(req *llm.Request) (*llm.Response, error) {
		return llmtest.JSON(prose(req, "Orders reached $99 million [cite:ID].")), nil
	}
	res, stages := research(t, acme, acmeQuestion, "quick", m)
	first := res.Report.Sections[0]
	if strings.Contains(first.Content, "$99 million") || strings.HasPrefix(first.Content, "From the facts:") {
		t.Errorf("section %s = %q; want the offline text", first.Title, first.Content)
	}
	for _, s := range res.Report.Sections[1:] {
		if !strings.HasPrefix(s.Content, "From the facts:") {
			t.Errorf("section %s = %q; want the model's prose, which passed", s.Title, s.Content)
		}
	}
	if !strings.HasPrefix(res.Report.ExecutiveSummary, "Written by the model") {
		t.Errorf("summary %q; want the model's, which passed", res.Report.ExecutiveSummary)
	}
	want := fmt.Sprintf("The model's prose for section %s was rejected (it states $99 million, which the facts it cites do not); the offline text is used.", first.Title)
	if !slices.Contains(res.Report.Limitations, want) {
		t.Errorf("limitations %q; want %q", res.Report.Limitations, want)
	}
	if !containsAny(stages, "written offline: section "+first.Title) {
		t.Errorf("stages do not say the section was written offline:\n%s", strings.Join(stages, "\n"))
	}

	// Citing a fact that does not exist, or one side of a disagreement
	// alone, is rejected too.
	for _, tc := range []struct{ extra, why string }{
		{"Acme Widgets makes widgets [cite:nosuchfact].", "it cites [cite:nosuchfact], which is no fact of this research"},
		{"See also [cite: ID].", "it writes a citation that is not [cite:ID]"},
	} {
		m.Purposes["research_report"] = func(req *llm.Request) (*llm.Response, error) {
			return llmtest.JSON(prose(req, tc.extra)), nil
		}
		res, _ := research(t, acme, acmeQuestion, "quick", m)
		if !containsAny(res.Report.Limitations, tc.why) {
			t.Errorf("with %q: limitations %q; want %q", tc.extra, res.Report.Limitations, tc.why)
		}
	}
}

// TestModelOneSide: prose that cites the losing side of a disagreement
// without the other is rejected.
func TestModelOneSide(t *testing.T) {
	base, _ := research(t, acme, acmeQuestion, "quick", nil)
	if len(base.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want one", base.Discrepancies)
	}
	d := base.Discrepancies[0]
	loser := d.Sides[len(d.Sides)-1].FactIDs[0]
	f := base.FactsByID()[loser]
	content := "From the facts: " + strings.TrimRight(f.Text, ". ") + " " + rs.Cite(loser) + "."
	if _, err := checkProse(content, base, base.FactsByID(), generalEvidence(base, base.Report)); err == nil || !strings.Contains(err.Error(), "one side of the disagreement") {
		t.Errorf("checkProse(%q) = %v; want one side rejected", content, err)
	}
}

// TestModelFails: a model that errs, or answers with something other
// than the JSON asked for, leaves the result as it is without a model;
// rejected output is named in the limitations, an error only in the
// stage messages.
func TestModelFails(t *testing.T) {
	offline, _ := research(t, acme, acmeQuestion, "quick", nil)
	for _, tc := range []struct {
		name  string
		reply llmtest.Reply
		calls int
		notes []string
	}{
		{"unavailable", llmtest.Fail(&llm.Error{Kind: llm.KindUnavailable, Provider: "scripted", Message: "connection refused"}), 1, nil},
		{"garbage", llmtest.Fixed(llmtest.Text("I think the answer is 42 employees.")), -1,
			[]string{"The model's plan was rejected (the model's reply is not the JSON asked for", "The model's facts for", "The model's prose was rejected"}},
		{"malformed", llmtest.Fail(&llm.Error{Kind: llm.KindMalformed, Provider: "scripted", Message: "no JSON"}), -1,
			[]string{"The model's plan was rejected (the model's reply is not the JSON asked for)", "The model's facts for", "The model's prose was rejected"}},
		{"wrong shape", llmtest.Fixed(llmtest.Text(`{"sub_questions": "none", "claims": 3, "sections": {}}`)), -1,
			[]string{"The model's plan was rejected", "The model's facts for", "The model's prose was rejected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &llmtest.Model{Reply: tc.reply}
			res, stages := research(t, acme, acmeQuestion, "quick", m)
			if tc.calls > 0 && len(m.Calls()) != tc.calls {
				t.Errorf("%d calls; want %d, the rest of the run offline", len(m.Calls()), tc.calls)
			}
			var extra []string
			for _, l := range res.Report.Limitations {
				if !slices.Contains(offline.Report.Limitations, l) {
					extra = append(extra, l)
				}
			}
			for _, want := range tc.notes {
				if !containsAny(extra, want) {
					t.Errorf("limitations %q; want one saying %q", extra, want)
				}
			}
			if len(extra) != len(tc.notes) {
				t.Errorf("limitations added %q; want %d", extra, len(tc.notes))
			}
			res.Report.Limitations = offline.Report.Limitations
			if a, b := mustJSON(t, res), mustJSON(t, offline); a != b {
				t.Errorf("result differs from the offline one:\n%s\nwant\n%s", a, b)
			}
			if !containsAny(stages, "the plan was made offline") || !containsAny(stages, "the report was written offline") {
				t.Errorf("stages do not say what was done offline:\n%s", strings.Join(stages, "\n"))
			}
		})
	}
}

// TestModelPlanDepth: a plan with more sub-questions than the depth
// allows, one that leaves out a section the question names, and one
// whose follow-up goes too deep are each replaced by the offline plan.
func TestModelPlanDepth(t *testing.T) {
	offline, _ := research(t, acme, acmeQuestion, "quick", nil)
	sub := func(text string, priority int, section string, parent, depth int) map[string]any {
		return map[string]any{"text": text, "priority": priority, "section": section, "follows_up": parent, "depth": depth}
	}
	var nine []map[string]any
	for i := range 9 {
		nine = append(nine, sub(fmt.Sprintf("What is fact number %d about Acme Widgets?", i+1), i+2, "Operations", 0, 0))
	}
	broad := "What changed in Acme Widgets' finances and legal exposure in 2024?"
	for _, tc := range []struct {
		name, question string
		subs           []map[string]any
		why            string
	}{
		{"too many", acmeQuestion, nine, "a quick plan has 3 to 5 sub-questions, not 10"},
		{"too deep", acmeQuestion, []map[string]any{sub("How many people did Acme Widgets employ?", 2, "Operations", 0, 0),
			sub("What did Acme Widgets earn in fiscal 2024?", 3, "Financials", 0, 0),
			sub("Which sources confirm Acme Widgets' headcount?", 4, "Operations", 2, 1),
			sub("Which sources confirm those sources' figures?", 5, "Operations", 4, 2)}, "a quick plan goes 1 deep"},
		{"section left out", broad, []map[string]any{sub("What revenue did Acme Widgets report for 2024?", 2, "Financials", 0, 0),
			sub("How many people did Acme Widgets employ?", 3, "Operations", 0, 0)}, "the question names Legal, and no sub-question asks about it"},
		{"shared priority", acmeQuestion, []map[string]any{sub("How many people did Acme Widgets employ?", 2, "Operations", 0, 0),
			sub("What did Acme Widgets earn in fiscal 2024?", 2, "Financials", 0, 0)}, "share priority 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &llmtest.Model{Purposes: map[string]llmtest.Reply{"research_plan": llmtest.Fixed(llmtest.JSON(map[string]any{"sub_questions": tc.subs}))}}
			res, stages := research(t, acme, tc.question, "quick", m)
			want := offline
			if tc.question != acmeQuestion {
				want, _ = research(t, acme, tc.question, "quick", nil)
			}
			if a, b := mustJSON(t, res.Plan), mustJSON(t, want.Plan); a != b {
				t.Errorf("plan %s; want the offline plan %s", a, b)
			}
			if !containsAny(res.Report.Limitations, "The model's plan was rejected (") || !containsAny(res.Report.Limitations, tc.why) {
				t.Errorf("limitations %q; want the plan rejected because %s", res.Report.Limitations, tc.why)
			}
			if !containsAny(stages, tc.why) {
				t.Errorf("stages do not say %q:\n%s", tc.why, strings.Join(stages, "\n"))
			}
		})
	}
}

// TestModelKestrel: over the sample corpus, unhelpful models change
// nothing the research finds: the planted contradictions are found and
// resolved as without a model, and the Coventry firm is still a second
// entity. One model's plan leaves out what the question names, its
// claims carry numbers of their own and its prose invents a figure; the
// other's plan is vague but valid, it finds no claim, and its prose
// hides a disagreement.
func TestModelKestrel(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample corpus")
	}
	corpus := kestrelCorpus(t)
	const question = "What changed in Kestrel Dynamics' finances, operations and legal exposure in 2024 and 2025?"
	offline, _ := research(t, corpus, question, "standard", nil)
	plan := func(subs ...string) llmtest.Reply {
		var list []map[string]any
		for i := 0; i < len(subs); i += 2 {
			list = append(list, map[string]any{"text": subs[i], "priority": i/2 + 2, "section": subs[i+1], "follows_up": 0, "depth": 0})
		}
		return llmtest.Fixed(llmtest.JSON(map[string]any{"sub_questions": list}))
	}
	calls := 0
	inventing := &llmtest.Model{Purposes: map[string]llmtest.Reply{
		"research_plan": plan("What drones does Kestrel Dynamics make?", "Products", "Who leads Kestrel Dynamics?", "Leadership",
			"When was Kestrel Dynamics founded?", "Timeline", "What risks does Kestrel Dynamics name?", "Risks"),
		"research_facts": func(req *llm.Request) (*llm.Response, error) {
			calls++
			if calls%2 == 0 {
				return llmtest.JSON(modelClaims{Claims: []modelClaim{}}), nil
			}
			attrs := strings.Split(attributesRE.FindStringSubmatch(req.Messages[0].Content)[1], "; ")
			return llmtest.JSON(modelClaims{Claims: []modelClaim{
				{Passage: 1, Text: "Kestrel Dynamics' revenue for fiscal 2024 was $61.5 million.", Value: "$61.5 million", Attribute: attrs[0], Confidence: 0.99},
				{Passage: 1, Text: "Kestrel Dynamics had 9,999 employees.", Value: "9,999", Attribute: attrs[0], Confidence: 0.99},
				{Passage: 7, Text: "Kestrel Dynamics is doing well overall.", Value: "well", Attribute: "mood", Confidence: 0.5},
			}}), nil
		},
		"research_report": func(req *llm.Request) (*llm.Response, error) {
			// A share with a decimal: no count of sources or facts, which the
			// checker accepts as general evidence, can match it by chance.
			out := prose(req, "Kestrel Dynamics grew 41.5% [cite:ID].")
			out.ExecutiveSummary = "Kestrel Dynamics had a strong year with revenue of $61.5 million and no disputes."
			return llmtest.JSON(out), nil
		},
	}}
	vague := &llmtest.Model{Purposes: map[string]llmtest.Reply{
		"research_plan": plan("Tell me about the money side of things", "Financials", "What is going on day to day there?", "Operations",
			"Anything about courts or lawyers?", "Legal", "What drones does Kestrel Dynamics make?", "Products"),
		"research_facts": llmtest.Fixed(llmtest.JSON(modelClaims{Claims: []modelClaim{}})),
		"research_report": func(req *llm.Request) (*llm.Response, error) {
			out := prose(req, "")
			out.ExecutiveSummary = "Kestrel Dynamics makes inspection drones."
			for i := range out.Sections {
				out.Sections[i].Content = "From the facts: nothing disputed."
			}
			return llmtest.JSON(out), nil
		},
	}}
	planted := []struct{ topic, preferred, strategy string }{
		{"revenue", "$46.9 million", rs.StrategyRecency},
		{"net income", "$2.2 million", rs.StrategyRecency},
		{"employees", "1,240", rs.StrategyConsensus},
		{"settlement", "$3.2 million", rs.StrategyCredibility},
	}
	for _, tc := range []struct {
		name  string
		model llm.Model
		notes []string
	}{
		{"no model", nil, nil},
		{"inventing", inventing, []string{"The model's plan was rejected (the question names Financials", "claims the model extracted were dropped",
			"The model's prose for the executive summary was rejected (it states $61.5 million"}},
		{"vague", vague, []string{"The model's prose was rejected (the executive summary: it leaves out the disagreement on"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := offline
			if tc.model != nil {
				r, _ = research(t, corpus, question, "standard", tc.model)
			}
			if len(r.Discrepancies) != len(planted) {
				t.Errorf("%d discrepancies; want the %d planted: %+v", len(r.Discrepancies), len(planted), r.Discrepancies)
			}
			for _, p := range planted {
				i := slices.IndexFunc(r.Discrepancies, func(d rs.Discrepancy) bool { return strings.Contains(d.Topic, p.topic) })
				if i < 0 {
					t.Errorf("no discrepancy about %s", p.topic)
					continue
				}
				if d := r.Discrepancies[i]; !strings.HasPrefix(d.Preferred, p.preferred) || d.Strategy != p.strategy {
					t.Errorf("%s resolved to %q by %s; want %s by %s", p.topic, d.Preferred, d.Strategy, p.preferred, p.strategy)
				}
			}
			ambiguous := slices.ContainsFunc(r.Ambiguities, func(a rs.Ambiguity) bool {
				names := fmt.Sprint(a.Entities)
				return strings.Contains(names, "Ltd") && strings.Contains(names, "Inc")
			})
			if !ambiguous {
				t.Errorf("ambiguities %+v; want Kestrel Dynamics Inc and Ltd told apart", r.Ambiguities)
			}
			for _, f := range r.Facts {
				if strings.Contains(f.Text, "61.5") || strings.Contains(f.Text, "9,999") {
					t.Errorf("fact %q was kept", f.Text)
				}
			}
			// Every disagreement is in the summary and in a section, with
			// all its sides.
			for _, d := range r.Discrepancies {
				for _, side := range d.Sides {
					if !slices.ContainsFunc(side.FactIDs, func(id string) bool { return strings.Contains(r.Report.ExecutiveSummary, rs.Cite(id)) }) {
						t.Errorf("the summary leaves out %s's side %s", d.Topic, side.Value)
					}
				}
			}
			for _, s := range r.Report.Sections {
				if strings.Contains(s.Content, "41.5%") || strings.Contains(s.Content, "nothing disputed") {
					t.Errorf("section %s is the model's unchecked prose: %q", s.Title, s.Content)
				}
			}
			for _, want := range tc.notes {
				if !containsAny(r.Report.Limitations, want) {
					t.Errorf("limitations %q; want %q", r.Report.Limitations, want)
				}
			}
		})
	}
	res, _ := research(t, corpus, question, "standard", inventing)
	if a, b := mustJSON(t, res.Discrepancies), mustJSON(t, offline.Discrepancies); a != b {
		t.Errorf("discrepancies with a model whose plan and claims were rejected\n%s\nwant those without a model\n%s", a, b)
	}
}

// kestrelCorpus indexes the sample corpus as quarry research --corpus
// does (internal/app.OpenCorpus).
func kestrelCorpus(t *testing.T) Corpus {
	t.Helper()
	ctx := context.Background()
	files, err := filepath.Glob(filepath.Join("..", "..", "internal", "sampleresearch", "kestrel", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the sample corpus: %v, %d files", err, len(files))
	}
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "quarry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	docs := map[string]Document{}
	var chunks []retrieve.Chunk
	for _, path := range files {
		rel := filepath.Base(path)
		doc, err := docparse.Extract(ctx, path, rel, docparse.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, p := range doc.Pages {
			text.WriteString(p.Text + "\n\n")
		}
		d := DescribeDocument(rel, doc.Title, text.String())
		d.URL, d.Domain = "file:///kestrel/"+rel, "corpus"
		if d.Title == "" {
			d.Title = rel
		}
		docs[rel] = d
		for _, p := range doc.Pages {
			for j, c := range retrieve.ChunkPage(p.Text, retrieve.ChunkOptions{Count: tokens.Count}) {
				chunks = append(chunks, retrieve.Chunk{Ref: fmt.Sprintf("%s#page=%d&chunk=%d", rel, p.Number, j+1), Title: d.Title, Text: c.Content()})
			}
		}
	}
	if err := db.Put(ctx, "corpus:kestrel", chunks); err != nil {
		t.Fatal(err)
	}
	return &IndexCorpus{Index: db, Scope: "corpus:kestrel", Docs: docs}
}

func TestProseSentences(t *testing.T) {
	got := proseSentences("Kestrel Dynamics Inc. reported $46.9 million [cite:a]. Sources disagree! The 10-K said $48.2 million. [cite:b] [cite:c] Then\nnew line")
	want := []string{"Kestrel Dynamics Inc. reported $46.9 million [cite:a].", "Sources disagree!", "The 10-K said $48.2 million. [cite:b] [cite:c]", "Then", "new line"}
	if !slices.Equal(got, want) {
		t.Errorf("proseSentences = %q; want %q", got, want)
	}
}

func TestValueIn(t *testing.T) {
	s := "Revenue for fiscal 2024 was $46.9 million, up from $41.5 million, and 1,240 people worked there."
	for value, want := range map[string]string{"46.9": "$46.9 million", "$46.9 million": "$46.9 million", "1,240": "1,240 people", "was $46.9 million": "$46.9 million", "fiscal 2024 was": "2024", "worked there": "worked there"} {
		if got := valueIn(s, value).Text; got != want {
			t.Errorf("valueIn(%q) = %q; want %q", value, got, want)
		}
	}
	if wordAt(s, "6.9") >= 0 || wordAt(s, "4") >= 0 {
		t.Error("wordAt found a number inside another")
	}
}

func containsAny(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.Contains(x, s) })
}

func factTexts(facts []rs.Fact) []string {
	var out []string
	for _, f := range facts {
		out = append(out, f.Text)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

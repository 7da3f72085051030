package investigate

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// TestWorkingMemoryStaysInBudget fills every part of the working memory far
// past the budget and checks that what the model gets stays within ~6000
// tokens while keeping the objective, every hypothesis and the last 10
// findings.
func TestWorkingMemoryStaysInBudget(t *testing.T) {
	r := &run{
		in: Input{Context: investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders",
			BusinessContext: strings.Repeat("context ", 2000), InvestigationPrompt: "Why did revenue fall?"}},
		metric: &investigation.Metric{Kind: investigation.MetricSum, Numerator: "sum(amount)", TimeColumn: "orders.day"},
	}
	for i := 1; i <= 7; i++ {
		r.hyps = append(r.hyps, &investigation.Hypothesis{HypothesisID: fmt.Sprintf("hyp_%03d", i), Title: "a hypothesis", Status: investigation.HypRuledOut, Verdict: strings.Repeat("why ", 20)})
	}
	for i := 1; i <= 14; i++ {
		r.ledger.Findings = append(r.ledger.Findings, investigation.Finding{FindingID: fmt.Sprintf("find_%03d", i), Iteration: i, Summary: strings.Repeat("finding ", 60)})
	}
	var cols []quarry.Column
	for i := 0; i < 200; i++ {
		cols = append(cols, quarry.Column{Name: fmt.Sprintf("column_%d", i), DataType: "string", InferredType: quarry.RoleDimension, SampleValues: []string{"a", "b", "c"}})
	}
	r.model.Tables = []investigation.TableInfo{{Name: "orders", RowCount: 1000, Columns: cols}}
	r.iterations = []investigation.IterationLog{{Iteration: 14, RawOutput: strings.Repeat("x | 1.5 | 2.5\n", 100000)}}

	mem := r.workingMemory(nil)
	if n := llm.EstimateTokens(mem); n > workingMemoryBudget {
		t.Errorf("working memory is %d tokens; budget %d", n, workingMemoryBudget)
	}
	for _, want := range []string{"# Objective", "hyp_007 [RULED_OUT]", "find_005", "find_014", "# Last result (iteration 14)", "[cut to fit the working memory]"} {
		if !strings.Contains(mem, want) {
			t.Errorf("working memory lacks %q", want)
		}
	}
	if strings.Contains(mem, "find_004 ") {
		t.Errorf("working memory keeps find_004; want only the last %d findings", maxFindingsInMemory)
	}
}

func TestSQLCategory(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{quarry.Errorf(quarry.ECodeInvalid, "the query does not parse: syntax error at or near \"FORM\""), catSyntax},
		{quarry.Errorf(quarry.ECodeInvalid, "Binder Error: Referenced column \"app_versoin\" not found in FROM clause!"), catMissingColumn},
		{quarry.Errorf(quarry.ECodeInvalid, "Catalog Error: Table with name sales does not exist!"), catMissingTable},
		{quarry.Errorf(quarry.ECodeInvalid, "Conversion Error: Could not convert string 'abc' to INT32"), catTypeMismatch},
		{quarry.Errorf(quarry.ECodeInvalid, "Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'"), catTypeMismatch},
		{quarry.Errorf(quarry.ECodeInvalid, "query did not finish within 1m0s"), catResourceLimit},
		{quarry.Errorf(quarry.ECodeInvalid, "query returned more than 1000000 rows"), catResourceLimit},
		{quarry.Errorf(quarry.ECodeForbidden, "only read-only SELECT statements are allowed"), catForbidden},
		{errors.New("something else"), catOther},
	}
	for _, tt := range tests {
		if got := sqlCategory(tt.err); got != tt.want {
			t.Errorf("sqlCategory(%v) = %q; want %q", tt.err, got, tt.want)
		}
	}
}

// memArtifacts keeps a run's JSON artifacts in memory.
type memArtifacts map[string]any

func (m memArtifacts) WriteJSON(rel string, v any) error       { m[rel] = v; return nil }
func (m memArtifacts) WriteFile(rel string, data []byte) error { m[rel] = data; return nil }
func (m memArtifacts) Dir() string                             { return "" }

// entryLog keeps the audit entries a run appends.
type entryLog struct{ entries []quarry.AuditEntry }

func (l *entryLog) Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	e := quarry.AuditEntry{SequenceNumber: len(l.entries) + 1, EventType: eventType, Actor: actor, EventData: data}
	l.entries = append(l.entries, e)
	return e, nil
}

// TestModelCallsRecorded: each model call is a tool_called and an
// observation_recorded entry of the analyst and an
// analysis/llm/call_NNN.json record, in the shape quarry audit verify
// and the session's readers know; a reply that is not JSON is a rejected
// policy decision; two UNAVAILABLE answers in a row make the rest of the
// run offline, which the progress and the log say.
func TestModelCallsRecorded(t *testing.T) {
	replies := []func() (*llm.Response, error){
		func() (*llm.Response, error) {
			return &llm.Response{Text: `{"summary": "ok"}`, Usage: llm.Usage{InputTokens: 50, OutputTokens: 7}, Attempts: 1}, nil
		},
		func() (*llm.Response, error) { return llmtest.Text("not JSON"), nil },
		func() (*llm.Response, error) {
			return nil, &llm.Error{Kind: llm.KindUnavailable, Status: 529, Message: "overloaded"}
		},
		func() (*llm.Response, error) {
			return nil, &llm.Error{Kind: llm.KindUnavailable, Status: 529, Message: "overloaded"}
		},
	}
	m := &llmtest.Model{ModelName: "test/analyst", Reply: func(*llm.Request) (*llm.Response, error) {
		r := replies[0]
		replies = replies[1:]
		return r()
	}}
	log, out := &entryLog{}, memArtifacts{}
	var progress []string
	r := &run{inv: &Investigator{Audit: log, Out: out, Now: time.Now, Progress: func(e investigation.Event) { progress = append(progress, e.Step+": "+e.Message) }},
		ai: &analyst{model: m}}
	ctx := context.Background()
	var v struct{ Summary string }
	for i, purpose := range []string{"condense", "condense", "report", "report", "report"} {
		ok, err := r.askJSON(ctx, llm.UserText(purpose, "", "x"), 3, &v)
		if err != nil || ok != (i == 0) {
			t.Fatalf("call %d: askJSON = %v, %v; want %v and no error", i+1, ok, err, i == 0)
		}
	}
	if len(m.Calls()) != 4 || !r.ai.off() {
		t.Errorf("%d calls, off=%v; want 4 and the model off after two UNAVAILABLE", len(m.Calls()), r.ai.off())
	}
	var kinds []string
	for _, e := range log.entries {
		k := e.EventType
		if p, ok := e.EventData["decision"].(string); ok {
			k += " " + e.EventData["policy"].(string) + "/" + p
		}
		if e.Actor != "analyst" {
			t.Errorf("entry %d by %q; want the analyst", e.SequenceNumber, e.Actor)
		}
		kinds = append(kinds, k)
	}
	want := []string{"tool_called", "observation_recorded", "tool_called", "observation_recorded", "policy_decision model_output/rejected",
		"tool_called", "observation_recorded", "tool_called", "observation_recorded", "policy_decision model/offline"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("entries %q; want %q", kinds, want)
	}
	args := log.entries[0].EventData["arguments"].(map[string]any)
	if log.entries[0].EventData["call_id"] != "llm_0001" || log.entries[0].EventData["tool_name"] != "llm" || args["purpose"] != "condense" ||
		args["model"] != "test/analyst" || args["iteration"] != 3 || len(args["prompt_sha256"].(string)) != 64 {
		t.Errorf("tool_called %v; want llm_0001 with the purpose, model, iteration and prompt hash", log.entries[0].EventData)
	}
	if obs := log.entries[1].EventData; obs["success"] != true || obs["input_tokens"] != 50 || obs["output_tokens"] != 7 || obs["attempts"] != 1 {
		t.Errorf("observation %v; want success with 50/7 tokens", obs)
	}
	if obs := log.entries[8].EventData; obs["error_code"] != "UNAVAILABLE" || obs["policy"] != "the model is unavailable; the rest of the investigation runs offline" {
		t.Errorf("last observation %v; want UNAVAILABLE and the switch to offline", obs)
	}
	rec, ok := out["analysis/llm/call_004.json"].(callRecord)
	if !ok || rec.Call != 4 || rec.Purpose != "report" || rec.Iteration != 3 || rec.Model != "test/analyst" || rec.ErrorKind != "UNAVAILABLE" || rec.Response != nil || rec.Request == nil {
		t.Errorf("call_004.json = %+v; want the fourth call's failure", rec)
	}
	if rec, _ := out["analysis/llm/call_001.json"].(callRecord); rec.Response == nil || rec.Response.Text != `{"summary": "ok"}` || rec.Error != "" {
		t.Errorf("call_001.json = %+v; want the answer", rec)
	}
	if _, ok := out["analysis/llm/call_005.json"]; ok {
		t.Error("a call was recorded after the model went off")
	}
	if u := r.ai.usage(); u.Calls != 2 || u.InputTokens != 50+llm.EstimateTokens("x") {
		t.Errorf("usage %+v; want the two answered calls", u)
	}
	if it := r.ai.takeIterationUsage(); it == nil || *it != r.ai.usage() {
		t.Errorf("iteration usage %+v; want %+v", it, r.ai.usage())
	}
	if bp := r.ai.byPurpose(); len(bp) != 1 || bp["condense"].Calls != 2 {
		t.Errorf("by purpose %+v; want the two condense calls", bp)
	}
	wantProgress := []string{"condense: the model's answer was not valid JSON; this step runs offline",
		"report: model test/analyst did not answer (UNAVAILABLE); this step runs offline",
		"report: model test/analyst did not answer (UNAVAILABLE); this step and the rest of the investigation run offline"}
	if !reflect.DeepEqual(progress, wantProgress) {
		t.Errorf("progress %q; want %q", progress, wantProgress)
	}
}

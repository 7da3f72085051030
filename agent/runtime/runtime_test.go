package runtime_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// openLog opens a fresh hash-chained log; its path is for reading back.
func openLog(t *testing.T) (*audit.Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, "req_1", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func readLog(t *testing.T, path string) []quarry.AuditEntry {
	t.Helper()
	entries, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// kinds is each entry's event type, with the policy and decision of
// policy decisions: "policy_decision model_output/rejected".
func kinds(entries []quarry.AuditEntry) []string {
	var out []string
	for _, e := range entries {
		k := e.EventType
		if k == quarry.EventPolicyDecision {
			k += " " + e.EventData["policy"].(string) + "/" + e.EventData["decision"].(string)
		}
		out = append(out, k)
	}
	return out
}

func fail(kind llm.Kind) error {
	return &llm.Error{Kind: kind, Provider: "scripted", Message: "scripted " + string(kind)}
}

// TestCallAudited: an answered call, a reply that is not JSON and a
// refused request leave their entries in order, in a chain that verifies,
// with the prompt's hash, the tokens and the error's kind; editing one
// entry breaks the chain at that entry.
func TestCallAudited(t *testing.T) {
	log, path := openLog(t)
	m := &llmtest.Model{ModelName: "test/model", Purposes: map[string]llmtest.Reply{
		"plan":    llmtest.Fixed(&llm.Response{Text: "```json\n{\"steps\": 3}\n```", Usage: llm.Usage{InputTokens: 100, OutputTokens: 20}, Attempts: 2}),
		"write":   llmtest.Fixed(llmtest.Text("Sure! Here it is: steps = 3")),
		"refused": llmtest.Fail(fail(llm.KindInvalid)),
	}}
	var records []runtime.Record
	c := runtime.New(m, runtime.Options{Audit: log, Actor: "analyst", OnCall: func(r runtime.Record) error {
		records = append(records, r)
		return nil
	}})

	var plan struct{ Steps int }
	planReq := llm.UserText("plan", "You plan.", "Plan it.")
	if err := c.With(map[string]any{"iteration": 1}).CallJSON(context.Background(), planReq, &plan); err != nil || plan.Steps != 3 {
		t.Fatalf("CallJSON(plan) = %v, %+v; want the fenced object decoded", err, plan)
	}
	var w struct{ Text string }
	err := c.CallJSON(context.Background(), llm.UserText("write", "", "Write it."), &w)
	var rej *runtime.Rejection
	if !errors.As(err, &rej) || rej.Reason != "the model's reply is not the JSON asked for" || rej.Purpose != "write" || !runtime.Fallback(err) {
		t.Fatalf("CallJSON(write) = %v; want a rejection: the reply is not the JSON asked for", err)
	}
	_, err = c.Call(context.Background(), llm.UserText("refused", "", "x"))
	var f *runtime.Failure
	if !errors.As(err, &f) || llm.ErrorKind(err) != llm.KindInvalid || f.Off || !runtime.Fallback(err) {
		t.Fatalf("Call(refused) = %#v; want a failure of kind INVALID that leaves the model on", err)
	}

	entries := readLog(t, path)
	want := []string{"tool_called", "observation_recorded", "tool_called", "observation_recorded", "policy_decision model_output/rejected", "tool_called", "observation_recorded"}
	if got := kinds(entries); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q; want %q", got, want)
	}
	for _, e := range entries {
		if e.Actor != "analyst" {
			t.Errorf("entry %d actor %q; want analyst", e.SequenceNumber, e.Actor)
		}
	}
	b, _ := json.Marshal(planReq)
	sum := sha256.Sum256(b)
	args := entries[0].EventData["arguments"].(map[string]any)
	if entries[0].EventData["call_id"] != "llm_0001" || entries[0].EventData["tool_name"] != "llm" || args["purpose"] != "plan" || args["model"] != "test/model" ||
		args["prompt_sha256"] != hex.EncodeToString(sum[:]) || args["iteration"] != float64(1) {
		t.Errorf("first tool_called %v; want llm_0001, the plan's purpose, model, prompt hash and iteration", entries[0].EventData)
	}
	if _, ok := entries[2].EventData["arguments"].(map[string]any)["iteration"]; ok {
		t.Errorf("second call's arguments %v; With's iteration belongs to the first only", entries[2].EventData["arguments"])
	}
	obs := entries[1].EventData
	if obs["call_id"] != "llm_0001" || obs["success"] != true || obs["input_tokens"] != float64(100) || obs["output_tokens"] != float64(20) || obs["attempts"] != float64(2) {
		t.Errorf("first observation %v; want success with 100/20 tokens in 2 attempts", obs)
	}
	if r := entries[4].EventData; r["purpose"] != "write" || !strings.HasPrefix(r["reason"].(string), "invalid JSON: ") {
		t.Errorf("rejection %v; want the write's, for invalid JSON", r)
	}
	if obs := entries[6].EventData; obs["success"] != false || obs["error_code"] != "INVALID" || obs["policy"] != nil {
		t.Errorf("refused call's observation %v; want a failure of kind INVALID and no policy", obs)
	}
	if len(records) != 3 || records[0].Call != 1 || records[0].ID != "llm_0001" || records[0].Args["iteration"] != 1 || records[0].Response == nil ||
		records[2].Err == nil || records[2].Response != nil || records[2].Purpose != "refused" {
		t.Errorf("records %+v; want one per call, numbered, with With's arguments and the refused call's error", records)
	}

	if res, err := audit.VerifyFile(path); err != nil || !res.OK() || res.Entries != len(want) {
		t.Fatalf("VerifyFile = %+v, %v; want %d entries that verify", res, err, len(want))
	}
	// Change the rejection's reason, keeping the JSON valid: verification
	// names that entry.
	raw, _ := os.ReadFile(path)
	edited := strings.Replace(string(raw), `"reason":"invalid JSON: `, `"reason":"valid JSON: `, 1)
	if edited == string(raw) {
		t.Fatal("the rejection's reason is not in the file as expected")
	}
	os.WriteFile(path, []byte(edited), 0o644)
	if res, err := audit.VerifyFile(path); err != nil || res.FirstBroken != 5 {
		t.Errorf("VerifyFile after editing entry 5 = %+v, %v; want entry 5 broken", res, err)
	}
}

// TestOffAfterUnavailable: failures the next call would repeat turn the
// model off after MaxUnavailable in a row, with a policy decision; an
// answer in between starts the count again; then the model is not asked.
func TestOffAfterUnavailable(t *testing.T) {
	for _, kind := range []llm.Kind{llm.KindUnavailable, llm.KindRateLimited, llm.KindUnauthorized, ""} {
		t.Run(string(kind), func(t *testing.T) {
			log, path := openLog(t)
			down := true
			m := &llmtest.Model{ModelName: "down", Reply: func(*llm.Request) (*llm.Response, error) {
				if down {
					if kind == "" {
						return nil, errors.New("connection reset")
					}
					return nil, fail(kind)
				}
				return llmtest.Text("ok"), nil
			}}
			var progress []string
			c := runtime.New(m, runtime.Options{Audit: log, Actor: "analyst", Job: "investigation", MaxUnavailable: 2,
				Progress: func(purpose, msg string) { progress = append(progress, purpose+": "+msg) }})
			ctx := context.Background()
			step := func(purpose string) error {
				_, err := c.Call(ctx, llm.UserText(purpose, "", "x"))
				return err
			}
			// down, up, down, down: off on the fourth call.
			if err := step("a"); !runtime.Fallback(err) || err.(*runtime.Failure).Off {
				t.Fatalf("first failure %v; want a failure that leaves the model on", err)
			}
			down = false
			if err := step("b"); err != nil {
				t.Fatal(err)
			}
			down = true
			if err := step("c"); err == nil || err.(*runtime.Failure).Off || !c.On() {
				t.Fatalf("first failure after an answer %v; want the model still on", err)
			}
			err := step("d")
			var f *runtime.Failure
			if !errors.As(err, &f) || !f.Off || c.On() || !c.Off() {
				t.Fatalf("second failure in a row %v; want the model off", err)
			}
			if err := step("e"); !errors.Is(err, runtime.ErrOffline) || !runtime.Fallback(err) {
				t.Fatalf("after off: %v; want ErrOffline", err)
			}
			if n := len(m.Calls()); n != 4 || c.Calls() != 4 {
				t.Errorf("%d calls to the model (%d counted); want 4, none after it went off", n, c.Calls())
			}
			if c.Usage().Calls != 1 {
				t.Errorf("usage %+v; want one answered call", c.Usage())
			}
			last := progress[len(progress)-1]
			if !strings.HasPrefix(last, "d: model down did not answer (") || !strings.HasSuffix(last, "); this step and the rest of the investigation run offline") {
				t.Errorf("progress %q; want the last to say the rest of the investigation runs offline", progress)
			}
			entries := readLog(t, path)
			wantKinds := []string{"tool_called", "observation_recorded", "tool_called", "observation_recorded", "tool_called", "observation_recorded",
				"tool_called", "observation_recorded", "policy_decision model/offline"}
			if got := kinds(entries); !reflect.DeepEqual(got, wantKinds) {
				t.Fatalf("entries %q; want %q", got, wantKinds)
			}
			off := entries[8].EventData
			if off["purpose"] != "d" || !strings.HasSuffix(off["reason"].(string), "; the rest of the investigation runs offline") || entries[7].EventData["policy"] != off["reason"] {
				t.Errorf("policy decision %v after observation %v; want the reason in both", off, entries[7].EventData)
			}
			if res, err := audit.VerifyFile(path); err != nil || !res.OK() {
				t.Errorf("VerifyFile = %+v, %v", res, err)
			}
		})
	}
}

// TestStaysOn: a refused request and an unreadable reply fail their step
// only, however many in a row.
func TestStaysOn(t *testing.T) {
	for _, kind := range []llm.Kind{llm.KindInvalid, llm.KindMalformed} {
		m := &llmtest.Model{Reply: llmtest.Fail(fail(kind))}
		c := runtime.New(m, runtime.Options{MaxUnavailable: 1})
		for i := 0; i < 5; i++ {
			var out map[string]any
			err := c.CallJSON(context.Background(), llm.UserText("p", "", "x"), &out)
			var rej *runtime.Rejection
			switch {
			case kind == llm.KindMalformed && !errors.As(err, &rej):
				t.Fatalf("%s: CallJSON = %v; want a rejection", kind, err)
			case kind == llm.KindInvalid && llm.ErrorKind(err) != llm.KindInvalid:
				t.Fatalf("%s: CallJSON = %v; want the INVALID failure", kind, err)
			}
		}
		if n := len(m.Calls()); n != 5 || !c.On() {
			t.Errorf("%s: %d calls, on=%v; want 5 calls and the model still on", kind, n, c.On())
		}
	}
}

// TestUsage sums the answered calls' tokens, in all and by purpose.
func TestUsage(t *testing.T) {
	m := &llmtest.Model{Purposes: map[string]llmtest.Reply{
		"decide": llmtest.Fixed(&llm.Response{Text: "{}", Usage: llm.Usage{InputTokens: 10, OutputTokens: 3}}),
		"report": llmtest.Fixed(&llm.Response{Text: "{}", Usage: llm.Usage{InputTokens: 7, OutputTokens: 5}}),
		"broken": llmtest.Fail(fail(llm.KindInvalid)),
	}}
	c := runtime.New(m, runtime.Options{})
	for _, p := range []string{"decide", "decide", "report", "broken"} {
		c.Call(context.Background(), llm.UserText(p, "", "x"))
	}
	if u := c.Usage(); u != (runtime.Usage{Calls: 3, InputTokens: 27, OutputTokens: 11}) || u.Total() != 38 {
		t.Errorf("Usage() = %+v; want 3 calls, 27 in, 11 out", u)
	}
	want := map[string]runtime.Usage{"decide": {Calls: 2, InputTokens: 20, OutputTokens: 6}, "report": {Calls: 1, InputTokens: 7, OutputTokens: 5}}
	if got := c.ByPurpose(); !reflect.DeepEqual(got, want) {
		t.Errorf("ByPurpose() = %+v; want %+v", got, want)
	}
	if c.Calls() != 4 {
		t.Errorf("Calls() = %d; want 4, the failed one included", c.Calls())
	}
}

// TestOffline: no Caller or no model asks nothing and says so.
func TestOffline(t *testing.T) {
	for name, c := range map[string]*runtime.Caller{"nil caller": nil, "nil model": runtime.New(nil, runtime.Options{})} {
		_, err := c.Call(context.Background(), llm.UserText("p", "", "x"))
		if !errors.Is(err, runtime.ErrOffline) || !runtime.Fallback(err) {
			t.Errorf("%s: Call = %v; want ErrOffline", name, err)
		}
		if err := c.With(map[string]any{"iteration": 2}).CallJSON(context.Background(), llm.UserText("p", "", "x"), new(map[string]any)); !errors.Is(err, runtime.ErrOffline) {
			t.Errorf("%s: CallJSON = %v; want ErrOffline", name, err)
		}
		if c.On() || c.Off() || c.Name() != "" || c.Calls() != 0 {
			t.Errorf("%s: on %v, off %v, name %q, %d calls; want an offline caller", name, c.On(), c.Off(), c.Name(), c.Calls())
		}
	}
}

type brokenLog struct{ err error }

func (b brokenLog) Append(string, string, map[string]any) (quarry.AuditEntry, error) {
	return quarry.AuditEntry{}, b.err
}

// TestStops: a log that cannot be written, a record that cannot be kept
// and an ended context stop the caller instead of making a step offline.
func TestStops(t *testing.T) {
	disk := errors.New("disk full")
	m := &llmtest.Model{Reply: llmtest.Fixed(llmtest.Text("{}"))}
	_, err := runtime.New(m, runtime.Options{Audit: brokenLog{disk}}).Call(context.Background(), llm.UserText("p", "", "x"))
	if !errors.Is(err, disk) || runtime.Fallback(err) || len(m.Calls()) != 0 {
		t.Errorf("with the log broken: %v after %d calls; want the log's error before any call", err, len(m.Calls()))
	}
	err = runtime.New(m, runtime.Options{OnCall: func(runtime.Record) error { return disk }}).CallJSON(context.Background(), llm.UserText("p", "", "x"), new(map[string]any))
	if !errors.Is(err, disk) || runtime.Fallback(err) {
		t.Errorf("with OnCall failing: %v; want its error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := runtime.New(&llmtest.Model{}, runtime.Options{MaxUnavailable: 1})
	if _, err := c.Call(ctx, llm.UserText("p", "", "x")); !errors.Is(err, context.Canceled) || runtime.Fallback(err) || !c.On() {
		t.Errorf("with ctx ended: %v, on=%v; want context.Canceled and the model still on", err, c.On())
	}
}

// TestReject records a caller's own check as a rejection.
func TestReject(t *testing.T) {
	log, path := openLog(t)
	c := runtime.New(&llmtest.Model{}, runtime.Options{Audit: log, Actor: "researcher"})
	err := c.Reject("research_plan", "the plan has 9 sub-questions; the depth allows 3")
	var rej *runtime.Rejection
	if !errors.As(err, &rej) || rej.Reason != "the plan has 9 sub-questions; the depth allows 3" || !runtime.Fallback(err) {
		t.Fatalf("Reject = %v", err)
	}
	e := readLog(t, path)
	if len(e) != 1 || e[0].EventType != quarry.EventPolicyDecision || e[0].EventData["reason"] != rej.Reason || e[0].EventData["purpose"] != "research_plan" {
		t.Errorf("entries %+v; want one rejection with its reason", e)
	}
}

func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		text string
		want map[string]any
	}{
		{`{"a": 1}`, map[string]any{"a": float64(1)}},
		{"```json\n{\"a\": {\"b\": 2}}\n```", map[string]any{"a": map[string]any{"b": float64(2)}}},
		{"Here you go:\n{\"a\": \"}\"} Hope it helps.", map[string]any{"a": "}"}},
	} {
		var got map[string]any
		if err := runtime.DecodeJSON(tc.text, &got); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeJSON(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
	for _, text := range []string{"", "no JSON at all", "} backwards {", `{"a": }`} {
		var got map[string]any
		if err := runtime.DecodeJSON(text, &got); err == nil {
			t.Errorf("DecodeJSON(%q) = %v; want an error", text, got)
		}
	}
}

// FuzzDecodeJSON: no reply panics the reader, and an object wrapped in a
// fence and prose reads as the object alone.
func FuzzDecodeJSON(f *testing.F) {
	f.Add(`{"decision": "ANALYZE", "sql": "SELECT 1"}`, "```json\n", "\n```")
	f.Add(`{"a": [1, {"b": "}"}]}`, "Sure! ", " Anything else?")
	f.Add(`not json`, "{", "")
	f.Fuzz(func(t *testing.T, body, before, after string) {
		var bare map[string]any
		if err := json.Unmarshal([]byte(body), &bare); err != nil {
			runtime.DecodeJSON(before+body+after, new(map[string]any))
			return
		}
		if strings.ContainsAny(before, "{}") || strings.ContainsAny(after, "{}") {
			return
		}
		var wrapped map[string]any
		if err := runtime.DecodeJSON(before+body+after, &wrapped); err != nil || !reflect.DeepEqual(wrapped, bare) {
			t.Errorf("DecodeJSON(%q) = %v, %v; want %v", before+body+after, wrapped, err, bare)
		}
	})
}

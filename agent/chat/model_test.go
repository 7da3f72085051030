package chat

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// revenueNotFound is the reply to a question the revenue memory has nothing on.
const revenueNotFound = notLooked + " It examined the change by these dimensions: platform, customers.segment, app_version, customers.region, channel, country; segments its findings do not name did not stand out. " + canAnswer

// withModel returns an Answerer over the revenue memory whose model answers
// every chat request with reply.
func withModel(t *testing.T, reply llmtest.Reply) (*Answerer, *llmtest.Model) {
	t.Helper()
	a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
	m := &llmtest.Model{Purposes: map[string]llmtest.Reply{purpose: reply}}
	a.Model = m
	return a, m
}

// modelSays is a reply in the chat answer's schema.
func modelSays(answer string, citations []int, covered bool) llmtest.Reply {
	return llmtest.Fixed(llmtest.JSON(map[string]any{"answer": answer, "citations": citations, "covered": covered}))
}

// The passages "Why did revenue fall?" sends (see testdata/chat_prompt.golden).
const (
	overallRef = "results/explanations.json"
	expl1Ref   = "results/explanations.json#1"
	expl2Ref   = "results/explanations.json#2"
	contextRef = "context.json"
)

func TestModelAnswer(t *testing.T) {
	tests := []struct {
		name      string
		answer    string
		citations []int
		wantText  string
		wantRefs  []string
	}{
		{
			name:      "grounded",
			answer:    "Revenue fell 10.3%, from 947,083 to 849,350 [1]. Most of the fall is platform=android AND app_version=5.2, which accounts for -57,276 (59%) of the change [2]; enterprise rows were worth 31% less [3].",
			citations: []int{1, 2, 3},
			wantText:  "Revenue fell 10.3%, from 947,083 to 849,350 [results/explanations.json]. Most of the fall is platform=android AND app_version=5.2, which accounts for -57,276 (59%) of the change [results/explanations.json#1]; enterprise rows were worth 31% less [results/explanations.json#2].",
			wantRefs:  []string{overallRef, expl1Ref, expl2Ref},
		},
		{
			name:      "rounded numbers match",
			answer:    "Revenue fell by about 97.7k (10%), to 849k [1].",
			citations: []int{1},
			wantText:  "Revenue fell by about 97.7k (10%), to 849k [results/explanations.json].",
			wantRefs:  []string{overallRef},
		},
		{
			name:      "invented numbers are marked",
			answer:    "Revenue fell 10.3% [1]. Enterprise revenue fell 42% to $1.2M [3].",
			citations: []int{1, 3},
			wantText:  "Revenue fell 10.3% [results/explanations.json]. Enterprise revenue fell 42% [unverified] to $1.2M [unverified] [results/explanations.json#2].",
			wantRefs:  []string{overallRef, expl2Ref},
		},
		{
			name:      "citations of passages not sent are dropped",
			answer:    "Revenue fell 10.3% [1]. Android users left for a competitor [9].",
			citations: []int{1, 9, 0, -2},
			wantText:  "Revenue fell 10.3% [results/explanations.json]. Android users left for a competitor.",
			wantRefs:  []string{overallRef},
		},
		{
			name:      "a list of citations",
			answer:    "Android on 5.2 lost rows, from 1,595 to 492 [2, 9, 4].",
			citations: []int{2, 4},
			wantText:  "Android on 5.2 lost rows, from 1,595 to 492 [results/explanations.json#1] [context.json].",
			wantRefs:  []string{expl1Ref, contextRef},
		},
		{
			name:      "citations only in the list are cited at the end",
			answer:    "Revenue fell 10.3% [2].",
			citations: []int{1, 2},
			wantText:  "Revenue fell 10.3% [results/explanations.json#1] [results/explanations.json].",
			wantRefs:  []string{expl1Ref, overallRef},
		},
	}
	for _, tt := range tests {
		a, m := withModel(t, modelSays(tt.answer, tt.citations, true))
		r := ask(t, a, "rev", "Why did revenue fall?")
		if r.Text != tt.wantText || !reflect.DeepEqual(r.ArtifactsReferenced, tt.wantRefs) {
			t.Errorf("%s: Answer = %q citing %q; want %q citing %q", tt.name, r.Text, r.ArtifactsReferenced, tt.wantText, tt.wantRefs)
		}
		if n := m.CountByPurpose()[purpose]; n != 1 {
			t.Errorf("%s: %d chat calls; want 1", tt.name, n)
		}
	}
}

func TestModelNotCovered(t *testing.T) {
	a, m := withModel(t, modelSays("", nil, false))
	for _, q := range []string{"Why did revenue fall?", "How did you calculate the contribution?", "Which hypotheses were ruled out?"} {
		r := ask(t, a, "rev", q)
		if r.Text != revenueNotFound || r.ArtifactsReferenced != nil {
			t.Errorf("Answer(%q) with covered=false = %q citing %q; want %q and no refs", q, r.Text, r.ArtifactsReferenced, revenueNotFound)
		}
	}
	if n := len(m.Calls()); n != 3 {
		t.Errorf("%d model calls; want 3", n)
	}
}

// TestModelFallsBack checks that whatever goes wrong with the model, the
// reply is the one the Answerer gives without a model.
func TestModelFallsBack(t *testing.T) {
	replies := map[string]llmtest.Reply{
		"invalid JSON":          llmtest.Fixed(llmtest.Text("Revenue fell 10.3% [1].")),
		"JSON in a code fence":  llmtest.Fixed(llmtest.Text("```json\n{\"answer\": \"x [1]\", \"citations\": [1], \"covered\": true}\n```")),
		"covered missing":       llmtest.Fixed(llmtest.Text(`{"answer": "Revenue fell 10.3% [1].", "citations": [1]}`)),
		"citations not numbers": llmtest.Fixed(llmtest.Text(`{"answer": "Revenue fell 10.3% [1].", "citations": ["1"], "covered": true}`)),
		"empty answer":          modelSays("  ", []int{1}, true),
		"no citation":           modelSays("Revenue fell 10.3%.", nil, true),
		"only unsent citations": modelSays("Revenue fell 10.3% [99].", []int{99, 0}, true),
		"too long":              modelSays(strings.Repeat("Revenue fell 12.5% [1]. ", 400), []int{1}, true),
		"unavailable":           llmtest.Fail(&llm.Error{Kind: llm.KindUnavailable, Provider: "anthropic", Status: 529, Message: "overloaded"}),
		"rate limited":          llmtest.Fail(&llm.Error{Kind: llm.KindRateLimited, Status: 429, Message: "slow down"}),
		"unauthorized":          llmtest.Fail(&llm.Error{Kind: llm.KindUnauthorized, Status: 401, Message: "bad key"}),
		"invalid request":       llmtest.Fail(&llm.Error{Kind: llm.KindInvalid, Status: 400, Message: "unknown model"}),
		"malformed":             llmtest.Fail(&llm.Error{Kind: llm.KindMalformed, Message: "no content"}),
		"other error":           llmtest.Fail(errors.New("connection reset")),
	}
	offline := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
	// The memory has no passage on Germany: that question is not sent.
	questions := []string{"Why did revenue fall?", "Which hypotheses were ruled out and why?", "How did you calculate the contribution?", "What about app_version 5.2?", "What about Germany?"}
	for name, reply := range replies {
		a, m := withModel(t, reply)
		for _, q := range questions {
			want := ask(t, offline, "rev", q)
			got := ask(t, a, "rev", q)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Answer(%q) = %+v; want the offline reply %+v", name, q, got, want)
			}
		}
		if n := len(m.Calls()); n != len(questions)-1 {
			t.Errorf("%s: %d model calls; want %d, one per question but Germany", name, n, len(questions)-1)
		}
	}
}

func TestModelNotAskedWithoutPassages(t *testing.T) {
	a, m := withModel(t, modelSays("Revenue fell 10.3% [1].", []int{1}, true))
	for _, session := range []string{"unknown-session", ""} {
		r := ask(t, a, session, "What about Germany?")
		if r.Text != notLooked+" "+canAnswer || r.ArtifactsReferenced != nil {
			t.Errorf("Answer on %q = %q citing %q; want %q", session, r.Text, r.ArtifactsReferenced, notLooked)
		}
	}
	if n := len(m.Calls()); n != 0 {
		t.Errorf("%d model calls for sessions with no memory; want 0", n)
	}
}

func TestModelPrompt(t *testing.T) {
	a, m := withModel(t, modelSays("Revenue fell 10.3% [1].", []int{1}, true))
	const question = "Why did revenue fall?"
	ask(t, a, "rev", question)
	calls := m.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d model calls; want 1", len(calls))
	}
	req := calls[0].Request
	if req.Purpose != purpose || len(req.Messages) != 1 || req.Messages[0].Role != llm.RoleUser || req.Output == nil || req.MaxTokens != maxAnswerTokens {
		t.Fatalf("request = %+v; want one user message, purpose %q, structured output and MaxTokens %d", req, purpose, maxAnswerTokens)
	}
	user := req.Messages[0].Content
	for _, want := range []string{"\n[1] " + overallRef + ": Overall change\n", "\n[2] " + expl1Ref + ": ", "\n[3] " + expl2Ref + ": ", "\n[4] " + contextRef + ": ", "\nQuestion: " + question} {
		if !strings.Contains(user, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "[5]") {
		t.Errorf("the prompt numbers a 5th passage; want 4:\n%s", user)
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(req.Output.Schema, &schema); err != nil || !reflect.DeepEqual(schema.Required, []string{"answer", "citations", "covered"}) {
		t.Errorf("output schema requires %q (%v); want answer, citations, covered", schema.Required, err)
	}

	golden := "testdata/chat_prompt.golden"
	got := m.Transcript()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the chat prompt differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

func FuzzGrounded(f *testing.F) {
	f.Add("Revenue fell 10.3% [1]. It fell 42% [2, 9].", 1, 3)
	f.Add("[[9]1] [^2] [3,] [1,2,3,4,5,6,7,8,9,10,11,12,13] 1.2M [unverified]", 0, 99)
	f.Add(`{"answer": "x [1]", "citations": [1], "covered": true}`, -1, 2)
	srcs := []source{
		{N: 1, Ref: overallRef, Title: "Overall change", Text: "The metric moved from 947,083 to 849,350 (-97,732, -10.3%); p<0.0001."},
		{N: 2, Ref: expl1Ref, Title: "Explanation 1", Text: "It accounts for -57,276 (59%) of the change."},
		{N: 3, Ref: overallRef, Title: "Overall change again", Text: "10.3%"},
	}
	f.Fuzz(func(t *testing.T, answer string, c1, c2 int) {
		parseAnswer(answer) // must not panic
		r, ok := grounded(modelAnswer{Answer: answer, Citations: []int{c1, c2}}, srcs)
		if !ok {
			return
		}
		if len(r.ArtifactsReferenced) == 0 || len([]rune(r.Text)) > quarry.MaxChatMessageLen {
			t.Fatalf("grounded(%q) = %+v; want refs and at most %d characters", answer, r, quarry.MaxChatMessageLen)
		}
		for _, ref := range r.ArtifactsReferenced {
			if ref != overallRef && ref != expl1Ref || !strings.Contains(r.Text, "["+ref+"]") {
				t.Fatalf("grounded(%q) = %+v; ref %q is not a cited passage", answer, r, ref)
			}
		}
	})
}

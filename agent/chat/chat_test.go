package chat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/sqlite"
)

// newAnswerer returns an Answerer over an in-memory index holding each
// session's memory sections, plus any extra chunks.
func newAnswerer(t *testing.T, memories map[string][]investigation.MemorySection, extra ...retrieve.Chunk) *Answerer {
	t.Helper()
	db, err := sqlite.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for session, sections := range memories {
		chunks := retrieve.MemoryChunks(investigation.MemoryDocument{SessionID: session, Sections: sections})
		for _, c := range extra {
			if c.Scope == session {
				chunks = append(chunks, c)
			}
		}
		if err := db.Put(context.Background(), session, chunks); err != nil {
			t.Fatal(err)
		}
	}
	return &Answerer{Index: db}
}

// ask answers question and checks what every reply must satisfy.
func ask(t *testing.T, a *Answerer, session, question string) Reply {
	t.Helper()
	r, err := a.Answer(context.Background(), session, question)
	if err != nil {
		t.Fatalf("Answer(%q) = %v", question, err)
	}
	checkReply(t, question, r)
	return r
}

// checkReply checks the reply's contract: within the length limit, and
// every referenced artifact quoted in the text, once, in order of use.
func checkReply(t *testing.T, question string, r Reply) {
	t.Helper()
	if n := len([]rune(r.Text)); n > quarry.MaxChatMessageLen || n == 0 {
		t.Errorf("Answer(%q): text of %d characters; want 1..%d", question, n, quarry.MaxChatMessageLen)
	}
	var cited []string
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`\[([^\[\]\s]+)\]`).FindAllStringSubmatch(r.Text, -1) {
		if m[0] != evidence.Marker && !seen[m[1]] {
			seen[m[1]] = true
			cited = append(cited, m[1])
		}
	}
	if len(cited) == 0 {
		cited = nil
	}
	if !reflect.DeepEqual(r.ArtifactsReferenced, cited) {
		t.Errorf("Answer(%q): ArtifactsReferenced = %q; want the refs the text cites, in order: %q", question, r.ArtifactsReferenced, cited)
	}
}

var hypIDs = regexp.MustCompile(`hyp_\d+`)

// ids returns the distinct hypothesis IDs in text, sorted.
func ids(text string) []string {
	set := map[string]bool{}
	for _, id := range hypIDs.FindAllString(text, -1) {
		set[id] = true
	}
	var out []string
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// revenueReport is report.md of the revenue demo, cut as retrieval cuts it.
func revenueReport(t *testing.T, scope string) []retrieve.Chunk {
	t.Helper()
	md, err := os.ReadFile("testdata/revenue_report.md")
	if err != nil {
		t.Fatal(err)
	}
	return retrieve.SplitMarkdown(scope, "report.md", string(md))
}

// withoutCountry returns the revenue memory as if its data had no country
// column.
func withoutCountry() []investigation.MemorySection {
	var out []investigation.MemorySection
	for _, s := range revenueMemory {
		s.Text = strings.ReplaceAll(s.Text, ", country", "")
		s.Text = strings.ReplaceAll(s.Text, " in 12 countries", "")
		out = append(out, s)
	}
	return out
}

func TestAnswerMethod(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory, "chk": checkoutMemory, "revr": revenueMemory}, revenueReport(t, "revr")...)
	tests := []struct {
		session, question, want string
	}{
		{"rev", "How did you calculate the contribution?", "The metric adds up over rows"},
		{"chk", "How did you calculate the contribution?", "The metric is a ratio"},
		{"revr", "How did you calculate the contribution?", "The metric adds up over rows"},
		{"chk", "how was the share of the change computed?", "rate and mix effects add up"},
		{"rev", "Which method did you use?", "Benjamini-Hochberg"},
	}
	for _, tt := range tests {
		r := ask(t, a, tt.session, tt.question)
		if !reflect.DeepEqual(r.ArtifactsReferenced, []string{"analysis/memory.md#method"}) {
			t.Errorf("[%s] Answer(%q) cites %q; want only the Method section", tt.session, tt.question, r.ArtifactsReferenced)
		}
		if !strings.HasPrefix(r.Text, "How the contributions were calculated:") || !strings.Contains(r.Text, tt.want) {
			t.Errorf("[%s] Answer(%q) = %q; want the Method section with %q", tt.session, tt.question, r.Text, tt.want)
		}
	}
}

func TestAnswerHypothesesByStatus(t *testing.T) {
	// One hypothesis ruled out, the rest confirmed: nothing is hard-wired.
	oneRuledOut := []investigation.MemorySection{
		{Ref: "analysis/hypotheses/hyp_001.json", Title: "Hypothesis hyp_001 CONFIRMED: Broken data", Text: "hyp_001 CONFIRMED: Broken data. 3 days are missing"},
		{Ref: "analysis/hypotheses/hyp_002.json", Title: "Hypothesis hyp_002 RULED_OUT: Weekday mix", Text: "hyp_002 RULED_OUT: Weekday mix. identical weekday composition"},
		{Ref: "analysis/iterations/iter_001.json", Title: "Finding find_001 (iteration 1, hyp_001)", Text: "Iteration 1 decided ANALYZE. broken data must be ruled out first"},
	}
	allConfirmed := oneRuledOut[:1]
	// Only the report's table, no hypothesis sections.
	reportOnly := []retrieve.Chunk{}
	for _, c := range revenueReport(t, "report") {
		if c.Ref == "report.md#hypotheses" {
			reportOnly = append(reportOnly, c)
		}
	}
	a := newAnswerer(t, map[string][]investigation.MemorySection{
		"rev": revenueMemory, "chk": checkoutMemory, "revr": revenueMemory,
		"one": oneRuledOut, "none": allConfirmed, "report": nil,
	}, append(revenueReport(t, "revr"), reportOnly...)...)

	ruledOut := []string{"analysis/hypotheses/hyp_001.json", "analysis/hypotheses/hyp_002.json", "analysis/hypotheses/hyp_007.json"}
	tests := []struct {
		session, question string
		wantIDs           []string
		wantRefs          []string
		wantStart         string
	}{
		{"rev", "Which hypotheses were ruled out and why?", []string{"hyp_001", "hyp_002", "hyp_007"}, ruledOut, "3 hypotheses were ruled out:\n"},
		{"chk", "Which hypotheses were ruled out and why?", []string{"hyp_001", "hyp_002", "hyp_007"}, ruledOut, "3 hypotheses were ruled out:\n"},
		{"revr", "which hypotheses were ruled out and why?", []string{"hyp_001", "hyp_002", "hyp_007"}, ruledOut, "3 hypotheses were ruled out:\n"},
		{"rev", "What did you rule out?", []string{"hyp_001", "hyp_002", "hyp_007"}, ruledOut, "3 hypotheses were ruled out:\n"},
		{"rev", "Which hypotheses were confirmed?", []string{"hyp_003", "hyp_004", "hyp_005", "hyp_006"},
			[]string{"analysis/hypotheses/hyp_003.json", "analysis/hypotheses/hyp_004.json", "analysis/hypotheses/hyp_005.json", "analysis/hypotheses/hyp_006.json"}, "4 hypotheses were confirmed:\n"},
		{"one", "Which hypotheses were rejected?", []string{"hyp_002"}, []string{"analysis/hypotheses/hyp_002.json"}, "1 hypothesis was ruled out:\n"},
		{"none", "Which hypotheses were ruled out?", nil, nil, "No hypothesis was ruled out."},
		{"report", "Which hypotheses were ruled out and why?", []string{"hyp_001", "hyp_002", "hyp_007"}, []string{"report.md#hypotheses"}, "3 hypotheses were ruled out:\n"},
	}
	for _, tt := range tests {
		r := ask(t, a, tt.session, tt.question)
		if got := ids(r.Text); !reflect.DeepEqual(got, tt.wantIDs) {
			t.Errorf("[%s] Answer(%q) names %q; want exactly %q\n%s", tt.session, tt.question, got, tt.wantIDs, r.Text)
		}
		if !reflect.DeepEqual(r.ArtifactsReferenced, tt.wantRefs) {
			t.Errorf("[%s] Answer(%q) cites %q; want %q", tt.session, tt.question, r.ArtifactsReferenced, tt.wantRefs)
		}
		if !strings.HasPrefix(r.Text, tt.wantStart) {
			t.Errorf("[%s] Answer(%q) = %q; want it to start %q", tt.session, tt.question, r.Text, tt.wantStart)
		}
	}
	// The reason comes with each hypothesis.
	r := ask(t, a, "rev", "Which hypotheses were ruled out and why?")
	for _, verdict := range []string{"the data of both periods passed every data-quality check", "identical weekday composition", "alone explains 59% of the change"} {
		if !strings.Contains(r.Text, verdict) {
			t.Errorf("the ruled-out answer lacks the verdict %q:\n%s", verdict, r.Text)
		}
	}
}

func TestAnswerCountry(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"chk": checkoutMemory, "rev": revenueMemory, "nocountry": withoutCountry()})

	r := ask(t, a, "chk", "What about Germany?")
	if !contains(r.ArtifactsReferenced, "analysis/iterations/iter_006.json") || !strings.Contains(r.Text, "country=DE") {
		t.Errorf("Answer(Germany) on checkout = %q, citing %q; want the finding on country=DE (iter_006)", r.Text, r.ArtifactsReferenced)
	}
	// iter_007 mentions DE only inside its SQL, which is never quoted.
	if contains(r.ArtifactsReferenced, "analysis/iterations/iter_007.json") || strings.Contains(r.Text, "SELECT") {
		t.Errorf("Answer(Germany) quoted SQL: %q", r.Text)
	}

	tests := []struct {
		session, question, want string
	}{
		{"rev", "What about Germany?", notLooked + " It examined the change by these dimensions: platform, customers.segment, app_version, customers.region, channel, country; segments its findings do not name did not stand out. " + canAnswer},
		{"nocountry", "What about Germany?", notLooked + " It examined the change by these dimensions: platform, customers.segment, app_version, customers.region, channel; segments its findings do not name did not stand out. " + canAnswer},
		{"nocountry", "and the United Kingdom?", notLooked + " It examined the change by these dimensions: platform, customers.segment, app_version, customers.region, channel; segments its findings do not name did not stand out. " + canAnswer},
	}
	for _, tt := range tests {
		r := ask(t, a, tt.session, tt.question)
		if r.Text != tt.want || r.ArtifactsReferenced != nil {
			t.Errorf("[%s] Answer(%q) = %q, %q; want %q and no refs", tt.session, tt.question, r.Text, r.ArtifactsReferenced, tt.want)
		}
	}
}

func TestAnswerUnrelated(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"chk": checkoutMemory, "rev": revenueMemory, "bare": {{Ref: "context.json", Title: "Context", Text: "Metric: SELECT SUM(x) FROM t"}}})
	tests := []struct {
		session, question, want string
	}{
		{"chk", "What is the weather in Paris?", notLooked + " It examined the change by these dimensions: device, traffic_source, country; segments its findings do not name did not stand out. " + canAnswer},
		{"rev", "What is the weather in Paris?", notLooked + " It examined the change by these dimensions: platform, customers.segment, app_version, customers.region, channel, country; segments its findings do not name did not stand out. " + canAnswer},
		{"bare", "What is the weather in Paris?", notLooked + " " + canAnswer},
		{"unknown-session", "What about Germany?", notLooked + " " + canAnswer},
		{"chk", "why did revenue fall?", notLooked + " It examined the change by these dimensions: device, traffic_source, country; segments its findings do not name did not stand out. " + canAnswer},
		{"chk", "???", notLooked + " It examined the change by these dimensions: device, traffic_source, country; segments its findings do not name did not stand out. " + canAnswer},
		{"chk", "what is it?", notLooked + " It examined the change by these dimensions: device, traffic_source, country; segments its findings do not name did not stand out. " + canAnswer},
	}
	for _, tt := range tests {
		r := ask(t, a, tt.session, tt.question)
		if r.Text != tt.want || r.ArtifactsReferenced != nil {
			t.Errorf("[%s] Answer(%q) = %q, %q; want %q and no refs", tt.session, tt.question, r.Text, r.ArtifactsReferenced, tt.want)
		}
	}
}

func TestAnswerWhy(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory, "chk": checkoutMemory})
	tests := []struct {
		session, question string
		wantFirst         []string
	}{
		{"rev", "Why did revenue fall?", []string{"results/explanations.json", "results/explanations.json#1", "results/explanations.json#2"}},
		{"chk", "Why did checkout conversion drop?", []string{"results/explanations.json", "results/explanations.json#1", "results/explanations.json#2", "results/explanations.json#3"}},
	}
	for _, tt := range tests {
		r := ask(t, a, tt.session, tt.question)
		if len(r.ArtifactsReferenced) < len(tt.wantFirst) || !reflect.DeepEqual(r.ArtifactsReferenced[:len(tt.wantFirst)], tt.wantFirst) {
			t.Errorf("[%s] Answer(%q) cites %q; want %q first", tt.session, tt.question, r.ArtifactsReferenced, tt.wantFirst)
		}
	}
	r := ask(t, a, "rev", "Why did revenue fall?")
	if !strings.HasPrefix(r.Text, "- The metric moved from 947,083 to 849,350 (-97,732, -10.3%); p<0.0001. [results/explanations.json]\n- Fewer rows in platform=android AND app_version=5.2: 1,595 to 492") {
		t.Errorf("Answer(why) = %q; want the overall change, then explanation 1", r.Text)
	}
}

func TestAnswerQuotesNumbersWithRefs(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
	r := ask(t, a, "rev", "What about app_version 5.2?")
	want := "- hyp_003 CONFIRMED: A specific combination of segments moved. platform=android AND app_version=5.2 explains 59% of the change (q<0.0001). [analysis/hypotheses/hyp_003.json]"
	if !strings.Contains(r.Text, want+"\n") {
		t.Errorf("Answer(app_version 5.2) = %q; want the line %q", r.Text, want)
	}
	if len(r.ArtifactsReferenced) == 0 || r.ArtifactsReferenced[0] != "results/explanations.json#1" {
		t.Errorf("Answer(app_version 5.2) cites %q; want the top explanation first", r.ArtifactsReferenced)
	}

	r = ask(t, a, "rev", "Show me the SQL of iteration 3")
	if !strings.HasPrefix(r.Text, `- Iteration 3 decided PIVOT. decompose the change by platform. SQL: SELECT "orders"."platform" AS value`) {
		t.Errorf("Answer(SQL) = %q; want iteration 3's SQL first", r.Text)
	}
}

func TestAnswerValidates(t *testing.T) {
	a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
	for _, q := range []string{"", "  \n\t", strings.Repeat("é", quarry.MaxChatMessageLen+1)} {
		_, err := a.Answer(context.Background(), "rev", q)
		if quarry.ErrorCode(err) != quarry.ECodeInvalid {
			t.Errorf("Answer(%.20q...) = %v; want code %s", q, err, quarry.ECodeInvalid)
		}
	}
	ask(t, a, "rev", strings.Repeat("é", quarry.MaxChatMessageLen)) // at the limit: fine
}

// TestAnswerStaysWithinLimit fills a memory with long passages that all
// match the question.
func TestAnswerStaysWithinLimit(t *testing.T) {
	var long []investigation.MemorySection
	for i := 0; i < 30; i++ {
		var text strings.Builder
		for j := 0; j < 14; j++ {
			fmt.Fprintf(&text, "Revenue in platform=android dropped by 12%% in week %d of %d while the share of the change stayed at 59%%. ", j, i)
		}
		text.WriteString(strings.Repeat("x", 900))
		long = append(long, investigation.MemorySection{Ref: fmt.Sprintf("analysis/iterations/iter_%03d.json", i), Title: fmt.Sprintf("Method %d", i), Text: text.String()})
	}
	a := newAnswerer(t, map[string][]investigation.MemorySection{"long": long})
	a.K = 30
	for _, q := range []string{"why did android revenue drop?", "how did you calculate the share?", "android 12% 59%"} {
		r := ask(t, a, "long", q) // checkReply checks the length and the refs
		if len(r.Text) < quarry.MaxChatMessageLen-600 {
			t.Errorf("Answer(%q) is %d bytes; want it near the limit, for this test to test the limit", q, len(r.Text))
		}
	}
}

// failingIndex is an index whose searches fail.
type failingIndex struct{ retrieve.Index }

func (failingIndex) Search(context.Context, string, string, int) ([]retrieve.Hit, error) {
	return nil, errors.New("disk on fire")
}

func TestAnswerIndexError(t *testing.T) {
	a := &Answerer{Index: failingIndex{}}
	for _, q := range []string{"what about Germany?", "which hypotheses were ruled out?", "how did you calculate it?"} {
		if _, err := a.Answer(context.Background(), "s", q); err == nil || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("Answer(%q) = %v; want the index's error", q, err)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package investigations_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
)

// order is one row of the revenue_drop orders, read in plain Go for the
// numbers the chat's answers are checked against.
type order struct {
	day, platform, country string
	amount                 float64
}

func revenueOrders(t *testing.T, path string) []order {
	t.Helper()
	tb, err := sampledata.ReadTable(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]order, len(tb.Rows))
	for i := range tb.Rows {
		out[i] = order{day: tb.Get(i, "order_date"), platform: tb.Get(i, "platform"), country: tb.Get(i, "country"), amount: tb.Num(i, "amount")}
	}
	return out
}

func sumWhere(os []order, keep func(order) bool) float64 {
	var s float64
	for _, o := range os {
		if keep(o) {
			s += o.amount
		}
	}
	return s
}

// people prints a number as the chat does for values of a thousand and
// more: rounded, with thousands separators.
func people(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if v < 0 {
		return "-" + s
	}
	return s
}

// TestChatAnswersWithNumbers asks a finished revenue_drop investigation the
// questions people ask after one, and checks each number against a sum done
// here over the CSV, and each citation against the audit log.
func TestChatAnswersWithNumbers(t *testing.T) {
	dir, id, paths, a := finishedRevenueDrop(t)
	scen, _ := sampledata.Get("revenue_drop")
	ctx := context.Background()
	orders := revenueOrders(t, paths[0])
	inBase := func(o order) bool {
		return o.day >= scen.Baseline.Start.String() && o.day <= scen.Baseline.End.String()
	}
	inCmp := func(o order) bool {
		return o.day >= scen.Comparison.Start.String() && o.day <= scen.Comparison.End.String()
	}
	day := sumWhere(orders, func(o order) bool { return o.day == "2024-03-20" })
	iosBase := sumWhere(orders, func(o order) bool { return inBase(o) && o.platform == "ios" })
	noAndroid0 := sumWhere(orders, func(o order) bool { return inBase(o) && o.platform != "android" })
	noAndroid1 := sumWhere(orders, func(o order) bool { return inCmp(o) && o.platform != "android" })
	de0 := sumWhere(orders, func(o order) bool { return inBase(o) && o.country == "DE" })
	de1 := sumWhere(orders, func(o order) bool { return inCmp(o) && o.country == "DE" })
	// The country that fell most.
	worst, worstChange := "", math.Inf(1)
	for _, ctry := range []string{"US", "GB", "DE", "FR", "CA", "AU", "MX", "IN", "BR", "JP"} {
		ch := sumWhere(orders, func(o order) bool { return inCmp(o) && o.country == ctry }) - sumWhere(orders, func(o order) bool { return inBase(o) && o.country == ctry })
		if ch < worstChange {
			worst, worstChange = ctry, ch
		}
	}

	tests := []struct {
		kind, question string
		want           []string // in the answer, in order
		cites          string   // prefix of a cited artifact
	}{
		{"value on a date", "What was revenue on 2024-03-20?", []string{people(day)}, "audit.jsonl#"},
		{"segment in a period", "How much did ios make in the baseline?", []string{people(iosBase), "platform=ios", "baseline"}, "audit.jsonl#"},
		{"change without a segment", "What was the change without android?", []string{people(noAndroid0), people(noAndroid1), "without platform=android"}, "audit.jsonl#"},
		{"top movers down", "Which countries fell most?", []string{"Largest falls", worst + " " + people(worstChange)}, "audit.jsonl#"},
		{"segment in both periods, by alias", "What about Germany?", []string{people(de0), people(de1), "country=DE"}, "audit.jsonl#"},
		{"how a number was computed", "How did you calculate the contribution?", []string{"contribution"}, ""},
		{"a data problem", "Is there double counting?", []string{"No:", "double counting"}, "analysis/hypotheses/"},
		{"a gap", "Are there missing days?", []string{"No:", "missing"}, "analysis/hypotheses/"},
		{"cannot answer", "What is the weather in Paris?", []string{"I can't answer that from this investigation", "Ask instead"}, ""},
	}
	entries := func() map[int]quarry.AuditEntry {
		raw, _ := os.ReadFile(filepath.Join(dir, "data", "sessions", id, "audit.jsonl"))
		out := map[int]quarry.AuditEntry{}
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var e quarry.AuditEntry
			if json.Unmarshal([]byte(line), &e) == nil {
				out[e.SequenceNumber] = e
			}
		}
		return out
	}
	for _, tt := range tests {
		msg, err := a.Investigations.Chat(ctx, id, tt.question)
		if err != nil {
			t.Fatalf("%s: %v", tt.kind, err)
		}
		at := 0
		for _, w := range tt.want {
			i := strings.Index(msg.Content[at:], w)
			if i < 0 {
				t.Errorf("%s: %q lacks %q (in order)", tt.kind, msg.Content, w)
				break
			}
			at += i + len(w)
		}
		if tt.cites == "" {
			continue
		}
		var ref string
		for _, r := range msg.ArtifactsReferenced {
			if strings.HasPrefix(r, tt.cites) {
				ref = r
			}
		}
		if ref == "" {
			t.Errorf("%s: cites %v; want %s...", tt.kind, msg.ArtifactsReferenced, tt.cites)
			continue
		}
		if seq, ok := strings.CutPrefix(ref, "audit.jsonl#"); ok {
			n, _ := strconv.Atoi(seq)
			e := entries()[n]
			if e.EventType != quarry.EventObservationRecorded || e.Actor != "chat" || e.EventData["success"] != true {
				t.Errorf("%s: cites audit entry %d, which is %+v", tt.kind, n, e)
			}
		}
	}
}

// finishedRevenueDrop investigates revenue_drop in a fresh data dir (under
// dir/data) and returns the session, the sample's paths and the app.
func finishedRevenueDrop(t *testing.T) (dir, id string, paths []string, a *app.App) {
	t.Helper()
	dir = t.TempDir()
	scen, _ := sampledata.Get("revenue_drop")
	paths, err := sampledata.WriteScenario(filepath.Join(dir, "in"), scen)
	if err != nil {
		t.Fatal(err)
	}
	a, err = app.Open(context.Background(), app.Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ctx := context.Background()
	s, _ := a.Investigations.Create(ctx, "")
	id = s.SessionID
	for _, p := range paths {
		f, _ := os.Open(p)
		if _, err := a.Investigations.AddFile(ctx, id, filepath.Base(p), "", f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	c := investigation.Context{MetricSQL: scen.MetricSQL, BaselinePeriod: scen.Baseline, ComparisonPeriod: scen.Comparison}
	if err := a.Investigations.Investigate(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	_, live, cancel, err := a.Investigations.Subscribe(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for range live {
	}
	cancel()
	return dir, id, paths, a
}

// TestChatHistoryKeepsEveryMessage: two apps over one data dir, as quarry
// serve and quarry mcp are, chat at once; no message is lost.
func TestChatHistoryKeepsEveryMessage(t *testing.T) {
	dir, id, _, a := finishedRevenueDrop(t)
	b, err := app.Open(context.Background(), app.Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var wg sync.WaitGroup
	const each = 10
	for _, m := range []*investigations.Service{a.Investigations, b.Investigations} {
		for i := 0; i < each; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := m.Chat(context.Background(), id, "Which hypotheses were ruled out?"); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	hist, err := a.Investigations.History(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2*2*each {
		t.Fatalf("history holds %d messages; want %d", len(hist), 2*2*each)
	}
}

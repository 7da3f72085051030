package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// fakeData is a session's data whose query answers every SQL with the same
// two period rows and records what it was asked.
type fakeData struct {
	sqls []string
}

func (f *fakeData) data(ctx context.Context, sessionID string) (*Data, error) {
	return &Data{
		Metric: investigation.Metric{Numerator: "sum(amount)", From: "orders", TimeColumn: "orders.day", Scale: 1},
		Base:   quarry.DateRange{Start: quarry.MustParseDate("2024-03-04"), End: quarry.MustParseDate("2024-03-17")},
		Cmp:    quarry.DateRange{Start: quarry.MustParseDate("2024-03-18"), End: quarry.MustParseDate("2024-03-31")},
		Dimensions: []Dimension{
			{Name: "country", Expr: "orders.country", Values: []string{"DE", "FR", "US"}},
			{Name: "platform", Expr: "orders.platform", Values: []string{"android", "ios", "web"}},
		},
		Query: func(ctx context.Context, purpose, sql string) (*quarry.QueryResult, int, error) {
			f.sqls = append(f.sqls, sql)
			switch {
			case strings.Contains(sql, "AS value"): // movers
				return &quarry.QueryResult{Columns: []string{"value", "period", "num", "den"}, Rows: [][]any{
					{"android", int64(0), 500.0, 1.0}, {"android", int64(1), 200.0, 1.0},
					{"ios", int64(0), 400.0, 1.0}, {"ios", int64(1), 390.0, 1.0}}}, 42, nil
			case strings.Contains(sql, "count(*) AS n"): // one day
				return &quarry.QueryResult{Columns: []string{"num", "den", "n"}, Rows: [][]any{{61.5, 1.0, int64(3)}}}, 42, nil
			}
			return &quarry.QueryResult{Columns: []string{"period", "num", "den"},
				Rows: [][]any{{int64(0), 1234.5, 1.0}, {int64(1), 987.25, 1.0}}}, 42, nil
		},
	}, nil
}

// picks is a scripted model that picks choice for every query request and
// answers nothing else.
func picks(choice map[string]any) *llmtest.Model {
	base := map[string]any{"kind": "none", "dimension": "", "value": "", "without": false, "day": "", "period": "both", "direction": "any", "n": 3}
	for k, v := range choice {
		base[k] = v
	}
	return &llmtest.Model{Purposes: map[string]llmtest.Reply{queryPurpose: llmtest.Fixed(llmtest.JSON(base))}}
}

// TestModelPicksTheDataQuery: with a model, the model picks the data query
// (here one the offline parse cannot find: the largest market in Europe,
// which the model reads as DE); the
// query runs as offline, recorded, and the answer's numbers are its
// result's. A pick the data does not have falls back to the offline one.
func TestModelPicksTheDataQuery(t *testing.T) {
	t.Run("model's pick", func(t *testing.T) {
		f := &fakeData{}
		a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
		m := picks(map[string]any{"kind": "period", "dimension": "country", "value": "DE"})
		a.Model, a.Data = m, f.data
		const q = "How did our largest market in Europe do?"
		if parseData(q, mustData(t, f)) != nil {
			t.Fatalf("the offline parse finds a query for %q; the test needs one it misses", q)
		}
		r, err := a.Answer(context.Background(), "rev", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.sqls) != 1 || !strings.Contains(f.sqls[0], "CAST(orders.country AS VARCHAR) = 'DE'") {
			t.Fatalf("queries %q; want one for country=DE", f.sqls)
		}
		want := "1,234 → 987.25 (-247.25, -20.0%): sum(amount) for country=DE, baseline (2024-03-04..2024-03-17) to comparison (2024-03-18..2024-03-31). [1]"
		if !strings.HasPrefix(r.Text, want) || len(r.ArtifactsReferenced) != 1 || r.ArtifactsReferenced[0] != "audit.jsonl#42" {
			t.Errorf("reply %q %v; want %q citing audit.jsonl#42", r.Text, r.ArtifactsReferenced, want)
		}
		calls := m.Calls()
		if len(calls) != 1 || calls[0].Request.Purpose != queryPurpose || calls[0].Request.Output != querySchema {
			t.Fatalf("model calls %+v; want one query pick with its schema", calls)
		}
		prompt := calls[0].Request.Messages[0].Content
		for _, want := range []string{"- country: DE, FR, US", "- platform: android, ios, web", "Question: How did our largest market in Europe do?", "Baseline period: 2024-03-04..2024-03-17"} {
			if !strings.Contains(prompt, want) {
				t.Errorf("prompt lacks %q:\n%s", want, prompt)
			}
		}
	})
	t.Run("movers", func(t *testing.T) {
		f := &fakeData{}
		a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
		a.Model, a.Data = picks(map[string]any{"kind": "movers", "dimension": "platform", "direction": "down", "n": 2}), f.data
		if _, err := a.Answer(context.Background(), "rev", "Where did we lose the most?"); err != nil {
			t.Fatal(err)
		}
		if len(f.sqls) != 1 || !strings.Contains(f.sqls[0], "CAST(orders.platform AS VARCHAR) AS value") {
			t.Fatalf("queries %q; want the movers of platform", f.sqls)
		}
	})
	for name, bad := range map[string]map[string]any{
		"unknown value":     {"kind": "period", "dimension": "country", "value": "Atlantis"},
		"unknown dimension": {"kind": "movers", "dimension": "planet"},
		"bad date":          {"kind": "day", "day": "the 20th"},
		"none":              {"kind": "none"},
	} {
		t.Run(name+" falls back", func(t *testing.T) {
			f := &fakeData{}
			a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
			a.Model, a.Data = picks(bad), f.data
			r, err := a.Answer(context.Background(), "rev", "What was revenue in FR on 2024-03-20?")
			if err != nil {
				t.Fatal(err)
			}
			if len(f.sqls) != 1 || !strings.Contains(f.sqls[0], "DATE '2024-03-20'") || !strings.Contains(f.sqls[0], "= 'FR'") {
				t.Fatalf("queries %q; want the offline pick, FR on 2024-03-20", f.sqls)
			}
			if !strings.Contains(r.Text, "country=FR on 2024-03-20") {
				t.Errorf("reply %q", r.Text)
			}
		})
	}
	t.Run("model down", func(t *testing.T) {
		f := &fakeData{}
		a := newAnswerer(t, map[string][]investigation.MemorySection{"rev": revenueMemory})
		a.Model = &llmtest.Model{Reply: func(*llm.Request) (*llm.Response, error) {
			return nil, &llm.Error{Kind: llm.KindUnavailable, Provider: "scripted", Message: "down"}
		}}
		a.Data = f.data
		if _, err := a.Answer(context.Background(), "rev", "What was revenue on 2024-03-20?"); err != nil {
			t.Fatal(err)
		}
		if len(f.sqls) != 1 || !strings.Contains(f.sqls[0], "DATE '2024-03-20'") {
			t.Fatalf("queries %q; want the offline pick", f.sqls)
		}
	})
}

func mustData(t *testing.T, f *fakeData) *Data {
	t.Helper()
	d, err := f.data(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

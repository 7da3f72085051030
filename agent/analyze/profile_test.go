package analyze_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analysis"
)

// nonFiniteCSV has what real files hold and JSON cannot: a constant column
// (its skewness and kurtosis are NaN in DuckDB), NaN and infinities read
// as DOUBLE, and a column that is only NaN. internal/sweep found the first
// in statsmodels' fair_pt.csv and vega-datasets' political-contributions.
const nonFiniteCSV = `day,constant,x,y,allnan,g
2020-01-01,1.0,1.5,NaN,NaN,a
2020-01-02,1.0,inf,2,NaN,b
2020-01-03,1.0,-inf,3,NaN,a
2020-01-04,1.0,nan,4,NaN,b
2020-01-05,1.0,2,5,NaN,a
`

// TestNonFiniteValues runs requests over nonFiniteCSV: each completes,
// charts included, its result is JSON, and the profile's statistics are
// those of the finite values.
func TestNonFiniteValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nonfinite.csv")
	if err := os.WriteFile(path, []byte(nonFiniteCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	// "total x by g" charts -Inf for a and NaN for b, as gaps.
	for _, intent := range []string{"summary statistics", "average y by g", "total y by day", "total x by g"} {
		t.Run(intent, func(t *testing.T) {
			e := newEnv(t)
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: intent, DataSources: []analysis.DataSource{csvSource(path)},
				Deliverables: []string{analysis.DeliverTables, analysis.DeliverCharts, analysis.DeliverSummary}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != analysis.StatusCompleted {
				t.Fatalf("status %s (%v); undelivered %v", res.Status, res.Error, res.Undelivered)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("the result is not JSON: %v", err)
			}
			for _, o := range res.Observations {
				if o.Status != analysis.ObsSuccess {
					t.Errorf("step %s: %s %v", o.TaskID, o.Status, *o.ErrorMessage)
				}
			}
			if intent != "summary statistics" {
				return
			}
			profiles := observationOf(t, res, "profile").Data.(map[string]any)["profile"].([]analyze.ColumnProfile)
			byName := map[string]analyze.ColumnProfile{}
			for _, p := range profiles {
				byName[p.Column] = p
			}
			c := byName["constant"]
			if c.Mean == nil || *c.Mean != 1 || c.Std == nil || *c.Std != 0 || c.Skewness != nil || c.Kurtosis != nil {
				t.Errorf("constant column: mean %v std %v skewness %v kurtosis %v; want 1, 0 and no skewness or kurtosis",
					c.Mean, c.Std, c.Skewness, c.Kurtosis)
			}
			// x's finite values are 1.5 and 2; its five values all count.
			x := byName["x"]
			if x.Count != 5 || x.Min == nil || *x.Min != 1.5 || x.Max == nil || *x.Max != 2 || x.Mean == nil || *x.Mean != 1.75 {
				t.Errorf("x: count %d min %v max %v mean %v; want 5, 1.5, 2, 1.75", x.Count, x.Min, x.Max, x.Mean)
			}
			if y := byName["y"]; y.Mean == nil || *y.Mean != 3.5 {
				t.Errorf("y: mean %v; want 3.5, the mean of 2, 3, 4, 5", y.Mean)
			}
			if n := byName["allnan"]; n.Mean != nil || n.Min != nil {
				t.Errorf("allnan: mean %v min %v; want none", n.Mean, n.Min)
			}
		})
	}
}

// refusingLog is an audit log that takes every entry but the observations
// of one step, as a log that cannot encode a value would.
type refusingLog struct {
	analyze.Auditor
	task string
}

func (l refusingLog) AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	if eventType == quarry.EventObservationRecorded && data["task_id"] == l.task {
		return quarry.AuditEntry{}, errors.New("json: unsupported value")
	}
	return l.Auditor.AppendFor(requestID, eventType, actor, data)
}

// TestObservationTheLogRefuses: a step whose observation the audit log
// cannot take fails, and the result it leaves is still saved as JSON,
// without that observation's data.
func TestObservationTheLogRefuses(t *testing.T) {
	e := newEnv(t)
	e.a.Audit = refusingLog{Auditor: e.log, task: "totals"}
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "total amount by state", DataSources: []analysis.DataSource{csvSource(salesCSV)},
		Deliverables: []string{analysis.DeliverTables, analysis.DeliverSummary}})
	if err != nil {
		t.Fatalf("the analysis is not saved: %v", err)
	}
	for _, st := range res.Plan.Subtasks {
		if st.TaskID == "totals" && st.Status != analysis.TaskFailed {
			t.Errorf("the totals step is %s; want %s", st.Status, analysis.TaskFailed)
		}
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("the result is not JSON: %v", err)
	}
	for _, o := range res.Observations {
		if o.TaskID == "totals" && o.Data != nil {
			t.Errorf("the totals observation keeps its data %v after the log refused it", o.Data)
		}
	}
}

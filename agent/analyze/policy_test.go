package analyze_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

const peopleCSV = "name,email,ssn,region,amount\n" +
	"Ann,ann@example.com,123-45-6789,west,10\n" +
	"Bob,bob@example.org,987-65-4321,east,20\n" +
	"Cy,none,111-22-3333,west,5\n"

// A column outside allowed_columns cannot be reached by any route the
// parser sees; allowed columns and the query's own aliases pass.
func TestAllowedColumns(t *testing.T) {
	data := writeCSV(t, "people.csv", peopleCSV)
	tests := []struct {
		name, query string
		allowed     bool
	}{
		{"direct", "SELECT ssn FROM people", false},
		{"alias", "SELECT ssn AS x FROM people", false},
		{"subquery", "SELECT x FROM (SELECT ssn AS x FROM people) s", false},
		{"star", "SELECT * FROM people", false},
		{"star in a subquery", "SELECT region FROM (SELECT * FROM people) s", false},
		{"CTE", "WITH c AS (SELECT ssn AS region FROM people) SELECT region FROM c", false},
		{"function", "SELECT upper(email) AS region FROM people", false},
		{"qualified", "SELECT p.ssn FROM people p", false},
		{"filter", "SELECT region FROM people WHERE ssn LIKE '1%'", false},
		{"allowed with aliases", "SELECT region, SUM(amount) AS total FROM people GROUP BY region ORDER BY total", true},
		{"allowed through a CTE", "WITH t AS (SELECT region, amount AS a FROM people) SELECT region, SUM(a) AS s FROM t GROUP BY region", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: tt.name, ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": tt.query}, Deliverable: analysis.DeliverTables})
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)},
				Policy: analysis.Policy{AllowedColumns: []string{"region", "amount"}}, Deliverables: []string{analysis.DeliverTables}})
			if err != nil {
				t.Fatal(err)
			}
			var decisions []string
			for _, ev := range readLog(t, e.store.AuditLog()) {
				if ev.EventType == quarry.EventPolicyDecision {
					if ev.Actor != "safety" {
						t.Errorf("policy decision by %s", ev.Actor)
					}
					decisions = append(decisions, ev.EventData["decision"].(string))
				}
			}
			if tt.allowed {
				if res.Status != analysis.StatusCompleted || !strings.Contains(strings.Join(decisions, ","), "allow") {
					t.Fatalf("status %s, decisions %v, observations %+v; want it run", res.Status, decisions, res.Observations)
				}
				return
			}
			if res.Status != analysis.StatusFailed || len(res.Observations) != 1 {
				t.Fatalf("status %s with %d attempts; want refused once, not retried", res.Status, len(res.Observations))
			}
			if msg := *res.Observations[0].ErrorMessage; !strings.Contains(msg, "allowed") {
				t.Errorf("refusal says %q", msg)
			}
			if len(decisions) != 1 || decisions[0] != "refuse" {
				t.Errorf("policy decisions %v; want one refuse", decisions)
			}
		})
	}
}

// Values matching blocked patterns (by default e-mail addresses and
// national ids) are masked in results, and each masked column is logged.
func TestBlockedPatternsMask(t *testing.T) {
	e := newEnv(t)
	data := writeCSV(t, "people.csv", peopleCSV)
	e.a.Planner = planOf(analysis.Subtask{TaskID: "q", Description: "names", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": "SELECT name, email, ssn, region FROM people ORDER BY name"}, Deliverable: analysis.DeliverTables})
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "test", DataSources: []analysis.DataSource{csvSource(data)}, Deliverables: []string{analysis.DeliverTables}})
	if err != nil || res.Status != analysis.StatusCompleted {
		t.Fatalf("%v %v", res, err)
	}
	rows := observationOf(t, res, "q").Data.(map[string]any)["rows"].([][]any)
	if rows[0][1] != "[masked]" || rows[0][2] != "[masked]" || rows[2][1] != "none" || rows[0][0] != "Ann" || rows[0][3] != "west" {
		t.Errorf("rows %v; want e-mails and SSNs masked, the rest kept", rows)
	}
	masks := 0
	for _, ev := range readLog(t, e.store.AuditLog()) {
		if ev.EventType == quarry.EventPolicyDecision && ev.EventData["decision"] == "mask" {
			masks++
		}
		if strings.Contains(stringOf(ev.EventData), "ann@example.com") {
			t.Errorf("entry %d carries an e-mail address", ev.SequenceNumber)
		}
	}
	if masks != 2 {
		t.Errorf("%d mask decisions; want one per column (email, ssn)", masks)
	}
}

func stringOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

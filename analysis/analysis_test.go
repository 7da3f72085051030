package analysis_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

func validRequest() analysis.Request {
	r := analysis.Request{
		Intent:      "Analyze Q1 2021 Arizona sales; trends + charts",
		DataSources: []analysis.DataSource{{Type: analysis.SourceCSV, Name: "sales", FilePath: "sales.csv"}},
	}
	r.Normalize(time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC))
	return r
}

func TestRequestDefaults(t *testing.T) {
	r := validRequest()
	if r.Constraints != (analysis.Constraints{RowLimit: 200_000, TimeoutSeconds: 30}) || r.Status != analysis.StatusSubmitted ||
		!reflect.DeepEqual(r.Deliverables, analysis.AllDeliverables) || r.Timestamp != "2024-05-01T09:00:00Z" {
		t.Errorf("Normalize = %+v", r)
	}
	if err := r.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestRequestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*analysis.Request)
		want   string // part of the message
	}{
		{"empty intent", func(r *analysis.Request) { r.Intent = "  " }, "empty"},
		{"2001 characters", func(r *analysis.Request) { r.Intent = strings.Repeat("é", 2001) }, "2001 characters"},
		{"2000 characters are fine", func(r *analysis.Request) { r.Intent = strings.Repeat("é", 2000) }, ""},
		{"control character", func(r *analysis.Request) { r.Intent = "sales\x00 by month" }, "control character"},
		{"no sources", func(r *analysis.Request) { r.DataSources = nil }, "no data source"},
		{"unknown source type", func(r *analysis.Request) { r.DataSources[0].Type = "xls" }, "unknown data source type"},
		{"file source without path", func(r *analysis.Request) { r.DataSources[0].FilePath = "" }, "file_path"},
		{"sql source without DSN", func(r *analysis.Request) {
			r.DataSources = append(r.DataSources, analysis.DataSource{Type: analysis.SourceSQL, Name: "db"})
		}, "connection_string"},
		{"two sources, one name", func(r *analysis.Request) {
			r.DataSources = append(r.DataSources, analysis.DataSource{Type: analysis.SourceCSV, Name: "Sales", FilePath: "b.csv"})
		}, "two data sources"},
		{"row limit 0 after defaults", func(r *analysis.Request) { r.Constraints.RowLimit = -1 }, "row_limit -1"},
		{"row limit over", func(r *analysis.Request) { r.Constraints.RowLimit = 200_001 }, "row_limit 200001"},
		{"timeout over", func(r *analysis.Request) { r.Constraints.TimeoutSeconds = 181 }, "timeout_seconds 181"},
		{"unknown deliverable", func(r *analysis.Request) { r.Deliverables = []string{"slides"} }, "unknown deliverable"},
		{"bad pattern", func(r *analysis.Request) { r.Policy.BlockedPatterns = []string{"(unclosed"} }, "not a regular expression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRequest()
			tt.change(&r)
			err := r.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v; want INVALID mentioning %q", err, tt.want)
			}
		})
	}
}

func step(id, tool string, deps []string, args map[string]any) analysis.Subtask {
	return analysis.Subtask{TaskID: id, ToolName: tool, Dependencies: deps, Arguments: args, EstimatedCostSeconds: 1}
}

func validPlan() analysis.Plan {
	return analysis.Plan{Subtasks: []analysis.Subtask{
		step("load", analysis.ToolSQL, nil, map[string]any{"query": "SELECT * FROM sales"}),
		step("monthly", analysis.ToolDF, []string{"load"}, map[string]any{"input": "load", "operation": "aggregate", "aggregation": "sum", "columns": []any{"amount"}, "group_by": []any{"month"}}),
		step("profile", analysis.ToolProfile, []string{"load"}, map[string]any{"input": "load"}),
		step("chart", analysis.ToolPlot, []string{"monthly"}, map[string]any{"input": "monthly", "type": "line", "x_col": "month", "y_col": "amount", "title": "Sales by month"}),
	}}
}

func TestPlanValidate(t *testing.T) {
	p := validPlan()
	if err := p.Validate(analysis.Tools, 30); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if p.Status != analysis.PlanValidated || p.TotalEstimatedSeconds != 4 {
		t.Errorf("status %s, total %v; want validated, 4", p.Status, p.TotalEstimatedSeconds)
	}
	if got, want := p.Levels(), [][]string{{"load"}, {"monthly", "profile"}, {"chart"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Levels = %v; want %v", got, want)
	}

	tests := []struct {
		name   string
		change func(*analysis.Plan)
		want   string
	}{
		{"no steps", func(p *analysis.Plan) { p.Subtasks = nil }, "no steps"},
		{"cycle", func(p *analysis.Plan) { p.Subtasks[0].Dependencies = []string{"chart"} }, "cycle: load -> monthly -> chart -> load"},
		{"self", func(p *analysis.Plan) { p.Subtasks[2].Dependencies = []string{"profile"} }, "depends on itself"},
		{"unknown dependency", func(p *analysis.Plan) { p.Subtasks[1].Dependencies = []string{"lod"} }, `depends on "lod"`},
		{"unknown tool", func(p *analysis.Plan) { p.Subtasks[0].ToolName = "shell.exec" }, `unknown tool "shell.exec"`},
		{"duplicate id", func(p *analysis.Plan) { p.Subtasks[2].TaskID = "monthly" }, "two steps are called monthly"},
		{"bad id", func(p *analysis.Plan) { p.Subtasks[2].TaskID = "a b" }, "task id"},
		{"over the timeout", func(p *analysis.Plan) { p.Subtasks[0].EstimatedCostSeconds = 40 }, "43.0 s, over the 30 s timeout"},
		{"wrong type", func(p *analysis.Plan) { p.Subtasks[0].Arguments["row_limit"] = "ten" }, "argument row_limit must be a number"},
		{"list expected", func(p *analysis.Plan) { p.Subtasks[1].Arguments["columns"] = "amount" }, "argument columns must be a list"},
		{"unknown field", func(p *analysis.Plan) { p.Subtasks[3].Arguments["y_column"] = "amount" }, `unknown argument "y_column" (did you mean y_col?)`},
		{"missing required", func(p *analysis.Plan) { delete(p.Subtasks[0].Arguments, "query") }, "argument query is required"},
		{"bad enum", func(p *analysis.Plan) { p.Subtasks[3].Arguments["type"] = "pie" }, `argument type is "pie"; want one of line, bar, histogram, scatter`},
		{"bad aggregation", func(p *analysis.Plan) { p.Subtasks[1].Arguments["aggregation"] = "mode" }, "aggregation"},
		{"input without dependency", func(p *analysis.Plan) { p.Subtasks[3].Dependencies = []string{"profile"} }, "reads the output of monthly but does not depend on it"},
		{"profile of nothing", func(p *analysis.Plan) { delete(p.Subtasks[2].Arguments, "input") }, "one of input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validPlan()
			tt.change(&p)
			err := p.Validate(analysis.Tools, 30)
			if quarry.ErrorCode(err) != quarry.ECodeInvalid || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v; want INVALID mentioning %q", err, tt.want)
			}
			if p.Status == analysis.PlanValidated {
				t.Error("an invalid plan was marked validated")
			}
		})
	}
}

func TestFingerprintIgnoresOrder(t *testing.T) {
	a := []analysis.SourceTable{
		{Name: "sales", Columns: []analysis.SourceColumn{{Name: "amount", Type: "float"}, {Name: "state", Type: "string"}}},
		{Name: "stores", Columns: []analysis.SourceColumn{{Name: "id", Type: "integer"}}},
	}
	b := []analysis.SourceTable{
		{Name: "Stores", Columns: []analysis.SourceColumn{{Name: "ID", Type: "integer"}}},
		{Name: "sales", Columns: []analysis.SourceColumn{{Name: "state", Type: "string"}, {Name: "amount", Type: "float"}}},
	}
	fa, fb := analysis.Fingerprint(a), analysis.Fingerprint(b)
	if fa != fb || len(fa) != 64 {
		t.Errorf("fingerprints %s and %s; want one 64-hex value", fa, fb)
	}
	a[0].Columns[0].Type = "string"
	if analysis.Fingerprint(a) == fb {
		t.Error("a changed column type kept the fingerprint")
	}
}

func TestClosest(t *testing.T) {
	cols := []string{"order_date", "state", "amount", "customer_id"}
	for in, want := range map[string]string{"amont": "amount", "State": "state", "regoin": "", "order_dat": "order_date", "xyz": ""} {
		if got := analysis.Closest(in, cols); got != want {
			t.Errorf("Closest(%q) = %q; want %q", in, got, want)
		}
	}
}

// The policy judges the columns each scan of the bound plan reads: a
// column allowed bare or as table.column passes, anything else, and any
// table function the plan cannot see through, is FORBIDDEN.
func TestCheckScans(t *testing.T) {
	p := analysis.Policy{AllowedColumns: []string{"region", "People.amount"}}
	ok := [][]analysis.Scan{
		nil,
		{{Table: "people", Columns: []string{"region", "amount"}}},
		{{Table: "people", Columns: []string{}}}, // count(*): the row id only
		{{Table: "orders", Columns: []string{"REGION"}}},
	}
	for _, s := range ok {
		if err := p.CheckScans(s); err != nil {
			t.Errorf("CheckScans(%+v) = %v", s, err)
		}
	}
	bad := []struct {
		scans []analysis.Scan
		says  string
	}{
		{[]analysis.Scan{{Table: "people", Columns: []string{"region", "salary"}}}, "column salary of table people"},
		{[]analysis.Scan{{Table: "orders", Columns: []string{"amount"}}}, "column amount of table orders"}, // amount allowed only in people
		{[]analysis.Scan{{Table: "people", Columns: []string{"region"}}, {Opaque: "the table function pragma_storage_info"}}, "table function pragma_storage_info"},
	}
	for _, b := range bad {
		err := p.CheckScans(b.scans)
		if quarry.ErrorCode(err) != quarry.ECodeForbidden || !strings.Contains(err.Error(), b.says) {
			t.Errorf("CheckScans(%+v) = %v; want FORBIDDEN naming %s", b.scans, err, b.says)
		}
	}
	if err := (analysis.Policy{}).CheckScans([]analysis.Scan{{Table: "people", Columns: []string{"salary"}}, {Opaque: "the table function duckdb_tables"}}); err != nil {
		t.Errorf("no policy refused: %v", err)
	}
	if !p.Allows("PEOPLE", "Amount") || p.Allows("orders", "amount") || !(analysis.Policy{}).Allows("t", "x") {
		t.Error("Allows does not follow AllowedColumns")
	}
}

func TestRedactDSN(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ann:s3cret@db.local:5432/shop":     "postgres://ann:xxxxx@db.local:5432/shop",
		"postgres://db.local/shop?password=s3cret&x=1": "postgres://db.local/shop?password=xxxxx&x=1",
		"host=db user=ann password=s3cret dbname=shop": "host=db user=ann password=xxxxx dbname=shop",
		"host=db password='two words' dbname=shop":     "host=db password=xxxxx dbname=shop",
		"sqlite:/data/shop.db":                         "sqlite:/data/shop.db",
		"postgres://ann@db.local/shop":                 "postgres://ann@db.local/shop",
	} {
		if got := analysis.RedactDSN(in); got != want {
			t.Errorf("RedactDSN(%q) = %q; want %q", in, got, want)
		}
	}
	r := analysis.Request{DataSources: []analysis.DataSource{{Type: "sql", ConnectionString: "postgres://ann:s3cret@h/db"}}}
	if red := r.Redacted(); strings.Contains(red.DataSources[0].ConnectionString, "s3cret") || !strings.Contains(r.DataSources[0].ConnectionString, "s3cret") {
		t.Errorf("Redacted changed the original or kept the password: %v %v", red.DataSources, r.DataSources)
	}
}

package intent

import (
	"slices"
	"strings"
	"testing"
)

// TestReview5: what two reviewers of the thirteenth session's rules found
// answered as another question, each now read or reported.
func TestReview5(t *testing.T) {
	ships := schemaOf("shipments", Column{Name: "carrier", Type: "string", Values: []string{"UPS", "DHL"}},
		Column{Name: "wt_kg", Type: "float", Min: "1", Max: "90"})
	for _, text := range []string{"how many", "shipments to UPS, how many", "how many kilograms how many"} {
		Parse(text, ships, now) // no panic
	}
	if in, err := Parse("how many kilograms does the average shipment weigh", ships, now); err == nil && slices.ContainsFunc(in.Measures, func(m Measure) bool { return m.Agg == "sum" }) {
		t.Errorf("the average shipment's kilograms: measures %v; want no total", in.Measures)
	}
	monthly := Schema{Tables: []Table{{Name: "monthly_sales", Rows: 1200, Columns: []Column{
		{Name: "month_start", Type: "date", Min: "2023-01-01", Max: "2024-12-31"},
		{Name: "store_no", Type: "integer", Min: "101", Max: "150"}, {Name: "revenue", Type: "float", Min: "0", Max: "90000"}}}}}
	reported(t, monthly, "average daily revenue")
	lines := schemaOf("lines", Column{Name: "invoice_num", Type: "integer", Min: "100001", Max: "104500"}, Column{Name: "amt", Type: "float", Min: "1", Max: "90"})
	if in, err := Parse("how many invoices", lines, now); err == nil && slices.ContainsFunc(in.Measures, func(m Measure) bool { return m.Agg == "sum" }) {
		t.Errorf("how many invoices over invoice_num: %v; want no sum of the numbers", in.Measures)
	}
	orders := schemaOf("orders", Column{Name: "order_date", Type: "date", Min: "2023-01-01", Max: "2024-12-31"},
		Column{Name: "region", Type: "string", Values: []string{"East", "West"}}, Column{Name: "customer", Type: "string", Values: []string{"Ann", "Bo"}},
		Column{Name: "amount", Type: "float", Min: "1", Max: "900"})
	reported(t, orders, "which regions had lower revenue in 2024 compared to 2023", "how many customers ordered in both years")
	counties := schemaOf("counties", Column{Name: "state", Type: "string", Values: []string{"OH", "PA"}}, Column{Name: "mhi", Type: "float", Min: "20000", Max: "90000"})
	checkCases(t, []parseCase{{"median household income (MHI) by state", counties, want{Table: "counties",
		Measures: []Measure{{Column: "mhi", Agg: "median"}}, GroupBy: []Group{{Column: "state"}}}}})
	players := schemaOf("players", Column{Name: "level", Type: "integer", Min: "1", Max: "40"}, Column{Name: "points", Type: "float", Min: "0", Max: "900"})
	if in, err := Parse("total points of players at level 10+", players, now); err == nil && slices.ContainsFunc(in.Filters, func(f Filter) bool { return f.Op == "=" }) {
		t.Errorf("level 10+: filters %v; want no level = 10", in.Filters)
	}
	cust := Schema{Tables: []Table{{Name: "customers", Rows: 500, Joined: []string{"regions"}, Columns: []Column{
		{Name: "customer_id", Type: "string"}, {Name: "region", Type: "string", Values: []string{"East", "West"}},
		{Name: "manager", Type: "string", Values: []string{"Kim", "Lee"}, Via: "regions"}}},
		{Name: "regions", Rows: 2, Columns: []Column{{Name: "region", Type: "string", Values: []string{"East", "West"}}, {Name: "manager", Type: "string", Values: []string{"Kim", "Lee"}}}}}}
	if in, err := Parse("how many customers joined by region", cust, now); err == nil && len(in.GroupBy) == 0 && len(in.Unknown) == 0 {
		t.Errorf("customers joined by region: understood %q; want a grouping by region or a report", in.Understood)
	}
	sales := Schema{Tables: []Table{{Name: "sales_2023", Rows: 100, Columns: []Column{{Name: "region", Type: "string", Values: []string{"East"}}, {Name: "revenue", Type: "float"}}},
		{Name: "sales_2024", Rows: 90, Columns: []Column{{Name: "region", Type: "string", Values: []string{"East"}}, {Name: "revenue", Type: "float"}}}}}
	if in, err := Parse("total revenue in the 2024 sales table", sales, now); err == nil && slices.ContainsFunc(in.Understood, func(u string) bool { return strings.Contains(u, "-> table sales_2023") }) {
		t.Errorf("the 2024 sales table: understood %q; want it not read as sales_2023", in.Understood)
	}
	trial := schemaOf("trial", Column{Name: "arm", Type: "string", Values: []string{"treatment", "control", "placebo"}},
		Column{Name: "treat", Type: "integer", Min: "0", Max: "1"}, Column{Name: "outcome", Type: "float", Min: "0", Max: "9"})
	if in, err := Parse("avg outcome, treatment vs control", trial, now); err == nil && slices.ContainsFunc(in.GroupBy, func(g Group) bool { return g.Column == "treat" }) {
		t.Errorf("treatment vs control over an arm column: grouped by %v; want the arm's values", in.GroupBy)
	}
	runs := schemaOf("prod_runs", Column{Name: "line", Type: "string", Values: []string{"L1", "L2"}}, Column{Name: "output", Type: "float", Min: "0", Max: "900"})
	if in, err := Parse("which production line had the highest output", runs, now); err == nil && len(in.Unknown) == 0 && (in.Top == nil || in.Top.Column != "line") {
		t.Errorf("which production line: top %+v; want lines ranked, or a report", in.Top)
	}
}

// TestRowsDescribedNotMeasured: "all stations" after a grouping by month
// pools the stations; "the PhD students" are rows a numeric column's
// name describes, not a total of it; "by # competencies" groups by the
// count column; "fees per chair" over a column of chairs is no grouping.
func TestRowsDescribedNotMeasured(t *testing.T) {
	wind := schemaOf("wind", Column{Name: "date", Type: "date", Min: "1961-01-01", Max: "1978-12-31"},
		Column{Name: "stn", Type: "string", Values: []string{"BEL", "DUB"}}, Column{Name: "speed_kn", Type: "float", Min: "0", Max: "40"})
	phd := schemaOf("grads", Column{Name: "mar", Type: "string", Values: []string{"Married", "Single"}}, Column{Name: "phd", Type: "float", Min: "1", Max: "5"})
	work := schemaOf("staff", Column{Name: "salary", Type: "float", Min: "1000", Max: "50000"}, Column{Name: "n_comps", Type: "integer", Min: "0", Max: "3"})
	understoodAll(t, []parseCase{
		{"mean speed_kn by month, all stations, 1975", wind, want{Table: "wind", Measures: []Measure{{Column: "speed_kn", Agg: "avg"}},
			GroupBy: []Group{{Column: "date", Grain: "month"}}, Time: &TimeRange{Column: "date", Start: "1975-01-01", End: "1976-01-01", Label: "1975"}}},
		{"avg salary by # competencies", work, want{Table: "staff", Measures: []Measure{{Column: "salary", Agg: "avg"}}, GroupBy: []Group{{Column: "n_comps"}}}},
	})
	if in, err := Parse("What share of the PhD students are married?", phd, now); err != nil || len(in.Measures) > 0 || len(in.Unknown) > 0 {
		t.Errorf("share of the PhD students married: measures %v, unknown %v, %v; want a share of the rows", in.Measures, in.Unknown, err)
	}
	clinics := schemaOf("appts", Column{Name: "clinic", Type: "string", Values: []string{"C1", "C2"}},
		Column{Name: "fee", Type: "float", Min: "10", Max: "900"}, Column{Name: "chairs", Type: "integer", Min: "4", Max: "9"})
	if in, err := Parse("fees per chair at each clinic", clinics, now); err == nil && slices.ContainsFunc(in.GroupBy, func(g Group) bool { return g.Column == "chairs" }) {
		t.Errorf("fees per chair: grouped by %v; want no grouping by chairs", in.GroupBy)
	}
}

// TestRankedByANumberOf: "top 2 trucks by total number of orders" over
// n_ord ranks by its sum; it groups by nothing.
func TestRankedByANumberOf(t *testing.T) {
	trk := schemaOf("trk_sales", Column{Name: "trk", Type: "string", Values: []string{"A", "B", "C"}},
		Column{Name: "n_ord", Type: "integer", Min: "0", Max: "300"})
	for _, text := range []string{"top 2 trucks by total number of orders", "top 2 trk by number of orders"} {
		in, err := Parse(text, trk, now)
		if err != nil || len(in.GroupBy) > 0 || in.Top == nil || in.Top.Column != "trk" || !slices.Contains(in.Measures, Measure{Column: "n_ord", Agg: "sum"}) {
			t.Errorf("Parse(%q) = top %+v, measures %v, groups %v, %v; want the trucks ranked by the sum of n_ord", text, in.Top, in.Measures, in.GroupBy, err)
		}
	}
}

package duckdb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// realisticOrders returns an orders file of n rows with the usual kinds of
// columns.
func realisticOrders(n int) string {
	var b strings.Builder
	b.WriteString("order_id,order_uuid,created_at,order_date,customer_id,store_id,region,channel,is_first_order,amount,quantity,converted,discount_pct,zip_code,year,priority,coupon\n")
	regions := []string{"north", "south", "east", "west"}
	for i := 0; i < n; i++ {
		coupon := ""
		if i%3 == 0 {
			coupon = "SAVE10"
		}
		fmt.Fprintf(&b, "%d,%08x-1234-4abc-8def-%012x,2024-03-%02d 10:%02d:00,2024-03-%02d,%d,%d,%s,%s,%t,%.2f,%d,%d,%.1f,%05d,%d,%d,%s\n",
			1000+i, i, i, 1+i%28, i%60, 1+i%28, i%40, i%5, regions[i%4], []string{"web", "app"}[i%2],
			i%7 == 0, 10+float64(i%50)*1.5, 1+i%4, i%2, float64(i%3)*5, 10000+i%20, 2023+i%2, 1+i%3, coupon)
	}
	return b.String()
}

func TestProfileRoles(t *testing.T) {
	e := mustOpen(t)
	schema, rows, err := e.LoadCSV(context.Background(), "orders", writeFile(t, "orders.csv", realisticOrders(400)))
	if err != nil {
		t.Fatal(err)
	}
	if rows != 400 {
		t.Fatalf("rows = %d; want 400", rows)
	}
	want := map[string]struct{ role, typ string }{
		"order_id":       {quarry.RoleID, quarry.TypeInteger},
		"order_uuid":     {quarry.RoleID, quarry.TypeString},
		"created_at":     {quarry.RoleTimestamp, quarry.TypeDatetime},
		"order_date":     {quarry.RoleTimestamp, quarry.TypeDate},
		"customer_id":    {quarry.RoleID, quarry.TypeInteger},
		"store_id":       {quarry.RoleDimension, quarry.TypeInteger},
		"region":         {quarry.RoleDimension, quarry.TypeString},
		"channel":        {quarry.RoleDimension, quarry.TypeString},
		"is_first_order": {quarry.RoleDimension, quarry.TypeBoolean},
		"amount":         {quarry.RoleMeasure, quarry.TypeFloat},
		"quantity":       {quarry.RoleMeasure, quarry.TypeInteger},
		"converted":      {quarry.RoleMeasure, quarry.TypeInteger},
		"discount_pct":   {quarry.RoleMeasure, quarry.TypeFloat},
		"zip_code":       {quarry.RoleDimension, quarry.TypeInteger},
		"year":           {quarry.RoleDimension, quarry.TypeInteger},
		"priority":       {quarry.RoleDimension, quarry.TypeInteger},
		"coupon":         {quarry.RoleDimension, quarry.TypeString},
	}
	if len(schema.Columns) != len(want) {
		t.Fatalf("%d columns; want %d", len(schema.Columns), len(want))
	}
	for _, c := range schema.Columns {
		w := want[c.Name]
		if c.InferredType != w.role || c.DataType != w.typ {
			t.Errorf("column %s = %s/%s; want %s/%s", c.Name, c.InferredType, c.DataType, w.role, w.typ)
		}
	}
	byName := map[string]quarry.Column{}
	for _, c := range schema.Columns {
		byName[c.Name] = c
	}
	if c := byName["region"]; c.Cardinality != 4 || len(c.SampleValues) != 4 || c.Nullable || c.NullCount != 0 {
		t.Errorf("region = %+v; want 4 values, 4 samples, no nulls", c)
	}
	if c := byName["coupon"]; !c.Nullable || c.NullCount != 266 || c.Cardinality != 1 || strings.Join(c.SampleValues, ",") != "SAVE10" {
		t.Errorf("coupon = %+v; want 266 nulls, 1 value SAVE10", c)
	}
	if c := byName["order_id"]; c.Cardinality != 400 || len(c.SampleValues) != quarry.MaxSampleValues {
		t.Errorf("order_id = %+v; want 400 values and %d samples", c, quarry.MaxSampleValues)
	}
	if c := byName["channel"]; c.SampleValues[0] != "web" && c.SampleValues[0] != "app" {
		t.Errorf("channel samples = %v; want web and app", c.SampleValues)
	}
	if c := byName["order_date"]; c.SampleValues[0] != "2024-03-01" && !strings.HasPrefix(c.SampleValues[0], "2024-03-") {
		t.Errorf("order_date samples = %v; want dates", c.SampleValues)
	}
}

func TestRole(t *testing.T) {
	tests := []struct {
		p    colProfile
		want string
	}{
		{colProfile{Name: "customerId", Type: quarry.TypeInteger, NonNull: 100, Distinct: 90}, quarry.RoleID},
		{colProfile{Name: "paid", Type: quarry.TypeInteger, NonNull: 100, Distinct: 2, HasMin: true, Min: 0, Max: 1}, quarry.RoleMeasure},
		{colProfile{Name: "email", Type: quarry.TypeString, NonNull: 500, Distinct: 500}, quarry.RoleID},
		{colProfile{Name: "city", Type: quarry.TypeString, NonNull: 50, Distinct: 50}, quarry.RoleDimension},
		{colProfile{Name: "month", Type: quarry.TypeInteger, NonNull: 500, Distinct: 12, HasMin: true, Min: 1, Max: 12}, quarry.RoleDimension},
		{colProfile{Name: "revenue", Type: quarry.TypeFloat, NonNull: 500, Distinct: 3, HasMin: true, Min: 1, Max: 3}, quarry.RoleMeasure},
		{colProfile{Name: "tickets", Type: quarry.TypeInteger, NonNull: 500, Distinct: 300, HasMin: true, Min: 0, Max: 900}, quarry.RoleMeasure},
		{colProfile{Name: "Order Total", Type: quarry.TypeFloat, NonNull: 5, Distinct: 5, HasMin: true, Min: 1, Max: 9}, quarry.RoleMeasure},
		{colProfile{Name: "updated", Type: quarry.TypeDatetime}, quarry.RoleTimestamp},
	}
	for _, tt := range tests {
		if got := tt.p.role(); got != tt.want {
			t.Errorf("role(%+v) = %s; want %s", tt.p, got, tt.want)
		}
	}
}

func TestTableName(t *testing.T) {
	taken := map[string]bool{"orders": true, "Sales": true}
	tests := []struct{ in, want string }{
		{"Orders 2024.csv", "orders_2024"},
		{"orders.csv", "orders_2"},
		{"sales.CSV", "sales_2"},
		{"/tmp/x/Customer-List (final).csv", "customer_list_final"},
		{"2024 orders.csv", "t_2024_orders"},
		{"order.csv", "order_data"},
		{"...csv", "data"},
		{"Überblick.csv", "berblick"},
		{"___.csv", "data"},
	}
	for _, tt := range tests {
		got := TableName(tt.in, taken)
		if got != tt.want {
			t.Errorf("TableName(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if !plainIdent(got) {
			t.Errorf("TableName(%q) = %q is not a plain identifier", tt.in, got)
		}
	}
	long := TableName(strings.Repeat("a", 200)+".csv", nil)
	if len(long) > maxIdentLen {
		t.Errorf("TableName(200 letters) has %d characters; want at most %d", len(long), maxIdentLen)
	}
}

// A thousand-column file profiles within a small memory limit: the columns
// are profiled in batches, not in one query holding every column's state.
func TestProfileWideFile(t *testing.T) {
	e, err := Open(Options{MemoryLimit: "256MB"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const cols, rows = 1000, 10
	var b strings.Builder
	for c := range cols {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "c%d", c)
	}
	b.WriteByte('\n')
	for r := range rows {
		for c := range cols {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", r*(c%7))
		}
		b.WriteByte('\n')
	}
	schema, _, err := e.LoadCSV(context.Background(), "wide", writeFile(t, "wide.csv", b.String()))
	if err != nil {
		t.Fatalf("LoadCSV: %v", err)
	}
	if len(schema.Columns) != cols {
		t.Fatalf("profiled %d columns; want %d", len(schema.Columns), cols)
	}
	// c999 holds r*(999%7) = r*5: ten distinct values; c0 is all zeros.
	if got := schema.Columns[999]; got.Name != "c999" || got.Cardinality != 10 || got.NullCount != 0 {
		t.Errorf("column 999 = %+v; want c999 with 10 distinct values", got)
	}
	if got := schema.Columns[0]; got.Name != "c0" || got.Cardinality != 1 {
		t.Errorf("column 0 = %+v; want c0 with one distinct value", got)
	}
}

// TestYesAndNoStayTheDataWords: a column of Yes and No keeps its words,
// for answers to show them as the file writes them; true and false are a
// boolean; numbers beside NA (as R writes a missing value) are numbers.
func TestYesAndNoStayTheDataWords(t *testing.T) {
	e := mustOpen(t)
	schema, _, err := e.LoadCSV(context.Background(), "visits", writeFile(t, "visits.csv", "id,smoker,insured,mass,sex,country,region\n1,Yes,true,3.5,female,NA,NA\n2,No,FALSE,NA,NA,US,EMEA\n3,Yes,,4,male,DE,APAC\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := schema.Columns[1].DataType; got != quarry.TypeString {
		t.Errorf("smoker is %s; want string", got)
	}
	if got := schema.Columns[2].DataType; got != quarry.TypeBoolean {
		t.Errorf("insured is %s; want boolean", got)
	}
	if got := schema.Columns[3].DataType; got != quarry.TypeFloat {
		t.Errorf("mass is %s; want float, NA missing", got)
	}
	res, err := e.Query(context.Background(), "SELECT smoker FROM visits ORDER BY id")
	if err != nil || res.String(0, 0) != "Yes" || res.String(1, 0) != "No" {
		t.Errorf("smoker = %v, %v; want Yes, No", res, err)
	}
	// NA beside words is missing; beside two-letter codes it is Namibia
	res, err = e.Query(context.Background(), "SELECT count(sex), count(country), count(region) FROM visits")
	if err != nil || res.Float(0, 0) != 2 || res.Float(0, 1) != 3 || res.Float(0, 2) != 3 {
		t.Errorf("count(sex), count(country), count(region) = %v, %v; want 2 (NA missing), 3 and 3 (NA a code)", res, err)
	}
}

func TestIntegerRange(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "t", "id,neg,big,price,name,empty\n"+
		"3,-7,9007199254740993,1.5,a,\n"+
		"10,2,1,2.5,b,\n"+
		"5,,2,3,c,\n")
	tests := []struct {
		column string
		lo, hi int64
		ok     bool
	}{
		{"id", 3, 10, true},
		{"neg", -7, 2, true},
		{"big", 0, 0, false},   // beyond what a float64 holds exactly
		{"price", 0, 0, false}, // not integers
		{"name", 0, 0, false},
		{"empty", 0, 0, false}, // no value
		{"missing", 0, 0, false},
	}
	for _, tt := range tests {
		lo, hi, ok := e.IntegerRange("t", tt.column)
		if lo != tt.lo || hi != tt.hi || ok != tt.ok {
			t.Errorf("IntegerRange(t, %s) = %d, %d, %v; want %d, %d, %v", tt.column, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
	if _, _, ok := e.IntegerRange("nope", "id"); ok {
		t.Errorf("IntegerRange(nope, id) ok; want not")
	}
}

// A large table's text columns of few values and its ISO dates get
// their distinct count, most frequent values and count of values from
// grouping them: exact, ties in value order. Its integer columns are
// counted as bits in their range, exact too: a key's most frequent
// values are its smallest, all tied.
func TestProfileLargeTableTextValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,shop,day,amount\n")
	const rows = exactDistinctRows + 20_000
	// shop: s0 on half the rows, s1..s6 on as many rows each.
	for i := range rows {
		shop := "s0"
		if i%2 == 1 {
			shop = fmt.Sprintf("s%d", (i/2)%6+1)
		}
		day := 1 + min(i%10/5, 1) + i%10/8 // half the 1st, 30% the 2nd, 20% the 3rd
		fmt.Fprintf(&b, "%d,%s,2024-01-%02d,%d\n", i, shop, day, i%7)
	}
	e := mustOpen(t)
	schema, _, err := e.LoadCSV(context.Background(), "t", writeFile(t, "t.csv", b.String()))
	if err != nil {
		t.Fatalf("LoadCSV: %v", err)
	}
	want := map[string]struct {
		n       int64
		samples []string
	}{
		"shop":   {7, []string{"s0", "s1", "s2", "s3", "s4"}},
		"day":    {3, []string{"2024-01-01", "2024-01-02", "2024-01-03"}},
		"id":     {rows, []string{"0", "1", "2", "3", "4"}},
		"amount": {7, nil}, // approx_top_k picks among seven near ties
	}
	for _, c := range schema.Columns {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		if c.Cardinality != w.n || w.samples != nil && !slices.Equal(c.SampleValues, w.samples) || len(c.SampleValues) != 5 && c.Name == "amount" {
			t.Errorf("%s: %d values, samples %v; want %d, %v", c.Name, c.Cardinality, c.SampleValues, w.n, w.samples)
		}
		if c.NullCount != 0 || c.Nullable {
			t.Errorf("%s: %d nulls (nullable %v); want none", c.Name, c.NullCount, c.Nullable)
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Fatalf("columns %v missing from %+v", want, schema.Columns)
	}
}

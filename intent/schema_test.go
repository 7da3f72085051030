package intent

import (
	"time"
)

// sales is the test table: orders of five states over two years.
var sales = Table{
	Name: "sales",
	Rows: 5000,
	Columns: []Column{
		{Name: "order_date", Type: "date", Min: "2020-01-03", Max: "2021-12-30"},
		{Name: "state", Type: "string", Values: []string{"Arizona", "California", "Nevada", "New York", "Texas"}},
		{Name: "product", Type: "string", Values: []string{"Widget", "Gadget", "Gizmo", "Doohickey", "Sprocket"}},
		{Name: "category", Type: "string", Values: []string{"Hardware", "Software", "Office Supplies", "Toys"}},
		{Name: "amount", Type: "float"},
		{Name: "quantity", Type: "integer"},
		{Name: "customer_id", Type: "string"},
		{Name: "discount_pct", Type: "float"},
	},
}

// shipments has two date columns and a state column that shares values
// with billing_state.
var shipments = Table{
	Name: "shipments",
	Rows: 800,
	Columns: []Column{
		{Name: "ship_date", Type: "date", Min: "2021-01-04", Max: "2021-06-30"},
		{Name: "order_date", Type: "date", Min: "2021-01-01", Max: "2021-06-28"},
		{Name: "carrier", Type: "string", Values: []string{"UPS", "FedEx", "DHL"}},
		{Name: "ship_state", Type: "string", Values: []string{"Arizona", "Nevada", "Utah"}},
		{Name: "billing_state", Type: "string", Values: []string{"Arizona", "Nevada", "Utah", "Oregon", "Idaho"}},
		{Name: "weight_kg", Type: "float"},
		{Name: "cost", Type: "float"},
	},
}

var (
	salesSchema = Schema{Tables: []Table{sales}}
	bothSchema  = Schema{Tables: []Table{sales, shipments}}
	// now is far from the data, so a test that anchored relative periods
	// on it would fail.
	now = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)
)

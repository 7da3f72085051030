package investigation

import (
	"fmt"
	"testing"

	"github.com/quarry-dev/quarry"
)

func TestDescribeRoles(t *testing.T) {
	cols := []ColumnRole{
		{Column: "date", Role: ColumnTime},
		{Column: "year", Role: ColumnTimePart, Part: "year"},
		{Column: "series", Role: ColumnDimension},
		{Column: "model", Role: ColumnNotSliced, Reason: "beyond the 8 dimensions searched"},
	}
	for i := range 14 {
		cols = append(cols, ColumnRole{Column: fmt.Sprintf("m%d", i), Role: ColumnMeasure})
	}
	want := "time: date; time parts: year (year); dimensions: series; not sliced: model (beyond the 8 dimensions searched); " +
		"measures: m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, and 2 more"
	if got := DescribeRoles(cols); got != want {
		t.Errorf("DescribeRoles = %q; want %q", got, want)
	}
}

func TestIgnoredColumns(t *testing.T) {
	files := []*UploadedFile{
		{TableName: "orders", Schema: &quarry.FileSchema{Columns: []quarry.Column{{Name: "year"}, {Name: "Amount"}}}},
		{TableName: "customers", Schema: &quarry.FileSchema{Columns: []quarry.Column{{Name: "year"}, {Name: "segment"}}}},
	}
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{[]string{"YEAR"}, "[orders.year customers.year]"},
		{[]string{"orders.amount", "segment"}, "[orders.Amount customers.segment]"},
		{[]string{"orders.segment"}, `INVALID: column "orders.segment" to ignore is in none of the files; their columns are orders.year, orders.Amount, customers.year, customers.segment (name a column as COLUMN or TABLE.COLUMN)`},
	} {
		c := Context{IgnoreColumns: tt.names}
		refs, err := c.IgnoredColumns(files)
		got := fmt.Sprint(refs)
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("IgnoredColumns(%v) = %s; want %s", tt.names, got, tt.want)
		}
	}
}

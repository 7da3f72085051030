package analysis

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
)

// What the database sources share: the rule for what Tables reports of a
// column, the row limit's error, and the reading of one text column.

// MaxValues is the most distinct values of a text column a source reports;
// a column with more reports none.
const MaxValues = 1000

// RowLimitError is a source's answer to a result over the row limit: an
// error rather than a silently cut result.
func RowLimitError(limit int) error {
	return quarry.Errorf(quarry.ECodeInvalid, "the query returned more than the row limit of %d rows", limit).
		WithHint("aggregate, filter or add a LIMIT")
}

// OneStatement refuses text holding more than one statement.
func OneStatement(q string) error {
	if strings.Contains(strings.TrimRight(strings.TrimSpace(q), ";"), ";") {
		return quarry.Errorf(quarry.ECodeForbidden, "only one statement per query is allowed")
	}
	return nil
}

// DescribeColumns fills, for each column of t, the sorted values of a text
// column with at most MaxValues of them (values asks for up to
// MaxValues+1) and the first and last day of a date column (dates asks for
// them as YYYY-MM-DD). A failing question leaves the column as it is.
func DescribeColumns(ctx context.Context, t *SourceTable,
	values func(ctx context.Context, column string, limit int) ([]string, error),
	dates func(ctx context.Context, column string) (first, last string, err error)) {
	for i := range t.Columns {
		c := &t.Columns[i]
		switch c.Type {
		case quarry.TypeString:
			if vals, err := values(ctx, c.Name, MaxValues+1); err == nil && len(vals) <= MaxValues {
				slices.Sort(vals)
				c.Values = vals
			}
		case quarry.TypeDate, "timestamp":
			if lo, hi, err := dates(ctx, c.Name); err == nil {
				c.Min, c.Max = lo, hi
			}
		}
	}
}

// QueryStrings reads the first column of a query as text (NULL as "").
func QueryStrings(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v.String)
	}
	return out, rows.Err()
}

package mcp

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// tableSummary is a table in brief.
type tableSummary struct {
	Table       string   `json:"table" jsonschema:"the table's name in SQL"`
	FileName    string   `json:"file_name"`
	Description string   `json:"description,omitempty"`
	RowCount    int64    `json:"row_count"`
	Columns     []string `json:"columns"`
}

func summarizeTables(files []*investigation.UploadedFile) []tableSummary {
	out := make([]tableSummary, 0, len(files))
	for _, f := range files {
		s := tableSummary{Table: f.TableName, FileName: f.OriginalName, Description: f.Description, RowCount: f.RowCount, Columns: []string{}}
		for _, c := range columns(f) {
			s.Columns = append(s.Columns, c.Name)
		}
		out = append(out, s)
	}
	return out
}

func columns(f *investigation.UploadedFile) []quarry.Column {
	if f.Schema == nil {
		return nil
	}
	return f.Schema.Columns
}

// tablesText lists tables one per line.
func tablesText(tables []tableSummary) string {
	lines := make([]string, len(tables))
	for i, t := range tables {
		lines[i] = fmt.Sprintf("- %s (%s, %d rows): %s", t.Table, t.FileName, t.RowCount, strings.Join(t.Columns, ", "))
		if t.Description != "" {
			lines[i] += " — " + t.Description
		}
	}
	return strings.Join(lines, "\n")
}

type listTablesOut struct {
	SessionID string         `json:"session_id"`
	Tables    []tableSummary `json:"tables"`
}

type describeTableIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID"`
	Table     string `json:"table" jsonschema:"the table's SQL name, as list_tables gives it"`
}

// columnInfo is a profiled column.
type columnInfo struct {
	Name         string   `json:"name"`
	DataType     string   `json:"data_type" jsonschema:"string, integer, float, date, datetime or boolean"`
	Role         string   `json:"role" jsonschema:"dimension (a category to break the metric down by), measure (a number to aggregate), id or timestamp"`
	Cardinality  int64    `json:"cardinality" jsonschema:"number of distinct values"`
	Nullable     bool     `json:"nullable"`
	NullCount    int64    `json:"null_count"`
	SampleValues []string `json:"sample_values"`
}

type describeTableOut struct {
	Table       string       `json:"table"`
	FileName    string       `json:"file_name"`
	Description string       `json:"description,omitempty"`
	RowCount    int64        `json:"row_count"`
	Columns     []columnInfo `json:"columns"`
}

type runSQLIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID"`
	SQL       string `json:"sql" jsonschema:"one read-only SELECT (DuckDB dialect) over the session's tables"`
}

// cellValue is a value of a query result: a string, number, bool or nil.
type cellValue any

type runSQLOut struct {
	Columns   []string      `json:"columns"`
	Rows      [][]cellValue `json:"rows" jsonschema:"the first rows of the result; dates as YYYY-MM-DD"`
	RowCount  int           `json:"row_count" jsonschema:"how many rows the whole result has"`
	Truncated bool          `json:"truncated" jsonschema:"true when rows holds only the first of row_count rows"`
}

func (t *tools) addDataTools(s *mcpsdk.Server) {
	add(s, t, &mcpsdk.Tool{
		Name:        "list_tables",
		Description: "List a session's tables: the SQL name to use in queries, the file it came from, its row count, its columns and its description.",
		Annotations: readOnly("List tables"),
	}, t.listTables)
	add(s, t, &mcpsdk.Tool{
		Name: "describe_table",
		Description: "Describe one table's columns as profiled at upload: data type, role (dimension, measure, id, timestamp), distinct values, nulls and sample values. " +
			"Use it to choose the metric, the time column and the dimensions to break down by.",
		Annotations: readOnly("Describe table"),
	}, t.describeTable)
	add(s, t, &mcpsdk.Tool{
		Name: "run_sql",
		Description: fmt.Sprintf("Run one read-only SELECT over a session's tables (DuckDB SQL) in a locked sandbox: no files, network, settings, extensions or writes (those fail with FORBIDDEN). "+
			"Returns at most %d rows with the total row count; aggregate with GROUP BY or add ORDER BY ... LIMIT rather than listing rows. "+
			"Every statement is recorded in the session's audit log. Not available while the session's investigation is running.", t.opt.MaxRows),
		Annotations: readOnly("Run SQL"),
	}, t.runSQL)
}

func (t *tools) listTables(ctx context.Context, in sessionIn) (listTablesOut, string, error) {
	files, err := t.svc.Tables(ctx, in.SessionID)
	if err != nil {
		return listTablesOut{}, "", err
	}
	out := listTablesOut{SessionID: in.SessionID, Tables: summarizeTables(files)}
	if len(out.Tables) == 0 {
		return out, "The session has no tables.", nil
	}
	return out, fmt.Sprintf("%d table(s):\n%s", len(out.Tables), tablesText(out.Tables)), nil
}

func (t *tools) describeTable(ctx context.Context, in describeTableIn) (describeTableOut, string, error) {
	files, err := t.svc.Tables(ctx, in.SessionID)
	if err != nil {
		return describeTableOut{}, "", err
	}
	var f *investigation.UploadedFile
	names := make([]string, 0, len(files))
	for _, c := range files {
		names = append(names, c.TableName)
		if strings.EqualFold(c.TableName, in.Table) || strings.EqualFold(c.OriginalName, in.Table) {
			f = c
		}
	}
	if f == nil {
		return describeTableOut{}, "", quarry.Errorf(quarry.ECodeNotFound, "no table %q in session %s; its tables are %s", in.Table, in.SessionID, strings.Join(names, ", "))
	}
	out := describeTableOut{Table: f.TableName, FileName: f.OriginalName, Description: f.Description, RowCount: f.RowCount, Columns: []columnInfo{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Table %s (%s, %d rows)", f.TableName, f.OriginalName, f.RowCount)
	if f.Description != "" {
		b.WriteString(": " + f.Description)
	}
	b.WriteString("\n\n| column | type | role | distinct | nulls | samples |\n|---|---|---|---|---|---|")
	for _, c := range columns(f) {
		samples := c.SampleValues
		if samples == nil {
			samples = []string{}
		}
		out.Columns = append(out.Columns, columnInfo{Name: c.Name, DataType: c.DataType, Role: c.InferredType, Cardinality: c.Cardinality,
			Nullable: c.Nullable, NullCount: c.NullCount, SampleValues: samples})
		fmt.Fprintf(&b, "\n| %s | %s | %s | %d | %d | %s |", mdCell(c.Name), c.DataType, c.InferredType, c.Cardinality, c.NullCount, mdCell(strings.Join(samples, ", ")))
	}
	return out, b.String(), nil
}

func (t *tools) runSQL(ctx context.Context, in runSQLIn) (runSQLOut, string, error) {
	res, err := t.svc.Query(ctx, in.SessionID, in.SQL)
	if err != nil {
		return runSQLOut{}, "", err
	}
	n := min(len(res.Rows), t.opt.MaxRows)
	out := runSQLOut{Columns: res.Columns, Rows: make([][]cellValue, n), RowCount: len(res.Rows), Truncated: n < len(res.Rows)}
	if out.Columns == nil {
		out.Columns = []string{}
	}
	for i, row := range res.Rows[:n] {
		out.Rows[i] = make([]cellValue, len(row))
		for j, v := range row {
			out.Rows[i][j] = jsonValue(v)
		}
	}
	return out, resultText(out), nil
}

// jsonValue makes a result value safe for JSON: times as text (dates as
// YYYY-MM-DD), NaN and infinities as null.
func jsonValue(v any) cellValue {
	switch x := v.(type) {
	case time.Time:
		return quarry.AsText(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	}
	return v
}

// resultText renders a query result as a Markdown table with a note of
// the row count.
func resultText(r runSQLOut) string {
	var b strings.Builder
	if len(r.Columns) > 0 {
		b.WriteString("|")
		for _, c := range r.Columns {
			b.WriteString(" " + mdCell(c) + " |")
		}
		b.WriteString("\n|" + strings.Repeat("---|", len(r.Columns)))
		for _, row := range r.Rows {
			b.WriteString("\n|")
			for _, v := range row {
				s := quarry.AsText(v)
				if v == nil {
					s = "NULL"
				}
				b.WriteString(" " + mdCell(s) + " |")
			}
		}
		b.WriteString("\n\n")
	}
	switch {
	case r.Truncated:
		fmt.Fprintf(&b, "First %d of %d rows shown; aggregate or add ORDER BY ... LIMIT to see what matters.", len(r.Rows), r.RowCount)
	case r.RowCount == 1:
		b.WriteString("1 row.")
	default:
		fmt.Fprintf(&b, "%d rows.", r.RowCount)
	}
	return b.String()
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

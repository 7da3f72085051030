package duckdb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	duckdbdriver "github.com/duckdb/duckdb-go/v2"
	"github.com/quarry-dev/quarry"
)

// node is one object of DuckDB's JSON parse tree. Numbers are json.Number
// so that the tree goes back to DuckDB unchanged (query_location can be
// 2^64-1, which a float64 would round).
type node = map[string]any

// parsed is the answer of json_serialize_sql.
type parsed struct {
	Error        bool   `json:"error"`
	ErrorType    string `json:"error_type"`
	ErrorMessage string `json:"error_message"`
	Statements   []node `json:"statements"`
}

// serialize parses sqlText with DuckDB's parser. A parse error is reported
// in the result (Error, ErrorType "parser"), as is a statement other than
// SELECT (ErrorType "not implemented"). The error return is INVALID for a
// tree that is not JSON, and otherwise for failures to ask at all.
func (e *Engine) serialize(ctx context.Context, sqlText string) (*parsed, error) {
	if !utf8.ValidString(sqlText) {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the SQL is not valid UTF-8 text")
	}
	if strings.IndexByte(sqlText, 0) >= 0 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the SQL contains a NUL byte, which SQL text cannot hold")
	}
	if err := checkSQLLen(sqlText); err != nil {
		return nil, err
	}
	var text string
	if err := e.db.QueryRowContext(ctx, "SELECT json_serialize_sql(?::VARCHAR)::VARCHAR", sqlText).Scan(&text); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if duckType(err) == duckdbdriver.ErrorTypeOutOfMemory {
			return nil, e.outOfMemory("parsing the query")
		}
		return nil, fmt.Errorf("duckdb: json_serialize_sql: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var p parsed
	if err := dec.Decode(&p); err != nil {
		// DuckDB writes out-of-range constants (1e309) as bare Infinity,
		// which is not JSON.
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the SQL contains a value that cannot be represented: %w", err)
	}
	return &p, nil
}

// MaxSQLLen is the longest SQL text, in bytes, that the engine parses or
// runs. DuckDB's parser takes several hundred bytes of memory per byte of
// dense SQL, outside its memory_limit (a 1 MB SELECT of aggregates peaks at
// 600 MB, and the 235 MB one a 1,000-column file once led to took 13 GB);
// 128 KiB keeps a parse near 70 MB and is far above any query a person
// writes or Quarry generates (an investigation's longest is under 1 KB).
const MaxSQLLen = 128 << 10

// checkSQLLen refuses SQL text longer than MaxSQLLen with RESOURCE_LIMIT.
func checkSQLLen(sqlText string) error {
	if len(sqlText) <= MaxSQLLen {
		return nil
	}
	return quarry.Errorf(quarry.ECodeResourceLimit, "the query is %d KB of SQL text; the limit is %d KB", (len(sqlText)+1023)/1024, MaxSQLLen/1024).
		WithHint("split it into smaller queries")
}

// outOfMemory is the error for DuckDB running out of its memory_limit
// while doing what: RESOURCE_LIMIT.
func (e *Engine) outOfMemory(what string) error {
	return quarry.Errorf(quarry.ECodeResourceLimit, "%s needed more memory than the engine's limit of %s (its share of --memory-mb), even spilling to disk", what, e.opt.MemoryLimit).
		WithHint("aggregate more, filter earlier, avoid large joins, or raise --memory-mb")
}

// deserialize turns parse trees back into SQL text, one per tree, in one
// round trip.
func (e *Engine) deserialize(ctx context.Context, trees ...any) ([]string, error) {
	if len(trees) == 0 {
		return nil, nil
	}
	sel := make([]string, len(trees))
	args := make([]any, len(trees))
	for i, t := range trees {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(t); err != nil {
			return nil, fmt.Errorf("duckdb: encode parse tree: %w", err)
		}
		sel[i] = "json_deserialize_sql(?::JSON)"
		args[i] = buf.String()
	}
	dest := make([]any, len(trees))
	out := make([]string, len(trees))
	for i := range out {
		dest[i] = &out[i]
	}
	if err := e.db.QueryRowContext(ctx, "SELECT "+strings.Join(sel, ", "), args...).Scan(dest...); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("duckdb: json_deserialize_sql: %w", err)
	}
	return out, nil
}

// str returns field k of n as a string ("" when absent).
func str(n node, k string) string {
	s, _ := n[k].(string)
	return s
}

// obj returns field k of n as a node (nil when absent or null).
func obj(n node, k string) node {
	o, _ := n[k].(node)
	return o
}

// list returns field k of n as a list of nodes, skipping non-objects.
func list(n node, k string) []node {
	raw, _ := n[k].([]any)
	out := make([]node, 0, len(raw))
	for _, x := range raw {
		if o, ok := x.(node); ok {
			out = append(out, o)
		}
	}
	return out
}

// number reads a JSON number field.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

// clone deep-copies a parse tree so that edits leave the original intact.
func clone(v any) any {
	switch x := v.(type) {
	case node:
		c := make(node, len(x))
		for k, val := range x {
			c[k] = clone(val)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, val := range x {
			c[i] = clone(val)
		}
		return c
	}
	return v
}

// walk calls fn on every object in the tree under v.
func walk(v any, fn func(node)) {
	switch x := v.(type) {
	case node:
		fn(x)
		for _, val := range x {
			walk(val, fn)
		}
	case []any:
		for _, val := range x {
			walk(val, fn)
		}
	}
}

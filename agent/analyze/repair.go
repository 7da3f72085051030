package analyze

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// Classify puts a failed tool call into the specification's categories
// (FR-029) by what the engine said: a column it could not find, types that
// do not fit the operation, SQL it could not parse, or a limit of time,
// rows or memory. Anything else is sql_syntax, the category whose repair
// is to write the query again.
func Classify(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return analysis.CategoryResourceExhausted
	}
	msg := strings.ToLower(err.Error()) // code, message and hint
	switch {
	case containsAny(msg, "did not finish within", "more than the row limit", "returned more than", "out of memory", "memory limit", "timeout", "too many rows"):
		return analysis.CategoryResourceExhausted
	case containsAny(msg, "no function matches", "conversion error", "could not convert", "cannot be cast", "type mismatch", "needs numbers",
		"cannot compare", "operator does not exist", "invalid input syntax") || functionMissing.MatchString(msg):
		// "function sum(text) does not exist" is PostgreSQL's word for
		// an aggregate over the wrong type.
		return analysis.CategoryTypeMismatch
	case containsAny(msg, "not found in from clause", "does not have a column", "referenced column", "no such column", "column \"") &&
		containsAny(msg, "not found", "does not exist", "no such column", "does not have"):
		return analysis.CategoryMissingColumn
	}
	return analysis.CategorySQLSyntax
}

func containsAny(s string, subs ...string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

var (
	// functionMissing is a function unknown for its argument types.
	functionMissing = regexp.MustCompile(`function [\w.]+\([^)]*\) does not exist`)
	// missingName finds the name an engine could not resolve.
	missingName = regexp.MustCompile(`(?i)(?:referenced column|column) "?([^" ]+)"? (?:not found|does not exist)|no such column: ?([A-Za-z_][\w.]*)`)
	// aggregateOfText finds an aggregate over a bare column: sum(x), avg("x").
	aggregateOfText = regexp.MustCompile(`(?i)\b(sum|avg|mean|median|stddev_samp|stddev|var_samp|min|max|corr)\(\s*("[^"]+"|[A-Za-z_]\w*)\s*\)`)
)

// repair returns the arguments for the next attempt, fixed by the
// failure's category, and says what it changed; nil when it knows no fix.
//   - missing_column: the unknown name replaced by the closest column;
//   - type_mismatch: aggregated text columns cast to numbers (TRY_CAST);
//   - resource_exhausted: a LIMIT of the row limit around the query;
//   - sql_syntax: identifiers that need quotes (keywords, spaces,
//     capitals) quoted.
func (r *run) repair(ctx context.Context, t *analysis.Subtask, args map[string]any, category string, cause error) (map[string]any, string) {
	next := maps.Clone(args)
	names := r.columnNames(ctx, t, args)
	switch category {
	case analysis.CategoryMissingColumn:
		bad := ""
		if m := missingName.FindStringSubmatch(quarry.ErrorMessage(cause)); m != nil {
			bad = m[1] + m[2]
			if i := strings.LastIndexByte(bad, '.'); i >= 0 {
				bad = bad[i+1:]
			}
		}
		if bad == "" {
			return nil, ""
		}
		fix := analysis.Closest(bad, names)
		if fix == "" {
			return nil, ""
		}
		if !replaceName(next, bad, fix) {
			return nil, ""
		}
		return next, fmt.Sprintf("column %s replaced by %s", bad, fix)
	case analysis.CategoryTypeMismatch:
		q, ok := next["query"].(string)
		if !ok {
			return nil, ""
		}
		fixed := aggregateOfText.ReplaceAllStringFunc(q, func(m string) string {
			sub := aggregateOfText.FindStringSubmatch(m)
			return fmt.Sprintf("%s(TRY_CAST(%s AS DOUBLE))", sub[1], sub[2])
		})
		if fixed == q {
			return nil, ""
		}
		next["query"] = fixed
		return next, "aggregated columns cast to numbers"
	case analysis.CategoryResourceExhausted:
		q, ok := next["query"].(string)
		if !ok || strings.Contains(strings.ToUpper(q), "LIMIT") {
			return nil, ""
		}
		limit := r.rowLimit(intArg(next["row_limit"]))
		next["query"] = fmt.Sprintf("SELECT * FROM (%s) AS limited LIMIT %d", strings.TrimRight(strings.TrimSpace(q), ";"), limit)
		return next, fmt.Sprintf("the result limited to %d rows", limit)
	case analysis.CategorySQLSyntax:
		q, ok := next["query"].(string)
		if !ok {
			return nil, ""
		}
		fixed := q
		for _, n := range names {
			if n == strings.ToLower(n) && !strings.Contains(n, " ") && !sqlKeyword(n) {
				continue
			}
			fixed = quoteBare(fixed, n)
		}
		if fixed == q {
			return nil, ""
		}
		next["query"] = fixed
		return next, "identifiers quoted"
	}
	return nil, ""
}

func intArg(v any) int {
	f, _ := v.(float64)
	if i, ok := v.(int); ok {
		return i
	}
	return int(f)
}

// replaceName swaps bad for fix in the query (as a whole word) or in the
// arguments that name columns.
func replaceName(args map[string]any, bad, fix string) bool {
	changed := false
	for k, v := range args {
		switch x := v.(type) {
		case string:
			if k == "query" {
				re := regexp.MustCompile(`(?i)("?)\b` + quarry.QuoteRegexp(bad) + `\b("?)`)
				if s := re.ReplaceAllString(x, `"`+strings.ReplaceAll(fix, "$", "$$")+`"`); s != x {
					args[k], changed = s, true
				}
			} else if k != "input" && k != "title" && strings.EqualFold(x, bad) {
				args[k], changed = fix, true
			}
		case []any:
			for i, e := range x {
				if s, ok := e.(string); ok && strings.EqualFold(s, bad) {
					x[i], changed = fix, true
				}
			}
		case []string:
			for i, s := range x {
				if strings.EqualFold(s, bad) {
					x[i], changed = fix, true
				}
			}
		}
	}
	return changed
}

// columnNames lists the columns a step can reach: its input's, or every
// workspace table's for a query.
func (r *run) columnNames(ctx context.Context, t *analysis.Subtask, args map[string]any) []string {
	var names []string
	if in, ok := args["input"].(string); ok {
		r.mu.Lock()
		out := r.outputs[in]
		r.mu.Unlock()
		if out != nil {
			for _, c := range out.columns {
				names = append(names, c.Name)
			}
		}
		return names
	}
	for _, tb := range r.tables {
		for _, c := range tb.Columns {
			names = append(names, c.Name)
		}
	}
	for _, d := range t.Dependencies {
		r.mu.Lock()
		out := r.outputs[d]
		r.mu.Unlock()
		if out != nil {
			for _, c := range out.columns {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

// quoteBare quotes the unquoted whole-word occurrences of name in q.
func quoteBare(q, name string) string {
	re := regexp.MustCompile(`(^|[^"\w])(` + quarry.QuoteRegexp(name) + `)([^"\w]|$)`)
	return re.ReplaceAllString(q, `${1}"${2}"${3}`)
}

// sqlKeyword reports whether name is a reserved word that must be quoted
// as an identifier.
func sqlKeyword(name string) bool {
	switch strings.ToLower(name) {
	case "order", "group", "select", "from", "where", "by", "to", "at", "as", "table", "user", "limit", "offset",
		"case", "when", "end", "and", "or", "not", "in", "is", "on", "join", "desc", "asc", "all", "any", "union", "default", "check", "column", "primary", "references":
		return true
	}
	return false
}

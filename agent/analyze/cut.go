package analyze

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// rowCut says that a step's rows are not all the rows its query had: they
// were cut at the row limit (From is ""), or the step was computed over
// the cut rows of step From. A number computed over cut rows is not the
// whole data's, so such a step never lets the analysis end completed.
type rowCut struct {
	Limit int   // the row limit the rows were cut at
	Kept  int64 // the rows kept
	// Total is the rows the query had; 0 when they could not be counted
	// (more than Kept).
	Total int64
	// Over says that the query is known to have had more rows than Kept
	// (it failed for them before a LIMIT was added).
	Over bool
	From string
}

// trailingLimit is a query's final LIMIT clause.
var trailingLimit = regexp.MustCompile(`(?is)\s+LIMIT\s+(\d+)\s*;?\s*$`)

// checkResult looks at the table a step's call produced before it counts
// as a success:
//   - after a type_mismatch repair (castRepair), a result column that is
//     empty (NULL) in every row means the cast turned every value into
//     NULL: the step failed, it did not find a total of nothing;
//   - rows cut at the row limit (limit rows kept by a LIMIT, the
//     planner's or the resource_exhausted repair's, out of more) are
//     marked, with the count of the rows there were; overLimit says that
//     the previous attempt had more rows than the limit, for when they
//     cannot be counted;
//   - a step that read a step's cut rows is marked as computed over them.
//
// The marks go into the step's observation data (truncated, row_limit,
// rows_available, computed_over_cut_rows_of).
func (r *run) checkResult(ctx context.Context, t *analysis.Subtask, args map[string]any, out *output, castRepair, overLimit bool) error {
	if castRepair && out.table != "" && out.rows > 0 {
		if col, err := r.emptyColumn(ctx, out); err != nil {
			return err
		} else if col != "" {
			return quarry.Errorf(quarry.ECodeInvalid, "type mismatch: casting the values to numbers left every value of %s empty (NULL): they are not numbers", col).
				WithHint("choose a numeric column, or clean the values first")
		}
	}
	if t.ToolName == analysis.ToolSQL && out.table != "" {
		limit := r.rowLimit(intArg(args["row_limit"]))
		q, _ := args["query"].(string)
		source, _ := args["source"].(string)
		if out.rows == int64(limit) {
			if m := trailingLimit.FindStringSubmatchIndex(q); m != nil {
				if k, err := strconv.Atoi(q[m[2]:m[3]]); err == nil && k >= limit {
					// Rows that cannot be counted are taken as cut: a
					// figure is never presented as whole without proof.
					total := r.countRows(ctx, source, q[:m[0]])
					if total > out.rows || total == 0 {
						out.cut = &rowCut{Limit: limit, Kept: out.rows, Total: total, Over: overLimit}
					}
				}
			}
		}
	}
	if out.cut == nil {
		deps := append([]string{}, t.Dependencies...)
		if in, ok := args["input"].(string); ok {
			deps = append(deps, in)
		}
		r.mu.Lock()
		for _, d := range deps {
			if o := r.outputs[d]; o != nil && o.cut != nil {
				c := *o.cut
				if c.From == "" {
					c.From = d
				}
				out.cut = &c
				break
			}
		}
		r.mu.Unlock()
	}
	if out.cut != nil {
		if data, ok := out.data.(map[string]any); ok {
			for k, v := range out.cut.meta() {
				data[k] = v
			}
		}
	}
	return nil
}

// emptyColumn returns a column of the step's table that is NULL in every
// row, "" when there is none.
func (r *run) emptyColumn(ctx context.Context, out *output) (string, error) {
	var counts []string
	for _, c := range out.columns {
		counts = append(counts, "count("+quoteIdent(c.Name)+")")
	}
	if len(counts) == 0 {
		return "", nil
	}
	res, err := r.ws.Query(ctx, "SELECT "+strings.Join(counts, ", ")+" FROM "+quoteIdent(out.table))
	if err != nil || len(res.Rows) != 1 {
		return "", err
	}
	for j, c := range out.columns {
		if res.Float(0, j) == 0 {
			return c.Name, nil
		}
	}
	return "", nil
}

// countRows counts the rows of query q where it runs (the database
// source, or the workspace), to say how many rows a cut kept of how many;
// 0 when they cannot be counted.
func (r *run) countRows(ctx context.Context, source, q string) int64 {
	count := "SELECT count(*) FROM (" + strings.TrimRight(strings.TrimSpace(q), ";") + ") AS counted"
	var res *quarry.QueryResult
	var err error
	if source != "" {
		src, ok := r.dbs[source]
		if !ok {
			return 0
		}
		res, err = src.Query(ctx, count, 1)
	} else {
		res, err = r.ws.Query(ctx, count)
	}
	if err != nil || len(res.Rows) != 1 {
		return 0
	}
	return int64(res.Float(0, 0))
}

// meta is the cut as an observation's data and an artifact's metadata
// state it.
func (c *rowCut) meta() map[string]any {
	m := map[string]any{"truncated": true, "row_limit": c.Limit, "rows_kept": c.Kept}
	if c.Total > 0 {
		m["rows_available"] = c.Total
	}
	if c.From != "" {
		m["computed_over_cut_rows_of"] = c.From
	}
	return m
}

// of says how many rows were kept of how many: "200,000 of 300,000" or
// "200,000 of more than 200,000" (or "of an uncounted number of" when
// the count failed).
func (c *rowCut) of() string {
	switch {
	case c.Total > 0:
		return fmt.Sprintf("%s of %s", formatNumber(float64(c.Kept)), formatNumber(float64(c.Total)))
	case c.Over:
		return fmt.Sprintf("%s of more than %s", formatNumber(float64(c.Kept)), formatNumber(float64(c.Kept)))
	}
	return fmt.Sprintf("%s of an uncounted number of", formatNumber(float64(c.Kept)))
}

// sentence says the cut in words, for the summary next to the numbers.
func (c *rowCut) sentence() string {
	if c.From != "" {
		return fmt.Sprintf("Computed over the first %s rows of step %s only (cut at the row limit of %s), so this is not the whole data's figure.",
			c.of(), c.From, formatNumber(float64(c.Limit)))
	}
	return fmt.Sprintf("These are the first %s rows only (cut at the row limit of %s).", c.of(), formatNumber(float64(c.Limit)))
}

// cutMeta is the metadata of step id's cut for its artifacts (nil when
// its rows are whole).
func (r *run) cutMeta(id string) map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if o := r.outputs[id]; o != nil && o.cut != nil {
		return o.cut.meta()
	}
	return nil
}

// ranQuery is the query step t last ran (a repair may have changed the
// plan's), "" for a step without one.
func (r *run) ranQuery(t analysis.Subtask) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.res.Calls) - 1; i >= 0; i-- {
		if c := r.res.Calls[i]; c.TaskID == t.TaskID {
			q, _ := c.Arguments["query"].(string)
			return q
		}
	}
	q, _ := t.Arguments["query"].(string)
	return q
}

// localPath finds file paths in an engine's words.
var localPath = regexp.MustCompile(`(^|[\s'"(=])((?:[A-Za-z]:)?(?:[/\\][\w.\-]+){2,})`)

// scrubPaths replaces the file paths in an engine's message by their base
// names: the server's directories are not the user's business.
func scrubPaths(msg string) string {
	return localPath.ReplaceAllStringFunc(msg, func(m string) string {
		sub := localPath.FindStringSubmatch(m)
		p := sub[2]
		if i := strings.LastIndexAny(p, `/\`); i >= 0 {
			p = p[i+1:]
		}
		return sub[1] + p
	})
}

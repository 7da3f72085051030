package investigate

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// maxDimCardinality bounds the values a dimension may have to be sliced by;
// columns with more values are identifiers in disguise.
const maxDimCardinality = 2000

// load validates and registers every file, then locks the sandbox.
func (r *run) load(ctx context.Context) error {
	r.tables = map[string]*investigation.UploadedFile{}
	for _, f := range r.in.Files {
		if f.TableName == "" {
			return fmt.Errorf("investigate: file %s has no table name", f.FileID)
		}
		r.progress(investigation.Event{Step: "load", Message: fmt.Sprintf("loading %s as table %s", f.OriginalName, f.TableName)})
		schema, rows, err := r.inv.Engine.LoadCSV(ctx, f.TableName, filepath.Join(r.inv.Out.Dir(), filepath.FromSlash(f.Path)))
		if err != nil {
			// The engine names the stored copy; people know the file by
			// the name they uploaded.
			if qe, ok := err.(*quarry.Error); ok {
				msg := strings.ReplaceAll(qe.Message, path.Base(f.Path), f.OriginalName)
				if !strings.Contains(msg, f.OriginalName) {
					msg = f.OriginalName + ": " + msg
				}
				return &quarry.Error{Code: qe.Code, Message: msg, Hint: qe.Hint}
			}
			return err
		}
		f.Schema, f.RowCount = schema, rows
		// The uploaded bytes are evidence too: record what was analysed.
		if err := r.recordArtifact(f.Path, "upload"); err != nil {
			return err
		}
		if err := r.artifact("files/"+f.FileID+"_meta.json", f); err != nil {
			return err
		}
		r.tables[f.TableName] = f
	}
	return r.inv.Engine.Lock(ctx)
}

// parseMetric parses the metric and finds its time column.
func (r *run) parseMetric(ctx context.Context) error {
	m, err := r.inv.Engine.ParseMetric(ctx, r.in.Context.MetricSQL)
	if err != nil {
		return err
	}
	m.TimeColumn, err = r.inv.Engine.TimeColumn(ctx, m, r.in.Context.TimeColumn, r.in.Context.TimeFormat)
	if err != nil {
		return err
	}
	r.metric = m
	r.scope = &scope{m: m, timeExpr: m.TimeColumn, base: r.in.Context.BaselinePeriod, cmp: r.in.Context.ComparisonPeriod}
	r.progress(investigation.Event{Step: "metric", Message: fmt.Sprintf("metric is %s over %s; time column %s", m.Kind, strings.Join(m.Tables, ", "), m.TimeColumn)})
	return nil
}

// inferSchema writes the data model and chooses the dimensions to slice by:
// dimension columns of the metric's tables, and of tables reached through
// a many-to-one relationship (joined in with LEFT JOIN so the metric's rows
// are neither lost nor duplicated).
func (r *run) inferSchema(ctx context.Context) error {
	names := make([]string, 0, len(r.tables))
	for name := range r.tables {
		names = append(names, name)
	}
	sort.Strings(names)
	rels, err := r.inv.Engine.Relationships(ctx, names)
	if err != nil {
		return err
	}
	rels = uniqueRelationships(rels)
	r.model = investigation.DataModel{SessionID: r.in.SessionID, Relationships: rels, InferredAt: r.now()}
	if r.model.Relationships == nil {
		r.model.Relationships = []investigation.Relationship{}
	}
	for _, name := range names {
		f := r.tables[name]
		ti := investigation.TableInfo{FileID: f.FileID, Name: name, RowCount: f.RowCount}
		if f.Schema != nil {
			ti.ColumnCount = len(f.Schema.Columns)
			ti.Columns = f.Schema.Columns
		}
		r.model.Tables = append(r.model.Tables, ti)
	}

	refs := r.metric.TableRefs
	r.refs = refs
	ignored, err := r.ignoredColumns()
	if err != nil {
		return err
	}
	parts, err := r.findTimeParts(ctx, ignored)
	if err != nil {
		return err
	}
	timeCol := strings.ToLower(r.metric.TimeColumn)
	inMetric := map[string]bool{}
	for _, t := range r.metric.Tables {
		inMetric[strings.ToLower(t)] = true
	}
	var dims []*Dim
	// columns lists the dimension columns of a table.
	columns := func(table string) []quarry.Column {
		f := r.tables[table]
		if f == nil || f.Schema == nil {
			return nil
		}
		var out []quarry.Column
		for _, c := range f.Schema.Columns {
			ref := investigation.ColumnRef{Table: table, Column: c.Name}
			if ignored[ref] || parts[ref].part != "" {
				continue
			}
			if c.InferredType == quarry.RoleDimension && c.Cardinality >= 2 && c.Cardinality <= maxDimCardinality {
				out = append(out, c)
			}
		}
		return out
	}
	for _, t := range r.metric.Tables {
		ref := refs[strings.ToLower(t)]
		if ref == "" {
			ref = t
		}
		for _, c := range columns(t) {
			expr := quoteIdent(ref) + "." + quoteIdent(c.Name)
			if readsColumn(timeCol, expr) {
				continue
			}
			name := c.Name
			if len(r.metric.Tables) > 1 {
				name = t + "." + c.Name
			}
			dims = append(dims, &Dim{Name: name, Table: t, Column: c.Name, Expr: expr, Cardinality: c.Cardinality})
		}
	}
	joined := 0
	for i := range rels {
		rel := &r.model.Relationships[i]
		from, to := strings.ToLower(rel.FromTable), strings.ToLower(rel.ToTable)
		cols := columns(rel.ToTable)
		if !inMetric[from] || inMetric[to] || !rel.ToUnique || rel.Confidence < 0.8 || rel.RelationshipType != investigation.RelForeignKey || len(cols) == 0 {
			continue
		}
		joined++
		alias := fmt.Sprintf("__rel%d", joined)
		fromRef := refs[from]
		if fromRef == "" {
			fromRef = rel.FromTable
		}
		// Join a projection whose columns are renamed, so no column of the
		// joined table can make the metric's own column names ambiguous.
		sel := []string{quoteIdent(rel.ToColumn) + " AS " + alias + "_key"}
		for k, c := range cols {
			col := fmt.Sprintf("%s_c%d", alias, k)
			sel = append(sel, quoteIdent(c.Name)+" AS "+col)
			dims = append(dims, &Dim{Name: rel.ToTable + "." + c.Name, Table: rel.ToTable, Column: c.Name,
				Expr: alias + "." + col, Cardinality: c.Cardinality, Via: rel})
		}
		r.scope.joins = append(r.scope.joins, fmt.Sprintf("LEFT JOIN (SELECT %s FROM %s) AS %s ON %s.%s = %s.%s_key",
			strings.Join(sel, ", "), quoteIdent(rel.ToTable), alias, quoteIdent(fromRef), quoteIdent(rel.FromColumn), alias, alias))
		inMetric[to] = true
	}
	// Fewer values first: they make sturdier segments and cheaper cubes.
	sort.SliceStable(dims, func(i, j int) bool { return dims[i].Cardinality < dims[j].Cardinality })
	candidates := dims
	r.allDims = candidates
	if dims, err = r.dropEquivalent(ctx, dims); err != nil {
		return err
	}
	dims, err = r.readSchema(ctx, dims)
	if err != nil {
		return err
	}
	dims = prioritise(dims, r.in.Context.InvestigationPrompt, r.in.Context.BusinessContext)
	if len(dims) > r.inv.MaxDims {
		dims = dims[:r.inv.MaxDims]
	}
	r.dims = dims
	for _, d := range dims {
		r.model.RecommendedDimensions = append(r.model.RecommendedDimensions, d.Name)
	}
	if r.model.RecommendedDimensions == nil {
		r.model.RecommendedDimensions = []string{}
	}
	r.model.Columns = r.columnRoles(ignored, parts, candidates)
	r.progress(investigation.Event{Step: "schema", Message: fmt.Sprintf("%d tables, %d relationships, dimensions: %s",
		len(r.model.Tables), len(rels), strings.Join(r.model.RecommendedDimensions, ", "))})
	r.progress(investigation.Event{Step: "schema", Message: "columns: " + investigation.DescribeRoles(r.model.Columns)})
	return r.artifact("analysis/schema.json", r.model)
}

// prioritise moves dimensions the user named in the prompt or asked for
// in the context (by their words or plural, see namedIn) to the front,
// keeping the rest in order.
func prioritise(dims []*Dim, prompt, context string) []*Dim {
	names := make([]string, len(dims))
	for i, d := range dims {
		names[i] = d.Column
	}
	named := map[string]bool{}
	for _, m := range namedIn(prompt, context, names) {
		named[m.column] = m.column != ""
	}
	var first, rest []*Dim
	for _, d := range dims {
		if named[d.Column] {
			first = append(first, d)
		} else {
			rest = append(rest, d)
		}
	}
	return append(first, rest...)
}

// uniqueRelationships keeps the first of relationships that link the same
// columns.
func uniqueRelationships(rels []investigation.Relationship) []investigation.Relationship {
	seen := map[string]bool{}
	out := rels[:0:0]
	for _, rel := range rels {
		k := strings.ToLower(rel.FromTable + "." + rel.FromColumn + ">" + rel.ToTable + "." + rel.ToColumn)
		if !seen[k] {
			seen[k] = true
			out = append(out, rel)
		}
	}
	return out
}

// readsColumn reports whether the time expression (lower case) reads the
// column expr ("orders.order_date"): it is the column itself, or a
// conversion of it such as make_date(CAST(yearly.year AS INTEGER), 1, 1).
func readsColumn(timeExpr, expr string) bool {
	t := strings.ReplaceAll(timeExpr, `"`, "")
	x := strings.ToLower(strings.ReplaceAll(expr, `"`, ""))
	for i := strings.Index(t, x); i >= 0; {
		end := i + len(x)
		before := i == 0 || !identByte(t[i-1])
		after := end == len(t) || !identByte(t[end])
		if before && after {
			return true
		}
		j := strings.Index(t[i+1:], x)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func identByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

package analyze

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// Recipe memory. A completed analysis is kept as a recipe: its request
// read as a shape (what it computes: aggregations, groupings and their
// grains, filters by operator, period, comparison, ranking, analyses,
// deliverables) and slots (the columns and values that fill the shape),
// and its plan with the slots as {placeholders}. A new request reuses a
// recipe only when it parses to the same shape; its own slots then fill
// the plan, so a reused recipe answers the new request, never the old one:
// the offline planner's plan is rebuilt from the new slots (the recipe
// vouches for the shape), a model's plan is the template filled with them,
// which saves the model call. A template that cannot take a changed slot
// safely (the old value is still in it somewhere, or it is a number in
// SQL) is skipped, saying which slot. Similarity of the requests' words or
// embeddings only ranks the recipes of the same shape; alone it never
// reuses. A request with words not understood neither reuses nor is kept,
// and only completed analyses are kept. A recipe of the same tables whose
// schema changed is adapted when every column it reads still exists, and
// skipped, saying which column is gone, otherwise.

// intentVector is a request's template embedded for comparison with
// stored recipes.
type intentVector struct {
	text  string
	model string // "" when the embedder is not configured or failed
	v     []float32
}

// embedIntent embeds a template with the configured embedder, or
// lexically when there is none or it fails (the run notes why).
func (r *run) embedIntent(ctx context.Context, text string) intentVector {
	if r.a.Embedder != nil && r.a.EmbeddingModel != "" {
		vs, err := r.a.Embedder.Embed(ctx, []string{text})
		if err == nil && len(vs) == 1 && len(vs[0]) > 0 {
			return intentVector{text: text, model: r.a.EmbeddingModel, v: vs[0]}
		}
		r.progress(analysis.Event{Step: "recipe", Message: fmt.Sprintf("embedding by %s failed, comparing recipes by their words: %v", r.a.EmbeddingModel, err)})
	}
	return intentVector{text: text, v: analysis.LexicalEmbedding(text)}
}

// similarity compares the request with a recipe: by the model's
// embeddings when both were made by the same model, else by their words.
// It only ranks recipes that already have the request's shape.
func (q intentVector) similarity(rc analysis.Recipe) float64 {
	if q.model != "" && rc.EmbeddingModel == q.model && len(rc.IntentEmbedding) == len(q.v) {
		return analysis.Cosine(q.v, rc.IntentEmbedding)
	}
	lexical := q.v
	if q.model != "" {
		lexical = analysis.LexicalEmbedding(q.text)
	}
	stored := rc.IntentEmbedding
	if rc.EmbeddingModel != "" || len(stored) != len(lexical) {
		stored = analysis.LexicalEmbedding(rc.IntentTemplate)
	}
	return analysis.Cosine(lexical, stored)
}

// template is a request's text with placeholders where it named values
// (filter values, the period), for the recipe's intent_template and its
// embedding.
type template struct {
	text   string
	values map[string]string // placeholder -> value as the data spells it
}

var placeholderName = regexp.MustCompile(`[^a-z0-9_]+`)

// templateOf replaces the values the request named (filter values, the
// period's label) by placeholders named after what they are.
func templateOf(in *intent.Intent) template {
	t := template{text: in.Text, values: map[string]string{}}
	put := func(key, value string) {
		key = strings.Trim(placeholderName.ReplaceAllString(strings.ToLower(key), "_"), "_")
		if key == "" || value == "" {
			return
		}
		if _, taken := t.values[key]; taken {
			return
		}
		t.values[key] = value
		re := regexp.MustCompile(`(?i)\b` + quarry.QuoteRegexp(value) + `\b`)
		t.text = re.ReplaceAllString(t.text, "{"+key+"}")
	}
	for _, f := range in.Filters {
		if len(f.Values) == 1 {
			put(f.Column, f.Values[0])
		}
	}
	if tr := in.Time; tr != nil {
		put("time_range", tr.Label)
	}
	if c := in.Compare; c != nil {
		put("compare_range", c.Label)
	}
	return t
}

// shapeOf reads a parsed request as a recipe's shape.
func (r *run) shapeOf(in *intent.Intent) analysis.RecipeShape {
	sh := analysis.RecipeShape{Table: strings.ToLower(in.Table), Measures: []string{}, Groups: []string{}, Filters: []string{},
		Period: in.Time != nil, Compare: in.Compare != nil, Analyses: slices.Compact(slices.Sorted(slices.Values(in.Analyses))),
		Deliverables: slices.Compact(slices.Sorted(slices.Values(r.named))), RowLimit: r.req.Constraints.RowLimit}
	if sh.Analyses == nil {
		sh.Analyses = []string{}
	}
	if sh.Deliverables == nil {
		sh.Deliverables = []string{}
	}
	var table analysis.SourceTable
	for _, t := range r.tables {
		if strings.EqualFold(t.Name, in.Table) {
			table = t
		}
	}
	if table.Source != "" {
		sh.Table = strings.ToLower(table.Source) + "/" + sh.Table
	}
	sh.Join, sh.Rest = table.From, restOf(in)
	for _, m := range in.Measures {
		if m.Column == "" {
			sh.Measures = append(sh.Measures, m.Agg+"(*)")
		} else if m.Since != "" {
			sh.Measures = append(sh.Measures, m.Agg+"(days)")
		} else if m.Over != "" {
			sh.Measures = append(sh.Measures, m.Agg+"(a/b each row)")
		} else if m.Times != "" || m.Per != "" {
			sh.Measures = append(sh.Measures, fmt.Sprintf("%s(a*%t/%t)", m.Agg, m.Times != "", m.Per != ""))
		} else {
			sh.Measures = append(sh.Measures, m.Agg)
		}
		if m.PerHowMany > 1 {
			// "per 1,000 people": a shape of its own, for that many
			sh.Measures[len(sh.Measures)-1] += fmt.Sprintf("x%g", m.PerHowMany)
		}
		if m.Scale != 0 {
			// "in $k": a shape of its own, shown in another unit
			sh.Measures[len(sh.Measures)-1] += fmt.Sprintf("/%g", m.Scale)
		}
		if m.DataScale != 0 {
			// "(gdp is in $ millions)": a ratio brought back to ones
			sh.Measures[len(sh.Measures)-1] += fmt.Sprintf("*%g", m.DataScale)
		}
	}
	for _, g := range in.GroupBy {
		kind := g.Grain
		if kind == "" {
			kind = "column"
			for _, c := range table.Columns {
				if strings.EqualFold(c.Name, g.Column) {
					kind = c.Type
				}
			}
		}
		sh.Groups = append(sh.Groups, kind)
	}
	for _, f := range in.Filters {
		sh.Filters = append(sh.Filters, fmt.Sprintf("%s %d", f.Op, len(f.Values)))
	}
	if t := in.Top; t != nil {
		sh.Top = "bottom"
		if t.Desc {
			sh.Top = "top"
		}
	}
	if len(r.req.Policy.AllowedColumns) > 0 {
		cols := make([]string, len(r.req.Policy.AllowedColumns))
		for i, c := range r.req.Policy.AllowedColumns {
			cols[i] = strings.ToLower(c)
		}
		slices.Sort(cols)
		sh.Policy = strings.Join(cols, ",")
	}
	return sh
}

// shapeFields are the parts of a parsed request that its shape and slots
// account for, by the JSON path of their parent ("" for the request).
var shapeFields = map[string][]string{
	"":         {"Text", "Table", "Measures", "Filters", "Time", "Compare", "GroupBy", "Top", "Analyses", "Understood", "Unparsed", "Unknown"},
	"Measures": {"Column", "Agg"},
	"Filters":  {"Column", "Op", "Values"},
	"Time":     {"Column", "Start", "End", "Label"},
	"Compare":  {"Column", "Start", "End", "Label"},
	"GroupBy":  {"Column", "Grain"},
	"Top":      {"N", "Column", "Desc"},
}

// restOf is what a parsed request holds beyond shapeFields, as JSON, or
// "": a part of requests the parser learns later keeps two requests that
// differ in it from sharing a recipe until the shape names it.
func restOf(in *intent.Intent) string {
	var m map[string]any
	raw, _ := json.Marshal(in)
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var prune func(path string, v any) any
	prune = func(path string, v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				_, container := shapeFields[k]
				switch {
				case !slices.Contains(shapeFields[path], k):
					// Not a part the shape knows: kept, unless empty.
				case container:
					vv = prune(k, vv)
				default:
					vv = nil
				}
				if vv = prune("?", vv); vv == nil {
					delete(x, k)
				} else {
					x[k] = vv
				}
			}
			if len(x) == 0 {
				return nil
			}
		case []any:
			var keep []any
			for _, e := range x {
				keep = append(keep, prune(path, e))
			}
			if !slices.ContainsFunc(keep, func(e any) bool { return e != nil }) {
				return nil
			}
			return keep
		case string:
			if x == "" {
				return nil
			}
		case bool:
			if !x {
				return nil
			}
		case float64:
			if x == 0 {
				return nil
			}
		}
		return v
	}
	rest := prune("", m)
	if rest == nil {
		return ""
	}
	return mustJSON(rest)
}

// slotsOf lists the values that fill a parsed request's shape, in a
// fixed order: two requests of one shape have the same slot names.
func slotsOf(in *intent.Intent) []analysis.RecipeSlot {
	var out []analysis.RecipeSlot
	add := func(name, kind, value string) {
		if value != "" {
			out = append(out, analysis.RecipeSlot{Name: name, Kind: kind, Value: value})
		}
	}
	for i, m := range in.Measures {
		add(fmt.Sprintf("measure_%d", i+1), analysis.SlotColumn, m.Column)
		add(fmt.Sprintf("measure_%d_times", i+1), analysis.SlotColumn, m.Times)
		add(fmt.Sprintf("measure_%d_over", i+1), analysis.SlotColumn, m.Over)
		add(fmt.Sprintf("measure_%d_per", i+1), analysis.SlotColumn, m.Per)
		add(fmt.Sprintf("measure_%d_since", i+1), analysis.SlotColumn, m.Since)
	}
	for i, g := range in.GroupBy {
		add(fmt.Sprintf("group_%d", i+1), analysis.SlotColumn, g.Column)
	}
	for i, f := range in.Filters {
		add(fmt.Sprintf("filter_%d_column", i+1), analysis.SlotColumn, f.Column)
		for j, v := range f.Values {
			kind := analysis.SlotValue
			if isNumber(v) {
				kind = analysis.SlotNumber
			}
			name := fmt.Sprintf("filter_%d", i+1)
			if len(f.Values) > 1 {
				name = fmt.Sprintf("filter_%d_%d", i+1, j+1)
			}
			add(name, kind, v)
		}
	}
	period := func(prefix string, tr *intent.TimeRange) {
		if tr == nil {
			return
		}
		add(prefix+"column", analysis.SlotColumn, tr.Column)
		add(prefix+"start", analysis.SlotDate, tr.Start)
		add(prefix+"end", analysis.SlotDate, tr.End)
		add(prefix+"label", analysis.SlotLabel, tr.Label)
	}
	period("period_", in.Time)
	period("compare_", in.Compare)
	if t := in.Top; t != nil {
		add("top_n", analysis.SlotNumber, strconv.Itoa(t.N))
		add("top_column", analysis.SlotColumn, t.Column)
	}
	return out
}

var numberRe = regexp.MustCompile(`^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$`)

func isNumber(s string) bool { return numberRe.MatchString(s) }

// shapeDiff says, in words, how a request's shape differs from a
// recipe's ("aggregation differs (avg vs sum)"); nil when they are the
// same.
func shapeDiff(now, was analysis.RecipeShape) []string {
	var d []string
	list := func(what string, a, b []string) {
		if !slices.Equal(a, b) {
			d = append(d, fmt.Sprintf("%s differ (%s vs %s)", what, orNone(a), orNone(b)))
		}
	}
	flag := func(what string, a, b bool) {
		if a != b {
			yes := map[bool]string{true: "yes", false: "none"}
			d = append(d, fmt.Sprintf("%s differs (%s vs %s)", what, yes[a], yes[b]))
		}
	}
	if now.Table != was.Table {
		d = append(d, fmt.Sprintf("table differs (%s vs %s)", now.Table, was.Table))
	}
	if len(now.Measures) == len(was.Measures) && len(now.Measures) == 1 && now.Measures[0] != was.Measures[0] {
		d = append(d, fmt.Sprintf("aggregation differs (%s vs %s)", now.Measures[0], was.Measures[0]))
	} else {
		list("aggregations", now.Measures, was.Measures)
	}
	list("groupings", now.Groups, was.Groups)
	list("filters", now.Filters, was.Filters)
	flag("period", now.Period, was.Period)
	flag("comparison", now.Compare, was.Compare)
	if now.Top != was.Top {
		d = append(d, fmt.Sprintf("ranking differs (%s vs %s)", orNone([]string{now.Top}), orNone([]string{was.Top})))
	}
	list("analyses", now.Analyses, was.Analyses)
	list("deliverables", now.Deliverables, was.Deliverables)
	if now.RowLimit != was.RowLimit {
		d = append(d, fmt.Sprintf("row limit differs (%d vs %d)", now.RowLimit, was.RowLimit))
	}
	if now.Policy != was.Policy {
		d = append(d, "column policy differs")
	}
	return d
}

func orNone(xs []string) string {
	s := strings.Join(slices.DeleteFunc(slices.Clone(xs), func(x string) bool { return x == "" }), ", ")
	if s == "" {
		return "none"
	}
	return s
}

// slotWords names slots in notes.
func slotWord(name string) string {
	switch {
	case strings.HasPrefix(name, "measure_"):
		return "measure"
	case strings.HasPrefix(name, "group_"):
		return "grouping"
	case strings.HasSuffix(name, "_column") && strings.HasPrefix(name, "filter_"):
		return "filter column"
	case strings.HasPrefix(name, "filter_"):
		return "filter value"
	case name == "period_column", name == "compare_column":
		return "date column"
	case strings.HasPrefix(name, "period_"):
		return "period"
	case strings.HasPrefix(name, "compare_"):
		return "compared period"
	case name == "top_n":
		return "N"
	case name == "top_column":
		return "ranked column"
	}
	return name
}

// slotsText lists a request's slots for the recipe note:
// "measure=sum(amount), grouping=product, state=Texas, period=2020".
func slotsText(in *intent.Intent) string {
	var parts []string
	for _, m := range in.Measures {
		col := m.Column
		if col == "" {
			col = "*"
		}
		if m.Times != "" {
			col += "*" + m.Times
		}
		if m.Over != "" {
			col += "÷" + m.Over
		}
		if m.Since != "" {
			col = "days " + m.Since + "->" + col
		}
		if m.Per != "" {
			col += "/" + m.Per
		}
		if m.Scale != 0 {
			col += fmt.Sprintf(" in units of %g", m.Scale)
		}
		if m.DataScale != 0 {
			col += fmt.Sprintf(" from units of %g", m.DataScale)
		}
		parts = append(parts, fmt.Sprintf("measure=%s(%s)", m.Agg, col))
	}
	for _, g := range in.GroupBy {
		if g.Grain != "" {
			parts = append(parts, fmt.Sprintf("grouping=%s by %s", g.Column, g.Grain))
		} else {
			parts = append(parts, "grouping="+g.Column)
		}
	}
	for _, f := range in.Filters {
		op := f.Op
		if op == "in" {
			op = " in "
		}
		parts = append(parts, fmt.Sprintf("%s%s%s", f.Column, op, strings.Join(f.Values, "|")))
	}
	if tr := in.Time; tr != nil {
		parts = append(parts, fmt.Sprintf("period=%s (%s to %s)", tr.Label, tr.Start, tr.End))
	}
	if c := in.Compare; c != nil {
		parts = append(parts, fmt.Sprintf("compared with=%s (%s to %s)", c.Label, c.Start, c.End))
	}
	if t := in.Top; t != nil {
		parts = append(parts, fmt.Sprintf("N=%d", t.N))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// slotRe finds placeholders in a recipe's plan: {name}, or {^name} for
// the value capitalized (a column's name at the start of a title).
var slotRe = regexp.MustCompile(`\{(\^?)([a-z0-9_]+)\}`)

// stepRef finds a query's references to the tables of earlier steps.
var stepRef = regexp.MustCompile(`\bstep_([A-Za-z0-9_]+)\b`)

// valuePattern matches a slot's value as a whole word (at the edges
// that are word characters).
func valuePattern(v string) *regexp.Regexp {
	p := quarry.QuoteRegexp(v)
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	if first, _ := utf8.DecodeRuneInString(v); word(first) {
		p = `\b` + p
	}
	if last, _ := utf8.DecodeLastRuneInString(v); word(last) {
		p += `\b`
	}
	return regexp.MustCompile(p)
}

// parameterize replaces, in the plan's descriptions and string arguments,
// the slots' values by their placeholders: longer values first, so that
// "2020-01-01" goes before "2020". In the names of steps (and where a
// step names another) a column's name is replaced wherever it occurs, so
// that "by_product" becomes "by_{group_1}" and the filled plan's steps
// are named after what they compute. It returns nil when the plan
// already holds text that looks like one of the placeholders, which
// filling would change.
func parameterize(steps []analysis.Subtask, slots []analysis.RecipeSlot) []analysis.Subtask {
	raw, _ := json.Marshal(steps)
	for _, m := range slotRe.FindAllStringSubmatch(string(raw), -1) {
		if slices.ContainsFunc(slots, func(s analysis.RecipeSlot) bool { return s.Name == m[2] }) {
			return nil
		}
	}
	order := slices.Clone(slots)
	sort.SliceStable(order, func(i, j int) bool { return len(order[i].Value) > len(order[j].Value) })
	res := make([]*regexp.Regexp, len(order))
	caps := make([]*regexp.Regexp, len(order))
	for i, s := range order {
		res[i] = valuePattern(s.Value)
		if c := capitalize(s.Value); s.Kind == analysis.SlotColumn && c != s.Value {
			caps[i] = valuePattern(c)
		}
	}
	ids := map[string]bool{}
	for _, t := range steps {
		ids[t.TaskID] = true
	}
	id := func(id string) string {
		for _, sl := range order {
			if sl.Kind == analysis.SlotColumn && identRe.MatchString(sl.Value) {
				id = strings.ReplaceAll(id, sl.Value, "{"+sl.Name+"}")
			}
		}
		return id
	}
	return mapStrings(steps, func(key string, s string) string {
		for i, sl := range order {
			s = res[i].ReplaceAllLiteralString(s, "{"+sl.Name+"}")
			if caps[i] != nil && key != "query" {
				s = caps[i].ReplaceAllLiteralString(s, "{^"+sl.Name+"}")
			}
		}
		if key == "query" {
			// A step's table is named after the step.
			s = stepRef.ReplaceAllStringFunc(s, func(m string) string {
				if name := m[len("step_"):]; ids[name] {
					return "step_" + id(name)
				}
				return m
			})
		}
		return s
	}, id)
}

// fill puts slots' values into a recipe's placeholders, in one pass (a
// value that looks like a placeholder stays as it is); in queries a
// value of the data is escaped as an SQL string's content.
func fill(steps []analysis.Subtask, slots []analysis.RecipeSlot) []analysis.Subtask {
	byName := map[string]analysis.RecipeSlot{}
	for _, s := range slots {
		byName[s.Name] = s
	}
	put := func(key, s string) string {
		return slotRe.ReplaceAllStringFunc(s, func(m string) string {
			sub := slotRe.FindStringSubmatch(m)
			sl, ok := byName[sub[2]]
			switch {
			case !ok:
				return m
			case sub[1] == "^":
				return capitalize(sl.Value)
			case key == "query" && sl.Kind == analysis.SlotValue:
				return strings.ReplaceAll(sl.Value, "'", "''")
			}
			return sl.Value
		})
	}
	return mapStrings(steps, put, func(id string) string { return put("", id) })
}

// mapStrings copies steps with text applied to every description,
// invariant and string argument (with the argument's key, "" inside
// lists), and id to the names of steps: each step's, its dependencies',
// and an argument that names a step (an input).
func mapStrings(steps []analysis.Subtask, text func(key, s string) string, id func(string) string) []analysis.Subtask {
	raw, _ := json.Marshal(steps)
	var out []analysis.Subtask
	json.Unmarshal(raw, &out)
	ids := map[string]bool{}
	for _, t := range out {
		ids[t.TaskID] = true
	}
	var walk func(k string, v any) any
	walk = func(k string, v any) any {
		switch x := v.(type) {
		case string:
			if ids[x] {
				return id(x)
			}
			return text(k, x)
		case []any:
			for i := range x {
				x[i] = walk("", x[i])
			}
		case map[string]any:
			for kk, vv := range x {
				x[kk] = walk(kk, vv)
			}
		}
		return v
	}
	for i := range out {
		out[i].Description = text("description", out[i].Description)
		for j, v := range out[i].Invariants {
			out[i].Invariants[j] = text("invariant", v)
		}
		for k, v := range out[i].Arguments {
			out[i].Arguments[k] = walk(k, v)
		}
		out[i].TaskID = id(out[i].TaskID)
		for j, d := range out[i].Dependencies {
			out[i].Dependencies[j] = id(d)
		}
		out[i].Status = analysis.TaskPending
	}
	return out
}

// planText is every string a template's steps hold (their descriptions
// and arguments, not the names of steps), placeholders removed, in lower
// case.
func planText(steps []analysis.Subtask) string {
	var b strings.Builder
	mapStrings(steps, func(_ string, s string) string {
		b.WriteString(strings.ToLower(slotRe.ReplaceAllString(s, "\x00")))
		b.WriteString("\n")
		return s
	}, func(id string) string { return id })
	return b.String()
}

// marks are the traces of a slot's value that must be gone from a
// template before the slot can take another value: the value, its
// words, and a date's year.
func marks(s analysis.RecipeSlot) []string {
	v := strings.ToLower(s.Value)
	if s.Kind == analysis.SlotDate && len(v) >= 4 {
		return []string{v, v[:4]}
	}
	out := []string{v}
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 2 && w != v {
			out = append(out, w)
		}
	}
	return out
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// refill fills a model's recipe with the request's slots, or says why
// its template cannot take them: a slot that changed must be in the
// template as a placeholder and nowhere else as its old value, a number
// in SQL is never swapped, a column is swapped only for a plain name, and
// slots that had one value must keep one value.
func refill(rc analysis.Recipe, now []analysis.RecipeSlot) ([]analysis.Subtask, string) {
	steps := rc.PlanStructure.Subtasks
	was := map[string]analysis.RecipeSlot{}
	for _, s := range rc.PlanStructure.Slots {
		was[s.Name] = s
	}
	cur := map[string]analysis.RecipeSlot{}
	for _, s := range now {
		cur[s.Name] = s
	}
	for name := range was {
		if _, ok := cur[name]; !ok {
			return nil, fmt.Sprintf("this request has no %s", slotWord(name))
		}
	}
	raw, _ := json.Marshal(steps)
	text := planText(steps)
	for _, s := range now {
		old, ok := was[s.Name]
		if !ok {
			return nil, fmt.Sprintf("the recipe has no %s", slotWord(s.Name))
		}
		if old.Value == s.Value {
			continue
		}
		cannot := func(why string) (_ []analysis.Subtask, _ string) {
			return nil, fmt.Sprintf("%s differs (%s vs %s) and %s", slotWord(s.Name), s.Value, old.Value, why)
		}
		switch {
		case s.Kind == analysis.SlotNumber || old.Kind == analysis.SlotNumber:
			return cannot("a number in the recipe's SQL is not swapped")
		case s.Kind == analysis.SlotColumn && (!identRe.MatchString(s.Value) || !identRe.MatchString(old.Value)):
			return cannot("only plain column names are swapped")
		case !strings.Contains(string(raw), "{"+s.Name+"}") && !strings.Contains(string(raw), "{^"+s.Name+"}"):
			return cannot("the recipe's plan does not use it")
		case s.Kind == analysis.SlotLabel && strings.Contains(queries(steps), "{"+s.Name+"}"):
			// "2020" in SQL is a year; "Q1 2021" in its place is no
			// period at all.
			return cannot("the recipe's SQL spells the period by its label")
		}
		for _, m := range marks(old) {
			if strings.Contains(text, m) {
				return cannot(fmt.Sprintf("the recipe's plan still reads %q elsewhere", m))
			}
		}
		for _, o := range rc.PlanStructure.Slots {
			if o.Name != s.Name && strings.EqualFold(o.Value, old.Value) && !strings.EqualFold(cur[o.Name].Value, s.Value) {
				return cannot(fmt.Sprintf("the recipe's plan used one value for it and the %s", slotWord(o.Name)))
			}
		}
	}
	out := fill(steps, now)
	if left := slotRe.FindStringSubmatch(mustJSON(out)); left != nil {
		return nil, fmt.Sprintf("its placeholder {%s} has no value", left[2])
	}
	return out, ""
}

// queries is the SQL of a template's steps.
func queries(steps []analysis.Subtask) string {
	var b strings.Builder
	for _, t := range steps {
		if q, ok := t.Arguments["query"].(string); ok {
			b.WriteString(q + "\n")
		}
	}
	return b.String()
}

func mustJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// fingerprint is the schema fingerprint of all the request's tables.
func (r *run) fingerprint() string { return analysis.Fingerprint(r.tables) }

// maxRecipeNotes is how many skipped recipes the note names.
const maxRecipeNotes = 3

// fromRecipe looks for a recipe of the request's shape, and returns a
// plan for the request with its slots, or nil; the note says what was
// reused with which slots, or why each recipe was skipped. With
// byModel, the plans come from a model, and only a model's recipes are
// reused (an offline recipe would stand for the offline planner).
func (r *run) fromRecipe(ctx context.Context, in *intent.Intent, byModel bool) (*analysis.Plan, string) {
	store := r.a.Recipes
	if store == nil || in == nil {
		return nil, ""
	}
	if w := notUnderstood(in); len(w) > 0 {
		return nil, "recipes not consulted: the request has words not understood (" + strings.Join(w, ", ") + ")"
	}
	found, err := store.Find(ctx, r.fingerprint())
	adapted := false
	if err == nil && len(found) == 0 {
		var names []string
		for _, tb := range r.tables {
			names = append(names, tb.Name)
		}
		found, err = store.Candidates(ctx, names)
		adapted = true
	}
	if err != nil {
		r.progress(analysis.Event{Step: "recipe", Message: "could not read the recipes: " + err.Error()})
		return nil, ""
	}
	if len(found) == 0 {
		return nil, ""
	}
	shape, slots := r.shapeOf(in), slotsOf(in)
	// Recipes of the request's shape come first, ranked by the
	// similarity of their requests (embedded only when there are such);
	// the others only say why not.
	type scored struct {
		rc   analysis.Recipe
		diff []string
		sim  float64
	}
	ranked := make([]scored, len(found))
	matching := false
	for i, rc := range found {
		ranked[i] = scored{rc: rc}
		if sh := rc.PlanStructure.Shape; sh == nil {
			ranked[i].diff = []string{"it was kept before recipes recorded their structure"}
		} else {
			ranked[i].diff = shapeDiff(shape, *sh)
		}
		matching = matching || len(ranked[i].diff) == 0
	}
	if matching {
		q := r.embedIntent(ctx, templateOf(in).text)
		for i := range ranked {
			if len(ranked[i].diff) == 0 {
				ranked[i].sim = q.similarity(ranked[i].rc)
			}
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		if (len(ranked[i].diff) == 0) != (len(ranked[j].diff) == 0) {
			return len(ranked[i].diff) == 0
		}
		if ranked[i].sim != ranked[j].sim {
			return ranked[i].sim > ranked[j].sim
		}
		return ranked[i].rc.SuccessCount > ranked[j].rc.SuccessCount
	})
	var notes []string
	more := 0
	skip := func(id, why string) {
		if len(notes) < maxRecipeNotes {
			notes = append(notes, fmt.Sprintf("recipe %s skipped: %s", id, why))
		} else {
			more++
		}
	}
	for _, c := range ranked {
		rc := c.rc
		if len(c.diff) > 0 {
			skip(rc.RecipeID, strings.Join(c.diff, ", "))
			continue
		}
		if gone := r.missingColumns(rc.PlanStructure.Tables); gone != "" {
			skip(rc.RecipeID, gone)
			continue
		}
		offline := rc.PlanStructure.Planner == "offline"
		if offline && byModel {
			skip(rc.RecipeID, "the offline planner wrote it, and a model plans here")
			continue
		}
		var plan *analysis.Plan
		how := "its plan filled with them"
		if offline {
			// The offline planner is a function of the request: its plan
			// for the new slots is the recipe's plan with them.
			p, err := planFor(r.req, in, r.tables, slices.Contains(r.named, analysis.DeliverCharts))
			if err != nil {
				skip(rc.RecipeID, quarry.ErrorMessage(err))
				continue
			}
			plan, how = p, "its plan rebuilt from them"
			plan.Reasoning = fmt.Sprintf("Recipe %s (%q, used %d times), same structure, rebuilt with this request's slots. %s", rc.RecipeID, rc.IntentTemplate, rc.SuccessCount, p.Reasoning)
		} else {
			steps, why := refill(rc, slots)
			if steps == nil {
				skip(rc.RecipeID, why)
				continue
			}
			plan = &analysis.Plan{Subtasks: steps, Status: analysis.PlanDraft,
				Reasoning: fmt.Sprintf("Recipe %s (%q, used %d times), same structure, filled with this request's slots.", rc.RecipeID, rc.IntentTemplate, rc.SuccessCount)}
		}
		if adapted {
			plan.Reasoning += " The schema changed since it was made; every column it reads still exists."
		}
		r.res.RecipeID = rc.RecipeID
		notes = append(notes, fmt.Sprintf("reused recipe %s: same structure, slots %s; %s", rc.RecipeID, slotsText(in), how))
		return plan, strings.Join(notes, "; ")
	}
	if more > 0 {
		notes = append(notes, fmt.Sprintf("%d more recipes skipped", more))
	}
	return nil, strings.Join(notes, "; ")
}

// missingColumns says which column a recipe reads that the sources no
// longer have, or "".
func (r *run) missingColumns(tables map[string][]string) string {
	for name, cols := range tables {
		var have []string
		found := false
		for _, t := range r.tables {
			if strings.EqualFold(t.Name, name) {
				found = true
				for _, c := range t.Columns {
					have = append(have, strings.ToLower(c.Name))
				}
			}
		}
		if !found {
			return fmt.Sprintf("table %s no longer exists", name)
		}
		for _, c := range cols {
			if !slices.Contains(have, strings.ToLower(c)) {
				return fmt.Sprintf("column %s no longer exists in %s", c, name)
			}
		}
	}
	return ""
}

// notUnderstood lists what of a request was not understood or could
// not be applied: its unparsed words, and its unknowns.
func notUnderstood(in *intent.Intent) []string {
	out := slices.Clone(in.Unparsed)
	for _, u := range in.Unknown {
		if !slices.Contains(out, u.Word) {
			out = append(out, u.Word)
		}
	}
	return out
}

// remember keeps a completed analysis as a recipe, or counts a reuse.
// Nothing else is kept: not an analysis that failed, ended
// partial_success or asked for clarification, not a request with words
// not understood (its plan answered less than was asked), not a replay.
func (r *run) remember(ctx context.Context, in *intent.Intent, how string) {
	store := r.a.Recipes
	if store == nil || in == nil || len(notUnderstood(in)) > 0 || r.req.Status != analysis.StatusCompleted ||
		r.res.Error != nil || r.res.Clarification != nil || how == "replay" {
		return
	}
	now := r.now()
	if how == "recipe" {
		if err := store.Used(ctx, r.res.RecipeID, now); err != nil {
			r.progress(analysis.Event{Step: "recipe", Message: "could not count the reuse: " + err.Error()})
		}
		return
	}
	slots := slotsOf(in)
	steps := parameterize(r.plan.Subtasks, slots)
	// A template that does not give back the plan with the request's own
	// slots would not give the next request's plan either.
	if steps == nil || mustJSON(fill(steps, slots)) != mustJSON(mapStrings(r.plan.Subtasks, func(_ string, s string) string { return s }, func(id string) string { return id })) {
		r.progress(analysis.Event{Step: "recipe", Message: "not kept as a recipe: its plan does not make a template"})
		return
	}
	shape := r.shapeOf(in)
	t := templateOf(in)
	q := r.embedIntent(ctx, t.text)
	args := make([]map[string]any, len(steps))
	for i, s := range steps {
		args[i] = s.Arguments
	}
	planner := how
	if planner != "offline" {
		planner = "model"
	}
	rc := &analysis.Recipe{RecipeID: quarry.NewID(), SchemaFingerprint: r.fingerprint(), IntentTemplate: t.text,
		IntentEmbedding: q.v, EmbeddingModel: q.model,
		PlanStructure: analysis.RecipePlan{Subtasks: steps, Reasoning: r.plan.Reasoning, Tables: r.readColumns(ctx),
			Planner: planner, Shape: &shape, Slots: slots},
		ToolArgumentTemplates: args, SuccessCount: 1, CreatedAt: now, LastUsedAt: now}
	id, err := store.Save(ctx, rc)
	if err != nil {
		r.progress(analysis.Event{Step: "recipe", Message: "could not keep the recipe: " + err.Error()})
		return
	}
	r.res.RecipeID = id
}

// readColumns lists, per source table, the columns the plan's queries
// read, from their parse trees.
func (r *run) readColumns(ctx context.Context) map[string][]string {
	out := map[string][]string{}
	for _, t := range r.plan.Subtasks {
		q, ok := t.Arguments["query"].(string)
		if !ok {
			continue
		}
		refs, err := r.ws.References(ctx, q)
		if err != nil {
			continue
		}
		for _, name := range refs.Tables {
			for _, tb := range r.tables {
				if !strings.EqualFold(tb.Name, name) {
					continue
				}
				for _, parts := range refs.Columns {
					col := parts[len(parts)-1]
					if slices.ContainsFunc(tb.Columns, func(c analysis.SourceColumn) bool { return strings.EqualFold(c.Name, col) }) && !slices.Contains(out[tb.Name], col) {
						out[tb.Name] = append(out[tb.Name], col)
					}
				}
				if _, ok := out[tb.Name]; !ok {
					out[tb.Name] = []string{}
				}
			}
		}
	}
	return out
}

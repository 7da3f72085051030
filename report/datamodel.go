package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// dataModel writes the tables, their joins and the recommended dimensions,
// starting with a text diagram a reader can take in at a glance.
func (w *mdWriter) dataModel() {
	dm := &w.in.DataModel
	w.heading(2, "Data Model")
	if len(dm.Tables) == 0 {
		w.para("No tables were profiled.")
		return
	}
	w.codeBlock("", "text", diagram(dm))
	for _, t := range dm.Tables {
		w.heading(3, fmt.Sprintf("%s (%s rows, %d columns)", cell(t.Name), grouped(float64(t.RowCount), 0), columnCount(t)))
		if len(t.Columns) == 0 {
			continue
		}
		w.printf("| Column | Role | Type | Distinct | Nulls |")
		w.printf("|---|---|---|---:|---:|")
		for _, c := range t.Columns {
			w.printf("| %s | %s | %s | %s | %s |", code(c.Name), cell(roleOf(dm.Columns, t.Name, c)), cell(c.DataType),
				grouped(float64(c.Cardinality), 0), grouped(float64(c.NullCount), 0))
		}
		heading := false
		for _, c := range t.Columns {
			if c.Note == "" {
				continue
			}
			if !heading {
				w.printf("")
				w.printf("How the file was read:")
				w.printf("")
				heading = true
			}
			w.printf("- %s: %s", code(c.Name), prose(c.Note))
		}
	}
	if len(dm.Relationships) > 0 {
		w.heading(3, "Relationships")
		w.printf("| Join | Type | Confidence | Values matched |")
		w.printf("|---|---|---:|---:|")
		for _, r := range dm.Relationships {
			w.printf("| %s → %s | %s | %.2f | %s |", code(r.FromTable+"."+r.FromColumn), code(r.ToTable+"."+r.ToColumn),
				relationshipType(r), r.Confidence, grouped(r.Containment*100, 1)+"%")
		}
	}
	if len(dm.RecommendedDimensions) > 0 {
		w.para("**Recommended dimensions:** %s", codeList(dm.RecommendedDimensions))
	}
	w.timeParts(dm.Columns)
	for _, g := range dm.EquivalentColumns {
		if len(g) > 1 {
			w.para("**Same information:** %s is also given by %s (their values match one to one), so segments and data problems are reported by %s only.",
				code(g[0]), codeList(g[1:]), code(g[0]))
		}
	}
}

// roleOf is what the investigation did with a column, in words: its role
// in the data model's column roles, or the profile's role when the model
// has none for it (a table the metric does not read).
func roleOf(roles []investigation.ColumnRole, table string, c quarry.Column) string {
	for _, r := range roles {
		if r.Table != table || r.Column != c.Name {
			continue
		}
		switch r.Role {
		case investigation.ColumnTimePart:
			return "time part (" + r.Part + ")"
		case investigation.ColumnNotSliced:
			return "not sliced: " + r.Reason
		case investigation.ColumnTimestamp:
			return "timestamp, not used"
		}
		return strings.ReplaceAll(r.Role, "_", " ")
	}
	return c.InferredType
}

// timeParts says which columns were read as parts of the time column and
// ignored on request, and how to change that.
func (w *mdWriter) timeParts(roles []investigation.ColumnRole) {
	var parts, ignored []string
	for _, r := range roles {
		switch r.Role {
		case investigation.ColumnTimePart:
			parts = append(parts, code(r.Column)+" "+prose(r.Reason))
		case investigation.ColumnIgnored:
			ignored = append(ignored, code(r.Column))
		}
	}
	if len(parts) > 0 {
		w.para("**Time, not segments:** %s, so %s time, never a segment (`--ignore-column NAME` leaves out other columns).",
			strings.Join(parts, "; "), map[bool]string{true: "it is", false: "they are"}[len(parts) == 1])
	}
	if len(ignored) > 0 {
		w.para("**Left out by request:** %s.", strings.Join(ignored, ", "))
	}
}

// columnCount prefers the profiled columns over the stored count, which a
// caller may leave at zero.
func columnCount(t investigation.TableInfo) int {
	if len(t.Columns) > 0 {
		return len(t.Columns)
	}
	return t.ColumnCount
}

// relationshipType names a relationship for people.
func relationshipType(r investigation.Relationship) string {
	s := strings.ReplaceAll(r.RelationshipType, "_", " ")
	if r.ToUnique {
		s += ", many-to-one"
	}
	return s
}

// diagram draws every table with its outgoing joins:
//
//	orders (12,345 rows)
//	├─ customer_id ──> customers.customer_id  [foreign key, 0.98]
//	└─ product_id  ··> products.sku           [similar values, 0.71]
//
// Solid arrows are foreign keys, dotted arrows weaker value matches.
func diagram(dm *investigation.DataModel) string {
	var b strings.Builder
	dotted := false
	for i, t := range dm.Tables {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s rows)\n", oneLine(t.Name), grouped(float64(t.RowCount), 0))
		var out []investigation.Relationship
		for _, r := range dm.Relationships {
			if r.FromTable == t.Name {
				out = append(out, r)
			}
		}
		colWidth, targetWidth := 0, 0
		for _, r := range out {
			colWidth = max(colWidth, utf8.RuneCountInString(r.FromColumn))
			targetWidth = max(targetWidth, utf8.RuneCountInString(r.ToTable+"."+r.ToColumn))
		}
		for j, r := range out {
			branch, arrow := "├─", "──>"
			if j == len(out)-1 {
				branch = "└─"
			}
			if r.RelationshipType != investigation.RelForeignKey {
				arrow, dotted = "··>", true
			}
			fmt.Fprintf(&b, "%s %s %s %s  [%s, %.2f]\n", branch, pad(r.FromColumn, colWidth), arrow,
				pad(r.ToTable+"."+r.ToColumn, targetWidth), strings.ReplaceAll(r.RelationshipType, "_", " "), r.Confidence)
		}
	}
	if len(dm.Relationships) > 0 {
		b.WriteString("\n──> foreign key")
		if dotted {
			b.WriteString("   ··> similar values")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// maxPadRunes bounds the column the diagram aligns to, so one long name
// does not pad every other line of the diagram to its length.
const maxPadRunes = 40

// pad right-pads s with spaces to n runes, at most maxPadRunes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, min(n, maxPadRunes)-utf8.RuneCountInString(s)))
}

package web

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Geometry of the data model diagram, in SVG user units (pixels at 100%).
const (
	dmBoxWidth   = 240
	dmHeader     = 30
	dmLine       = 20
	dmPad        = 10
	dmColumnGap  = 190
	dmRowGap     = 30
	dmMargin     = 16
	dmMaxColumns = 6
	dmNameChars  = 26 // characters of a table or column name shown in a box
)

// dataModelView is the diagram of a data model and its text alternative.
type dataModelView struct {
	SVG           template.HTML
	Tables        []dmTableText
	Relationships []dmRelText
}

type dmTableText struct {
	Name     string
	RowCount int64
	Keys     []string
}

type dmRelText struct {
	From, To, Kind string
	Confidence     float64
}

// dmBox is one table's box in the diagram.
type dmBox struct {
	table   investigation.TableInfo
	keys    []string // the key columns listed in the box
	more    int      // columns not listed
	layer   int
	x, y, h int
}

// newDataModelView draws dm: a box per table with its name, row count and
// key columns, and an arrow per relationship from the many side to the
// table it refers to, labelled with the join columns. Tables are laid out
// in columns: those that refer to others on the left, those referred to on
// the right.
func newDataModelView(dm *investigation.DataModel) *dataModelView {
	if dm == nil || len(dm.Tables) == 0 {
		return nil
	}
	boxes := make([]*dmBox, len(dm.Tables))
	index := map[string]int{}
	for i, t := range dm.Tables {
		boxes[i] = &dmBox{table: t}
		index[strings.ToLower(t.Name)] = i
	}
	var rels []investigation.Relationship
	for _, r := range dm.Relationships {
		_, okFrom := index[strings.ToLower(r.FromTable)]
		_, okTo := index[strings.ToLower(r.ToTable)]
		if okFrom && okTo {
			rels = append(rels, r)
		}
	}
	for _, b := range boxes {
		b.keys, b.more = keyColumns(b.table, rels)
	}
	// Longest-path layering; relaxing len(boxes) times ends even on cycles.
	for range boxes {
		for _, r := range rels {
			from, to := boxes[index[strings.ToLower(r.FromTable)]], boxes[index[strings.ToLower(r.ToTable)]]
			if from != to && to.layer < from.layer+1 && from.layer+1 < len(boxes) {
				to.layer = from.layer + 1
			}
		}
	}
	layers := 0
	heights := map[int]int{}
	for _, b := range boxes {
		lines := 1 + len(b.keys)
		if b.more > 0 {
			lines++
		}
		b.h = dmHeader + dmPad + lines*dmLine + dmPad/2
		b.x = dmMargin + b.layer*(dmBoxWidth+dmColumnGap)
		b.y = dmMargin + heights[b.layer]
		heights[b.layer] += b.h + dmRowGap
		layers = max(layers, b.layer+1)
	}
	height := 0
	for _, h := range heights {
		height = max(height, h)
	}
	width := 2*dmMargin + layers*dmBoxWidth + (layers-1)*dmColumnGap
	if hasSameLayerLink(boxes, index, rels) {
		width += 70 // room for the loops drawn to the right
	}
	height += 2*dmMargin - dmRowGap

	view := &dataModelView{}
	var svg bytes.Buffer
	fmt.Fprintf(&svg, `<svg class="data-model-svg" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="dm-title dm-desc" width="%d" height="%d" viewBox="0 0 %d %d">`, width, height, width, height)
	fmt.Fprintf(&svg, `<title id="dm-title">Data model: %d %s, %d %s</title>`, len(boxes), plural(len(boxes), "table", "tables"), len(rels), plural(len(rels), "relationship", "relationships"))
	fmt.Fprintf(&svg, `<desc id="dm-desc">%s</desc>`, html.EscapeString(dataModelSentence(dm.Tables, rels)))
	svg.WriteString(`<defs><marker id="dm-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#334155"/></marker></defs>`)
	for _, b := range boxes {
		drawBox(&svg, b)
		view.Tables = append(view.Tables, dmTableText{Name: b.table.Name, RowCount: b.table.RowCount, Keys: b.keys})
	}
	for _, r := range rels {
		from, to := boxes[index[strings.ToLower(r.FromTable)]], boxes[index[strings.ToLower(r.ToTable)]]
		drawLink(&svg, r, from, to)
		view.Relationships = append(view.Relationships, dmRelText{From: r.FromTable + "." + r.FromColumn,
			To: r.ToTable + "." + r.ToColumn, Kind: relKind(r), Confidence: r.Confidence})
	}
	svg.WriteString(`</svg>`)
	view.SVG = template.HTML(svg.String()) // every text written above is escaped
	return view
}

// keyColumns are the columns a box lists: those in a relationship, then
// id and timestamp columns, at most dmMaxColumns; more counts the rest.
func keyColumns(t investigation.TableInfo, rels []investigation.Relationship) (keys []string, more int) {
	add := func(c string) {
		if c != "" && !slices.Contains(keys, c) {
			keys = append(keys, c)
		}
	}
	for _, r := range rels {
		if strings.EqualFold(r.FromTable, t.Name) {
			add(r.FromColumn)
		}
		if strings.EqualFold(r.ToTable, t.Name) {
			add(r.ToColumn)
		}
	}
	for _, c := range t.Columns {
		if c.InferredType == quarry.RoleID || c.InferredType == quarry.RoleTimestamp {
			add(c.Name)
		}
	}
	if len(keys) > dmMaxColumns {
		keys = keys[:dmMaxColumns]
	}
	total := max(t.ColumnCount, len(t.Columns))
	return keys, max(total-len(keys), 0)
}

func drawBox(w *bytes.Buffer, b *dmBox) {
	name := b.table.Name
	fmt.Fprintf(w, `<g class="dm-table"><title>%s</title>`, html.EscapeString(name))
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#ffffff" stroke="#475569" stroke-width="1.5"/>`, b.x, b.y, dmBoxWidth, b.h)
	fmt.Fprintf(w, `<path d="M%d %da6 6 0 0 1 6-6h%da6 6 0 0 1 6 6v%dh-%dz" fill="#1e3a5f"/>`, b.x, b.y+6, dmBoxWidth-12, dmHeader-6, dmBoxWidth)
	fmt.Fprintf(w, `<text x="%d" y="%d" class="dm-name" fill="#ffffff" font-weight="600" font-size="14">%s</text>`, b.x+dmPad, b.y+20, html.EscapeString(clip(name, dmNameChars)))
	y := b.y + dmHeader + dmPad + 14
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#4a5568" font-size="13">%s rows · %d columns</text>`, b.x+dmPad, y, formatCount(b.table.RowCount), max(b.table.ColumnCount, len(b.table.Columns)))
	for _, k := range b.keys {
		y += dmLine
		fmt.Fprintf(w, `<text x="%d" y="%d" fill="#1a202c" font-size="13" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace">%s</text>`, b.x+dmPad, y, html.EscapeString(clip(k, dmNameChars)))
	}
	if b.more > 0 {
		y += dmLine
		fmt.Fprintf(w, `<text x="%d" y="%d" fill="#4a5568" font-size="12">+ %d more</text>`, b.x+dmPad, y, b.more)
	}
	w.WriteString(`</g>`)
}

// columnY is the height of a column's line in a box, or the box's middle
// when the column is not listed.
func (b *dmBox) columnY(col string) int {
	for i, k := range b.keys {
		if strings.EqualFold(k, col) {
			return b.y + dmHeader + dmPad + 14 + (i+1)*dmLine - 4
		}
	}
	return b.y + b.h/2
}

func drawLink(w *bytes.Buffer, r investigation.Relationship, from, to *dmBox) {
	y1, y2 := from.columnY(r.FromColumn), to.columnY(r.ToColumn)
	var x1, x2, c1, c2 int
	switch {
	case to.layer > from.layer: // the usual case: left to right
		x1, x2 = from.x+dmBoxWidth, to.x
		c1, c2 = x1+dmColumnGap/2, x2-dmColumnGap/2
	case to.layer < from.layer:
		x1, x2 = from.x, to.x+dmBoxWidth
		c1, c2 = x1-dmColumnGap/2, x2+dmColumnGap/2
	default: // same column: a loop on the right
		x1, x2 = from.x+dmBoxWidth, to.x+dmBoxWidth
		c1, c2 = x1+60, x2+60
	}
	dash := ""
	if r.RelationshipType == investigation.RelSimilarValues {
		dash = ` stroke-dasharray="6 4"`
	}
	fmt.Fprintf(w, `<g class="dm-link"><title>%s</title>`, html.EscapeString(r.FromTable+"."+r.FromColumn+" → "+r.ToTable+"."+r.ToColumn+" ("+relKind(r)+")"))
	fmt.Fprintf(w, `<path d="M%d %d C%d %d %d %d %d %d" fill="none" stroke="#334155" stroke-width="1.6"%s marker-end="url(#dm-arrow)"/>`, x1, y1, c1, y1, c2, y2, x2, y2, dash)
	// The middle of the cubic curve carries the label.
	mx, my := (x1+3*c1+3*c2+x2)/8, (y1+3*y1+3*y2+y2)/8
	label := r.FromColumn + " → " + r.ToColumn
	if strings.EqualFold(r.FromColumn, r.ToColumn) {
		label = r.FromColumn
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle" font-size="12" fill="#1a202c" stroke="#ffffff" stroke-width="4" paint-order="stroke">%s</text>`, mx, my-6, html.EscapeString(clip(label, 30)))
	w.WriteString(`</g>`)
}

func hasSameLayerLink(boxes []*dmBox, index map[string]int, rels []investigation.Relationship) bool {
	for _, r := range rels {
		if boxes[index[strings.ToLower(r.FromTable)]].layer == boxes[index[strings.ToLower(r.ToTable)]].layer {
			return true
		}
	}
	return false
}

func relKind(r investigation.Relationship) string {
	if r.RelationshipType == investigation.RelSimilarValues {
		return "similar values"
	}
	if r.ToUnique {
		return "foreign key, many-to-one"
	}
	return "foreign key"
}

// dataModelSentence describes the model in one paragraph for the SVG's
// <desc>.
func dataModelSentence(tables []investigation.TableInfo, rels []investigation.Relationship) string {
	var parts []string
	for _, t := range tables {
		parts = append(parts, fmt.Sprintf("%s (%s rows)", t.Name, formatCount(t.RowCount)))
	}
	s := "Tables: " + strings.Join(parts, ", ") + "."
	if len(rels) == 0 {
		return s + " No relationships were found between them."
	}
	parts = parts[:0]
	for _, r := range rels {
		parts = append(parts, fmt.Sprintf("%s.%s refers to %s.%s", r.FromTable, r.FromColumn, r.ToTable, r.ToColumn))
	}
	return s + " " + strings.Join(parts, "; ") + "."
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package web

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry/analysis"
)

// Geometry of the plan's diagram, in SVG user units.
const (
	dagNodeW   = 200
	dagNodeH   = 66
	dagColGap  = 64
	dagRowGap  = 16
	dagMargin  = 12
	dagIDChars = 22
)

// planView is the plan: its diagram and the planner's reasoning.
type planView struct {
	SVG       template.HTML
	Reasoning string
	Steps     int
	Levels    int
	Estimated string
}

// dagNode is one step's box in the diagram.
type dagNode struct {
	t    *analysis.Subtask
	x, y int
}

// newPlanView draws the plan as a DAG: a column per level (a step's level
// is one more than its deepest dependency's), a box per step with its id,
// tool and status in words, and an arrow from each dependency. Within a
// column a step sits level with its dependencies when there is room, so
// that a chain reads as a straight line.
func newPlanView(p *analysis.Plan) *planView {
	levels := p.Levels()
	nodes := map[string]*dagNode{}
	height := 0
	for l, ids := range levels {
		type placed struct {
			n    *dagNode
			want int
		}
		var col []placed
		for _, id := range ids {
			n := &dagNode{t: p.Task(id), x: dagMargin + l*(dagNodeW+dagColGap)}
			want, k := 0, 0
			for _, d := range n.t.Dependencies {
				if dn := nodes[d]; dn != nil {
					want += dn.y
					k++
				}
			}
			if k > 0 {
				want /= k
			}
			col = append(col, placed{n, want})
			nodes[id] = n
		}
		slices.SortStableFunc(col, func(a, b placed) int { return a.want - b.want })
		next := dagMargin
		for _, c := range col {
			c.n.y = max(next, c.want)
			next = c.n.y + dagNodeH + dagRowGap
		}
		height = max(height, next-dagRowGap+dagMargin)
	}
	width := 2*dagMargin + len(levels)*dagNodeW + max(len(levels)-1, 0)*dagColGap

	var b strings.Builder
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, `<svg class="dag-svg" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="dag-title dag-desc" width="%d" height="%d" viewBox="0 0 %d %d">`, width, height, width, height)
	fmt.Fprintf(&b, `<title id="dag-title">Plan: %d %s in %d %s</title>`, len(p.Subtasks), plural(len(p.Subtasks), "step", "steps"), len(levels), plural(len(levels), "level", "levels"))
	fmt.Fprintf(&b, `<desc id="dag-desc">%s</desc>`, esc(planSentence(p)))
	b.WriteString(`<defs><marker id="dag-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="dag-arrowhead"/></marker></defs>`)
	for _, t := range p.Subtasks {
		to := nodes[t.TaskID]
		for _, d := range t.Dependencies {
			from := nodes[d]
			if from == nil {
				continue
			}
			x1, y1 := from.x+dagNodeW, from.y+dagNodeH/2
			x2, y2 := to.x-2, to.y+dagNodeH/2
			fmt.Fprintf(&b, `<path class="dag-edge" data-from="%s" data-to="%s" d="M%d %d C%d %d %d %d %d %d" marker-end="url(#dag-arrow)"/>`,
				esc(d), esc(t.TaskID), x1, y1, x1+dagColGap/2, y1, x2-dagColGap/2, y2, x2, y2)
		}
	}
	for _, t := range p.Subtasks {
		n := nodes[t.TaskID]
		st := taskStatus(t.Status)
		fmt.Fprintf(&b, `<g class="dag-node status-%s" id="dag-node-%s" data-task="%s">`, esc(st), esc(t.TaskID), esc(t.TaskID))
		fmt.Fprintf(&b, `<title>%s</title>`, esc(t.TaskID+": "+t.Description))
		fmt.Fprintf(&b, `<rect class="dag-box" x="%d" y="%d" width="%d" height="%d" rx="8"/>`, n.x, n.y, dagNodeW, dagNodeH)
		fmt.Fprintf(&b, `<rect class="dag-bar" x="%d" y="%d" width="6" height="%d" rx="3"/>`, n.x+1, n.y+1, dagNodeH-2)
		fmt.Fprintf(&b, `<text class="dag-id" x="%d" y="%d">%s</text>`, n.x+16, n.y+22, esc(clip(t.TaskID, dagIDChars)))
		fmt.Fprintf(&b, `<text class="dag-tool" x="%d" y="%d">%s</text>`, n.x+16, n.y+40, esc(t.ToolName))
		fmt.Fprintf(&b, `<text class="dag-status" x="%d" y="%d">%s</text>`, n.x+16, n.y+58, esc(taskStatusLabel(st)))
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return &planView{SVG: template.HTML(b.String()), // every text written above is escaped
		Reasoning: p.Reasoning, Steps: len(p.Subtasks), Levels: len(levels), Estimated: strconv.FormatFloat(p.TotalEstimatedSeconds, 'f', 1, 64)}
}

// planSentence describes the plan's shape for the diagram's <desc>; the
// list of steps beside it gives each step's status.
func planSentence(p *analysis.Plan) string {
	var parts []string
	for _, t := range p.Subtasks {
		s := t.TaskID + " (" + t.ToolName + ")"
		if len(t.Dependencies) > 0 {
			s += " after " + joinWords(t.Dependencies)
		}
		parts = append(parts, s)
	}
	return "Steps, left to right: " + strings.Join(parts, "; ") + ". The list of steps below gives each step's status."
}

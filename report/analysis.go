package report

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// maxFindingRunes keeps each memory-loop line to about two lines of text;
// the full findings stay in the ledger and the audit log.
const maxFindingRunes = 300

// analysis writes the plan, the hypotheses with their outcomes and a
// compact account of the memory loop.
func (w *mdWriter) analysis() {
	in := w.in
	w.heading(2, "Analysis Performed")
	if len(in.Plan.Steps) > 0 {
		w.heading(3, "Plan")
		for i, s := range in.Plan.Steps {
			n := s.StepNumber
			if n == 0 {
				n = i + 1
			}
			line := fmt.Sprintf("%d. **%s:** %s", n, phaseName(s.Phase), prose(s.Description))
			var scope []string
			if len(s.TablesInvolved) > 0 {
				scope = append(scope, "tables "+codeList(s.TablesInvolved))
			}
			if len(s.DimensionsToCheck) > 0 {
				scope = append(scope, "dimensions "+codeList(s.DimensionsToCheck))
			}
			if len(scope) > 0 {
				line += " (" + strings.Join(scope, "; ") + ")"
			}
			w.printf("%s", line)
		}
	}
	if len(in.Hypotheses) > 0 {
		w.heading(3, "Hypotheses")
		w.printf("| ID | Hypothesis | Kind | Status | Verdict |")
		w.printf("|---|---|---|---|---|")
		for _, h := range in.Hypotheses {
			w.printf("| %s | %s | %s | %s | %s |", cell(h.HypothesisID), cell(h.Title), cell(h.Kind),
				statusName(w.finalStatus(h)), cell(h.Verdict))
		}
	}
	w.memoryLoop()
}

// finalStatus is the hypothesis's own status, or the ledger's outcome when
// the caller passed hypotheses as they were first generated.
func (w *mdWriter) finalStatus(h investigation.Hypothesis) investigation.HypothesisStatus {
	if s, ok := w.in.Ledger.HypothesisOutcomes[h.HypothesisID]; ok && (h.Status == "" || h.Status == investigation.HypPending) {
		return s
	}
	return h.Status
}

func (w *mdWriter) memoryLoop() {
	in := w.in
	n := len(in.Iterations)
	if n == 0 {
		n = in.Ledger.TotalIterations
	}
	if n == 0 && len(in.Ledger.Findings) == 0 {
		return
	}
	w.heading(3, "Memory Loop")
	plural := "s"
	if n == 1 {
		plural = ""
	}
	line := fmt.Sprintf("%d iteration%s", n, plural)
	if exit := exitText(in.Ledger.ExitReason); exit != "" {
		line += "; " + exit
	}
	w.para("%s.", line)
	if len(in.Iterations) == 0 {
		for _, f := range in.Ledger.Findings {
			w.printf("- **%d.** %s", f.Iteration, truncate(prose(f.Summary), maxFindingRunes))
		}
		return
	}
	for _, it := range in.Iterations {
		summary := it.CompressedSummary
		for _, f := range in.Ledger.Findings {
			if f.Iteration == it.Iteration && f.Summary != "" {
				summary = f.Summary
				break
			}
		}
		line := fmt.Sprintf("- **%d. %s:** %s", it.Iteration, prose(it.Decision), truncate(prose(summary), maxFindingRunes))
		var changes []string
		for _, id := range sortedKeys(it.HypothesisStatusChanges) {
			changes = append(changes, fmt.Sprintf("%s → %s", id, strings.ToLower(statusName(it.HypothesisStatusChanges[id]))))
		}
		if len(changes) > 0 {
			line += " _(" + strings.Join(changes, ", ") + ")_"
		}
		w.printf("%s", line)
	}
}

// dataQuality lists data problems first, so nobody acts on an explanation
// that is an artefact of broken data.
func (w *mdWriter) dataQuality() {
	if len(w.in.DataQuality)+len(w.in.DataNotes) == 0 {
		return
	}
	w.heading(2, "Data Quality")
	if len(w.in.DataQuality) > 0 {
		w.para("**Fix the data first.** These problems can create or hide a change on their own; resolve them before acting on the explanations below.")
		for _, q := range w.in.DataQuality {
			w.printf("- %s", prose(q))
		}
	}
	if len(w.in.DataNotes) > 0 {
		w.para("Minor data notes: each of these moves the metric by less than a tenth of the change, so they do not change the conclusions.")
		for _, q := range w.in.DataNotes {
			w.printf("- %s", prose(q))
		}
	}
}

func phaseName(p string) string {
	switch p {
	case investigation.PhaseExploration:
		return "Exploration"
	case investigation.PhaseHypothesisGeneration:
		return "Hypothesis generation"
	case investigation.PhaseValidation:
		return "Validation"
	case "":
		return "Step"
	}
	return prose(p)
}

func statusName(s investigation.HypothesisStatus) string {
	switch s {
	case investigation.HypConfirmed:
		return "Confirmed"
	case investigation.HypRuledOut:
		return "Ruled out"
	case investigation.HypInvestigating:
		return "Undecided"
	case investigation.HypPending, "":
		return "Not tested"
	}
	return cell(string(s))
}

func exitText(reason string) string {
	switch reason {
	case investigation.ExitConclude:
		return "the analyst concluded"
	case investigation.ExitMaxIterations:
		return fmt.Sprintf("stopped at the limit of %d iterations", quarry.MaxLoopIterations)
	case investigation.ExitStall:
		return fmt.Sprintf("stopped after %d iterations without new findings", quarry.StallThreshold)
	}
	return prose(reason)
}

// codeList formats names as a comma-separated list of inline code.
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}

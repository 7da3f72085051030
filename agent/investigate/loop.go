package investigate

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
)

// step is one action of the memory loop: which hypothesis it examines and
// how. It returns what it ran and what it learned.
type step struct {
	decision string
	hyp      string
	why      string
	do       func(ctx context.Context) (stepResult, error)
}

// stepResult is what one step learned.
type stepResult struct {
	raw     strings.Builder // full output: every SQL statement and its result
	summary string          // 2-3 sentences
	verdict quarry.HypothesisStatus
	reason  string // the verdict in one sentence
	sqls    []string
}

func (s *stepResult) addQuery(purpose string, rec record, table string) {
	fmt.Fprintf(&s.raw, "-- %s (audit entry %d, %d rows)\n%s;\n\n%s\n", purpose, rec.Sequence, rec.Rows, rec.SQL, table)
	s.sqls = append(s.sqls, rec.SQL)
}

// memoryLoop runs the specification's memory loop: decide, run SQL, save
// the raw output, condense it, update the ledger and the hypotheses; stop on
// CONCLUDE, after 15 iterations, or when 3 iterations in a row learn
// nothing new.
func (r *run) memoryLoop(ctx context.Context) error {
	agenda := r.agenda()
	r.ledger = quarry.FindingsLedger{SessionID: r.in.SessionID, Findings: []quarry.Finding{}}
	stall := 0
	exit := quarry.ExitConclude
	prevRuledOut := false
	for iter := 1; ; iter++ {
		if iter > quarry.MaxLoopIterations {
			exit = quarry.ExitMaxIterations
			break
		}
		if stall >= quarry.StallThreshold {
			exit = quarry.ExitStall
			break
		}
		if err := ctx.Err(); err != nil {
			return quarry.Errorf(quarry.ECodeUnavailable, "investigation cancelled in iteration %d", iter)
		}
		if len(agenda) == 0 {
			if err := r.conclude(iter); err != nil {
				return err
			}
			break
		}
		st := agenda[0]
		agenda = agenda[1:]
		decision := st.decision
		if prevRuledOut && decision == quarry.DecisionAnalyze {
			decision = quarry.DecisionPivot
		}
		changes := map[string]quarry.HypothesisStatus{}
		h := r.hyp(st.hyp)
		if h.Status == quarry.HypPending {
			h.Status = quarry.HypInvestigating
			changes[h.HypothesisID] = h.Status
		}
		res, err := st.do(ctx)
		if err != nil {
			return err
		}
		if res.verdict != "" && h.Status.CanMove(res.verdict) {
			h.Status = res.verdict
			h.Verdict = res.reason
			changes[h.HypothesisID] = h.Status
		}
		if err := r.saveHypothesis(h); err != nil {
			return err
		}
		prevRuledOut = res.verdict == quarry.HypRuledOut
		if err := r.record(iter, decision, st.why, &res, h.HypothesisID, changes); err != nil {
			return err
		}
		if n := len(r.ledger.Findings); n >= 2 && similar(r.ledger.Findings[n-1].Summary, r.ledger.Findings[n-2].Summary) {
			stall++
		} else {
			stall = 0
		}
	}
	// Hypotheses the loop never settled keep their state; the ledger says so.
	r.ledger.HypothesisOutcomes = map[string]quarry.HypothesisStatus{}
	for _, h := range r.hyps {
		r.ledger.HypothesisOutcomes[h.HypothesisID] = h.Status
	}
	r.ledger.TotalIterations = len(r.iterations)
	r.ledger.ExitReason = exit
	r.ledger.CreatedAt = r.now()
	return r.artifact("analysis/findings_ledger.json", r.ledger)
}

// record writes one iteration: its raw output, its log and its finding.
func (r *run) record(iter int, decision, why string, res *stepResult, hypID string, changes map[string]quarry.HypothesisStatus) error {
	outRef := fmt.Sprintf("analysis/full_outputs/output_%03d.txt", iter)
	if err := r.inv.Out.WriteFile(outRef, []byte(res.raw.String())); err != nil {
		return err
	}
	summary := truncate(res.summary, quarry.MaxFindingSummaryLen)
	log := quarry.IterationLog{
		Iteration:               iter,
		Decision:                decision,
		Reasoning:               why,
		CodeExecuted:            strings.Join(res.sqls, ";\n\n"),
		RawOutput:               res.raw.String(),
		CompressedSummary:       summary,
		HypothesisStatusChanges: changes,
		Timestamp:               r.now(),
	}
	if err := r.artifact(fmt.Sprintf("analysis/iterations/iter_%03d.json", iter), log); err != nil {
		return err
	}
	r.iterations = append(r.iterations, log)
	if decision != quarry.DecisionConclude {
		r.ledger.Findings = append(r.ledger.Findings, quarry.Finding{
			FindingID:          fmt.Sprintf("find_%03d", iter),
			Iteration:          iter,
			Summary:            summary,
			FullOutputRef:      outRef,
			HypothesisAffected: hypID,
			CreatedAt:          r.now(),
		})
	}
	r.progress(Event{Step: "loop", Iteration: iter, Decision: decision, Finding: summary,
		Message: fmt.Sprintf("iteration %d %s: %s", iter, decision, summary)})
	return nil
}

// conclude records the final CONCLUDE iteration.
func (r *run) conclude(iter int) error {
	var res stepResult
	var open []string
	for _, h := range r.hyps {
		if h.Status == quarry.HypPending || h.Status == quarry.HypInvestigating {
			open = append(open, h.HypothesisID)
		}
	}
	res.summary = fmt.Sprintf("Every planned check has run; %d hypotheses confirmed, %d ruled out.", r.count(quarry.HypConfirmed), r.count(quarry.HypRuledOut))
	if len(open) > 0 {
		res.summary += " Still open: " + strings.Join(open, ", ") + "."
	}
	res.raw.WriteString(res.summary + "\n")
	return r.record(iter, quarry.DecisionConclude, "no unexamined hypothesis is left", &res, "", nil)
}

func (r *run) count(s quarry.HypothesisStatus) int {
	n := 0
	for _, h := range r.hyps {
		if h.Status == s {
			n++
		}
	}
	return n
}

// similar reports whether two findings say the same thing, ignoring
// numbers: the word sets overlap by 90% or more.
func similar(a, b string) bool {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	union := len(wa) + len(wb) - inter
	return float64(inter)/float64(union) >= 0.9
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		out[w] = true
	}
	return out
}

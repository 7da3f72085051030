package investigate

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
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
	raw     bytes.Buffer // full output: every SQL statement and its result (a Buffer, not a Builder: results are returned by value and written to afterwards)
	summary string       // 2-3 sentences
	verdict investigation.HypothesisStatus
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
//
// The offline analyst's agenda is the loop's spine: each iteration runs its
// next check, whose measurement alone may change a hypothesis's status.
// With a model, the model decides each iteration too (ANALYZE, DRILL_DOWN,
// PIVOT or CONCLUDE) and its SQL or Python runs alongside the planned
// check; once the agenda is done, the model's own steps continue until it
// concludes. A model that concludes early does not skip the remaining
// checks, and one that never concludes stops at the iteration cap.
func (r *run) memoryLoop(ctx context.Context) error {
	agenda := r.agenda()
	r.ledger = investigation.FindingsLedger{SessionID: r.in.SessionID, Findings: []investigation.Finding{}}
	if err := r.uploadForCode(ctx); err != nil {
		return err
	}
	stall := 0
	exit := investigation.ExitConclude
	prevRuledOut := false
	concluded := false // the model said CONCLUDE
	prevMeasured := ""
	for iter := 1; ; iter++ {
		if iter > quarry.MaxLoopIterations {
			exit = investigation.ExitMaxIterations
			break
		}
		if stall >= quarry.StallThreshold {
			exit = investigation.ExitStall
			break
		}
		if err := ctx.Err(); err != nil {
			return quarry.Errorf(quarry.ECodeUnavailable, "investigation cancelled in iteration %d", iter)
		}
		var d *decision
		wm := 0
		if !concluded {
			var err error
			if d, wm, err = r.decide(ctx, iter, agenda); err != nil {
				return err
			}
			if d != nil && d.Decision == investigation.DecisionConclude {
				concluded = true
			}
		}
		var st step
		switch {
		case len(agenda) > 0:
			st = agenda[0]
			agenda = agenda[1:]
		case d.hasCode():
			st = step{decision: d.Decision, hyp: d.HypothesisID, why: d.Reasoning,
				do: func(context.Context) (stepResult, error) { return stepResult{}, nil }}
		default:
			if err := r.conclude(iter, d, wm); err != nil {
				return err
			}
		}
		if st.do == nil {
			break
		}
		decision, why := st.decision, st.why
		if prevRuledOut && decision == investigation.DecisionAnalyze {
			decision = investigation.DecisionPivot
		}
		if d != nil && !concluded {
			decision = d.Decision
			if st.why != d.Reasoning {
				why = "model: " + d.Reasoning + " | planned check: " + st.why
			}
		}
		changes := map[string]investigation.HypothesisStatus{}
		var h *investigation.Hypothesis
		if st.hyp != "" {
			h = r.hyp(st.hyp)
		}
		if h != nil && h.Status == investigation.HypPending {
			h.Status = investigation.HypInvestigating
			changes[h.HypothesisID] = h.Status
		}
		res, err := st.do(ctx)
		if err != nil {
			return err
		}
		r.learn(&res)
		if d.hasCode() && !concluded {
			if err := r.runModelCode(ctx, iter, d, &res); err != nil {
				return err
			}
		}
		if h != nil && res.verdict != "" && h.Status.CanMove(res.verdict) {
			h.Status = res.verdict
			h.Verdict = res.reason
			changes[h.HypothesisID] = h.Status
		}
		if err := r.proposals(iter, d); err != nil {
			return err
		}
		if h != nil {
			if err := r.saveHypothesis(h); err != nil {
				return err
			}
		}
		// Stalls are judged on what was measured, so a model that writes
		// the same sentence every time cannot cut the planned checks short.
		measured := res.summary
		if err := r.condense(ctx, iter, h, why, &res); err != nil {
			return err
		}
		if measured == "" {
			measured = res.summary
		}
		prevRuledOut = res.verdict == investigation.HypRuledOut
		hypID := ""
		if h != nil {
			hypID = h.HypothesisID
		}
		if err := r.record(iter, decision, why, &res, hypID, changes, wm); err != nil {
			return err
		}
		if prevMeasured != "" && similar(measured, prevMeasured) {
			stall++
		} else {
			stall = 0
		}
		prevMeasured = measured
	}
	// Hypotheses the loop never settled keep their state; the ledger says so.
	r.ledger.HypothesisOutcomes = map[string]investigation.HypothesisStatus{}
	for _, h := range r.hyps {
		r.ledger.HypothesisOutcomes[h.HypothesisID] = h.Status
	}
	r.ledger.TotalIterations = len(r.iterations)
	r.ledger.ExitReason = exit
	r.ledger.CreatedAt = r.now()
	return r.artifact("analysis/findings_ledger.json", r.ledger)
}

// proposals logs the status changes the model proposed against what was
// measured: a proposal is never applied by itself; it agrees with the
// measurement or it is rejected.
func (r *run) proposals(iter int, d *decision) error {
	if d == nil {
		return nil
	}
	for _, u := range d.HypothesisUpdates {
		h := r.findHyp(u.HypothesisID)
		if h == nil || investigation.HypothesisStatus(u.Status) == h.Status {
			continue
		}
		if err := r.policy("hypothesis_status", "not_applied", map[string]any{
			"iteration": iter, "hypothesis_id": h.HypothesisID, "proposed": u.Status, "measured": string(h.Status),
			"reason": "a status changes only on recorded evidence",
		}); err != nil {
			return err
		}
	}
	return nil
}

// record writes one iteration: its raw output, its log and its finding.
func (r *run) record(iter int, decision, why string, res *stepResult, hypID string, changes map[string]investigation.HypothesisStatus, memoryTokens int) error {
	outRef := fmt.Sprintf("analysis/full_outputs/output_%03d.txt", iter)
	if err := r.writeFile(outRef, []byte(res.raw.String())); err != nil {
		return err
	}
	summary := truncate(res.summary, quarry.MaxFindingSummaryLen)
	log := investigation.IterationLog{
		Iteration:               iter,
		Decision:                decision,
		Reasoning:               why,
		CodeExecuted:            strings.Join(res.sqls, ";\n\n"),
		RawOutput:               res.raw.String(),
		CompressedSummary:       summary,
		HypothesisStatusChanges: changes,
		Timestamp:               r.now(),
		Tokens:                  r.ai.takeIterationUsage(),
		WorkingMemoryTokens:     memoryTokens,
	}
	if err := r.artifact(fmt.Sprintf("analysis/iterations/iter_%03d.json", iter), log); err != nil {
		return err
	}
	r.iterations = append(r.iterations, log)
	if decision != investigation.DecisionConclude {
		r.ledger.Findings = append(r.ledger.Findings, investigation.Finding{
			FindingID:          fmt.Sprintf("find_%03d", iter),
			Iteration:          iter,
			Summary:            summary,
			FullOutputRef:      outRef,
			HypothesisAffected: hypID,
			CreatedAt:          r.now(),
		})
	}
	r.progress(investigation.Event{Step: "loop", Iteration: iter, Decision: decision, Finding: summary,
		Message: fmt.Sprintf("iteration %d %s: %s", iter, decision, summary)})
	return nil
}

// conclude records the final CONCLUDE iteration, with the model's
// reasoning when it was the model that concluded.
func (r *run) conclude(iter int, d *decision, memoryTokens int) error {
	var res stepResult
	var open []string
	for _, h := range r.hyps {
		if h.Status == investigation.HypPending || h.Status == investigation.HypInvestigating {
			open = append(open, h.HypothesisID)
		}
	}
	res.summary = fmt.Sprintf("Every planned check has run; %d hypotheses confirmed, %d ruled out.", r.count(investigation.HypConfirmed), r.count(investigation.HypRuledOut))
	if len(open) > 0 {
		res.summary += " Still open: " + strings.Join(open, ", ") + "."
	}
	res.raw.WriteString(res.summary + "\n")
	why := "no unexamined hypothesis is left"
	if d != nil && d.Decision == investigation.DecisionConclude && d.Reasoning != "" {
		why = "model: " + d.Reasoning
	}
	return r.record(iter, investigation.DecisionConclude, why, &res, "", nil, memoryTokens)
}

func (r *run) count(s investigation.HypothesisStatus) int {
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

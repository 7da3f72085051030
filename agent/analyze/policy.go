package analyze

import (
	"context"
	"fmt"
	"sort"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// checkPolicy enforces the request's allowed columns on a query before it
// runs, from its parse tree; a refusal is a policy_decision entry by the
// safety actor and a FORBIDDEN error for the step.
func (r *run) checkPolicy(ctx context.Context, t *analysis.Subtask, query string) error {
	pol := r.req.Policy
	if len(pol.AllowedColumns) == 0 {
		return nil
	}
	refs, err := r.ws.References(ctx, query)
	if err == nil {
		err = pol.CheckRefs(refs)
	} else if quarry.ErrorCode(err) != quarry.ECodeForbidden {
		err = quarry.Errorf(quarry.ECodeForbidden, "the query could not be checked against the allowed columns: %s", quarry.ErrorMessage(err))
	}
	if err != nil {
		r.decide(t, "refuse", "allowed_columns", quarry.ErrorMessage(err))
		return err
	}
	r.decide(t, "allow", "allowed_columns", "every column the query reaches is allowed")
	return nil
}

// blockedPatterns are the request's patterns, or the defaults.
func (r *run) blockedPatterns() []string {
	if len(r.req.Policy.BlockedPatterns) > 0 {
		return r.req.Policy.BlockedPatterns
	}
	return analysis.DefaultBlockedPatterns
}

// mask replaces personal data in a step's result before anyone sees it,
// and records each masked column as a policy decision.
func (r *run) mask(ctx context.Context, t *analysis.Subtask, table string) error {
	masked, err := r.ws.MaskMatches(ctx, table, r.blockedPatterns())
	if err != nil {
		return err
	}
	cols := make([]string, 0, len(masked))
	for c := range masked {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	for _, c := range cols {
		r.decide(t, "mask", "blocked_patterns", fmt.Sprintf("%d values of column %s match a blocked pattern and were masked", masked[c], c))
	}
	return nil
}

// decide logs one policy decision.
func (r *run) decide(t *analysis.Subtask, decision, rule, reason string) {
	r.audit(quarry.EventPolicyDecision, actorSafety, map[string]any{"decision": decision, "rule": rule, "reason": reason, "task_id": t.TaskID})
	if decision != "allow" {
		r.progress(analysis.Event{Step: "policy", TaskID: t.TaskID, Status: decision, Message: reason})
	}
}

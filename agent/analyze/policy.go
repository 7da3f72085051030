package analyze

import (
	"context"
	"fmt"
	"sort"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// checkPolicy enforces the request's allowed columns on a query before it
// runs, from what the database's binder resolves the query to read (the
// columns of each table scan in its bound plan), not from the names in
// its text: a whole row, a star, an alias that shadows a column and USING
// all bind the table's columns. The query is checked where it runs: in the
// workspace, or in the database source it names, which must be able to
// say what a query reads (a scanner). A refusal is a policy_decision entry
// "deny" by the safety actor, naming the column, and a FORBIDDEN error for
// the step; a query that does not bind is the step's INVALID error, to
// repair, with no decision.
func (r *run) checkPolicy(ctx context.Context, t *analysis.Subtask, source, query string) error {
	pol := r.req.Policy
	if len(pol.AllowedColumns) == 0 {
		return nil
	}
	var sc scanner = r.ws
	if source != "" {
		src, ok := r.dbs[source]
		if !ok {
			return quarry.Errorf(quarry.ECodeInvalid, "no database source %q", source)
		}
		if sc, ok = src.(scanner); !ok {
			sc = nil
		}
	}
	var err error
	if sc == nil {
		err = quarry.Errorf(quarry.ECodeForbidden, "database source %s cannot say which columns a query reads, so no query runs there under allowed_columns", source)
	} else {
		var scans []analysis.Scan
		if scans, err = sc.Scans(ctx, query); err == nil {
			err = pol.CheckScans(scans)
		} else if code := quarry.ErrorCode(err); code == quarry.ECodeInvalid || code == quarry.ECodeResourceLimit || ctx.Err() != nil {
			return err
		} else if code != quarry.ECodeForbidden {
			err = quarry.Errorf(quarry.ECodeForbidden, "the query could not be checked against the allowed columns: %s", quarry.ErrorMessage(err))
		}
	}
	if err != nil {
		r.decide(t, "deny", "allowed_columns", quarry.ErrorMessage(err))
		return err
	}
	r.decide(t, "allow", "allowed_columns", "every column the query reads is allowed")
	return nil
}

// scanner says what a query reads from the tables it scans, as the
// database's binder resolves it: the workspace (duckdb.Engine) and the
// database sources that can (duckdb.FileSource, sqlite.Source,
// postgres.Source).
type scanner interface {
	Scans(ctx context.Context, sql string) ([]analysis.Scan, error)
}

// dropForbiddenValues forgets the values and ranges of the columns the
// policy does not allow, so that neither the plan's prompt, the log nor
// the result repeats data the request may not read. The columns' names
// and types stay: they are the schema, not its data.
func (r *run) dropForbiddenValues() {
	for i := range r.tables {
		t := &r.tables[i]
		for j := range t.Columns {
			c := &t.Columns[j]
			if !r.req.Policy.Allows(t.Name, c.Name) {
				c.Values, c.Min, c.Max = nil, "", ""
			}
		}
	}
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

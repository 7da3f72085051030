package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/investigation"
)

// compactReport is the part of a report an agent needs: the metric, the
// overall change, the opening answer, any warning, and one line per
// explanation with its numbers. The full report (SQL, plan, memory loop)
// runs to tens of thousands of characters; this to a few hundred.
func (t *tools) compactReport(ctx context.Context, id string) (string, error) {
	r, err := t.svc.Report(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, line := range strings.Split(r.Content, "\n") {
		for _, p := range []string{"# ", "**Metric:**", "**Overall change:**", "**Answer:**", "> **Warning:**", "**Status:**", "**Same information:**"} {
			if strings.HasPrefix(line, p) {
				b.WriteString(line + "\n")
				break
			}
		}
	}
	exps, err := t.svc.Explanations(ctx, id)
	if err != nil {
		return "", err
	}
	if len(exps) > 0 {
		b.WriteString("\nExplanations:\n")
	}
	for _, e := range exps {
		sig := significance(e)
		fmt.Fprintf(&b, "%d. [%s] %s — %s, %s, %s\n", e.Rank, e.Likelihood, e.Title, e.Kind, e.Headline, sig)
	}
	b.WriteString("\nThe full report, with the SQL behind every number: get_investigation_report with full=true. Evidence per explanation: get_investigation_explanations.")
	return b.String(), nil
}

// significance states an explanation's significance as the report does:
// significant only when its own test says so; a data problem or calendar
// effect without a test says that no test was needed.
func significance(e investigation.Explanation) string {
	var sig string
	switch {
	case e.PValue != nil && e.Significant && *e.PValue <= 0.05:
		sig = "significant"
	case e.PValue != nil && e.Kind == investigation.KindDataQuality:
		sig = "not significant, kept as a data problem"
	case e.PValue != nil:
		sig = "not significant"
	case e.Significant && (e.Kind == investigation.KindDataQuality || e.Kind == investigation.KindCalendar):
		return "no test needed (found by counting, not by a test)"
	case e.Significant:
		return "significant"
	default:
		return "not tested"
	}
	return sig + fmt.Sprintf(", q=%.3g", *e.PValue)
}

// Waiting for an investigation: how often to look and for how long at most.
const (
	waitPoll       = 250 * time.Millisecond
	defaultWait    = 10 * time.Minute
	maxWaitSeconds = 3600
)

// waitForRun polls the session until its investigation has ended or the
// wait is over, and returns the session as last seen.
func (t *tools) waitForRun(ctx context.Context, id string, wait time.Duration) (*investigation.Investigation, error) {
	deadline := time.Now().Add(wait)
	for {
		s, err := t.svc.Session(ctx, id)
		if err != nil {
			return nil, err
		}
		if s.Status != investigation.StatusRunning || time.Now().After(deadline) {
			return s, nil
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(waitPoll):
		}
	}
}

package investigations_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/investigation"
)

// TestWait: Wait returns the whole result of an investigation this process
// ran, the same the API serves in parts; the recorded error, with its code
// and hint, of one that failed; and says why it has none for a session
// not started, unknown, or run by another process.
func TestWait(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	if _, err := e.m.Wait(ctx, e.id); quarry.ErrorCode(err) != quarry.ECodeInvestigationNotComplete {
		t.Errorf("Wait before the start: %v; want %s", err, quarry.ECodeInvestigationNotComplete)
	}
	if _, err := e.m.Wait(ctx, "0b5e3a5c-4f67-4a43-a1a7-6d1e0a3f5b21"); quarry.ErrorCode(err) != quarry.ECodeSessionNotFound {
		t.Errorf("Wait on an unknown session: %v; want %s", err, quarry.ECodeSessionNotFound)
	}

	base, _ := quarry.ParseDateRange("2024-03-04..2024-03-04")
	comp, _ := quarry.ParseDateRange("2024-03-05..2024-03-06")
	if err := e.m.Investigate(ctx, e.id, investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders_2024", BaselinePeriod: base, ComparisonPeriod: comp}); err != nil {
		t.Fatal(err)
	}
	res, err := e.m.Wait(ctx, e.id)
	if err != nil {
		t.Fatal(err)
	}
	s := e.status(t)
	expls, err := e.m.Explanations(ctx, e.id)
	if err != nil {
		t.Fatal(err)
	}
	if res.SessionID != e.id || res.Status != s.Outcome || s.Status != investigation.StatusCompleted || len(res.Explanations) != len(expls) ||
		!strings.HasSuffix(res.ReportPath, "report.md") || res.Memory != nil {
		t.Errorf("result %+v of session %+v; want its outcome, its %d explanations and its report, without the memory document", res, s, len(expls))
	}
	if res.Overall.BaselineValue != 30.5 || res.Overall.ComparisonValue != 107.25 {
		t.Errorf("overall %+v; want 30.5 -> 107.25", res.Overall)
	}

	// Another process on the data dir reads the session, not the result.
	other, err := app.Open(ctx, app.Options{DataDir: e.dir, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Investigations.Wait(ctx, e.id); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Wait in another process: %v; want %s", err, quarry.ECodeNotFound)
	}

	// A run that fails: its recorded error.
	s2, err := e.m.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.AddFile(ctx, s2.SessionID, "orders.csv", "", strings.NewReader(ordersCSV)); err != nil {
		t.Fatal(err)
	}
	empty, _ := quarry.ParseDateRange("2023-03-04..2023-03-04")
	if err := e.m.Investigate(ctx, s2.SessionID, investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders", BaselinePeriod: empty, ComparisonPeriod: comp}); err != nil {
		t.Fatal(err)
	}
	_, err = e.m.Wait(ctx, s2.SessionID)
	failed, serr := e.m.Session(ctx, s2.SessionID)
	if serr != nil {
		t.Fatal(serr)
	}
	var qe *quarry.Error
	if !errors.As(err, &qe) || failed.Error == nil || qe.Code != quarry.ECodeNoDataInPeriod ||
		qe.Code != failed.Error.Code || qe.Message != failed.Error.Message || qe.Hint == "" || qe.Hint != failed.Error.Hint {
		t.Errorf("Wait on the failed run: %#v; want the session's error %+v, NO_DATA_IN_PERIOD", err, failed.Error)
	}
}

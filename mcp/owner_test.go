package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry/mcp"
)

// TestInvestigationsOverHTTPAreTheirOwners: with tokens, each user's
// create_investigation is theirs alone: another user's list leaves it out
// and every tool that names it answers SESSION_NOT_FOUND, exactly as for
// a missing one; the same holds for an analysis (NOT_FOUND).
func TestInvestigationsOverHTTPAreTheirOwners(t *testing.T) {
	e := newRoomEnv(t, "")
	ctx := context.Background()
	ann, err := e.svc.AddUser(ctx, "ann", "")
	if err != nil {
		t.Fatal(err)
	}
	annToken, err := e.svc.CreateToken(ctx, ann.ID, "agent")
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(e.app.Investigations, mcp.Options{Rooms: e.svc, Analyses: e.app.Analyses})
	ts := httptest.NewServer(mcp.RequireToken(mcp.NewHTTPHandler(srv, nil), e.svc.UserByToken))
	t.Cleanup(ts.Close)
	connect := func(token string) *mcpsdk.ClientSession {
		c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: ts.URL,
			HTTPClient: &http.Client{Transport: bearer{token}}, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	annCS, eveCS := connect(annToken), connect(e.eveToken)

	c, _ := ok[created](t, annCS, "create_investigation", map[string]any{"files": []map[string]string{{"name": "sales.csv", "csv": "day,store,sales\n2024-01-01,a,10\n2024-01-02,b,12\n", "description": "sales per store and day"}}})
	id := c.Session.SessionID
	if mine, _ := ok[struct{ Sessions []session }](t, annCS, "list_investigations", map[string]any{}); len(mine.Sessions) != 1 || mine.Sessions[0].SessionID != id {
		t.Errorf("ann's list: %+v; want her investigation %s", mine, id)
	}
	if theirs, _ := ok[struct{ Sessions []session }](t, eveCS, "list_investigations", map[string]any{}); len(theirs.Sessions) != 0 {
		t.Errorf("eve's list shows %+v; want none of ann's", theirs)
	}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"get_investigation", map[string]any{"session_id": id}},
		{"list_investigation_tables", map[string]any{"session_id": id}},
		{"run_investigation_sql", map[string]any{"session_id": id, "sql": "SELECT SUM(sales) FROM sales"}},
		{"get_investigation_report", map[string]any{"session_id": id}},
		{"get_investigation_explanations", map[string]any{"session_id": id}},
		{"ask_investigation", map[string]any{"session_id": id, "question": "why did sales move?"}},
	} {
		if code, text := failCode(t, eveCS, call.tool, call.args); code != "SESSION_NOT_FOUND" {
			t.Errorf("eve's %s on ann's investigation: %s %s; want SESSION_NOT_FOUND", call.tool, code, text)
		}
	}
	if _, text := ok[sqlResult](t, annCS, "run_investigation_sql", map[string]any{"session_id": id, "sql": "SELECT SUM(sales) AS s FROM sales"}); text == "" {
		t.Error("ann's own query answered nothing")
	}

	res, _ := ok[analysisResult](t, annCS, "start_analysis", map[string]any{"request": "total sales by store",
		"files": []any{map[string]any{"name": "sales.csv", "csv": "day,store,sales\n2024-01-01,a,10\n2024-01-02,b,12\n"}}})
	if code, text := failCode(t, eveCS, "get_analysis", map[string]any{"request_id": res.RequestID}); code != "NOT_FOUND" {
		t.Errorf("eve's get_analysis on ann's: %s %s; want NOT_FOUND", code, text)
	}
	if _, text := ok[analysisResult](t, annCS, "get_analysis", map[string]any{"request_id": res.RequestID}); text == "" {
		t.Error("ann's own analysis answered nothing")
	}
}

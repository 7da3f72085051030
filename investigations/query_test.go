package investigations_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/fakeclock"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
)

// queryEnv is a manager over a fresh data dir with one session holding two
// small files.
type queryEnv struct {
	dir   string
	clock *fakeclock.Clock
	m     *investigations.Service
	id    string
}

const (
	ordersCSV = "order_id,order_day,customer_id,platform,amount\n" +
		"1,2024-03-04,c1,ios,10.5\n" +
		"2,2024-03-04,c2,android,20\n" +
		"3,2024-03-05,c1,android,7.25\n" +
		"4,2024-03-06,c3,web,100\n"
	customersCSV = "customer_id,segment\nc1,consumer\nc2,enterprise\nc3,enterprise\n"
)

func newQueryEnv(t *testing.T) *queryEnv {
	t.Helper()
	e := &queryEnv{dir: t.TempDir(), clock: fakeclock.New(time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC))}
	a, err := app.Open(context.Background(), app.Options{DataDir: e.dir, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e.m = a.Investigations
	ctx := context.Background()
	s, err := e.m.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	e.id = s.SessionID
	for _, f := range []struct{ name, desc, body string }{
		{"Orders 2024.csv", "one row per order", ordersCSV},
		{"customers.csv", "", customersCSV},
	} {
		if _, err := e.m.AddFile(ctx, e.id, f.name, f.desc, strings.NewReader(f.body)); err != nil {
			t.Fatalf("add %s: %v", f.name, err)
		}
	}
	return e
}

// auditEntries reads the session's audit log and checks its chain.
func (e *queryEnv) auditEntries(t *testing.T) []quarry.AuditEntry {
	t.Helper()
	path := filepath.Join(e.dir, "sessions", e.id, "audit.jsonl")
	res, err := audit.VerifyFile(path)
	if err != nil || !res.OK() {
		t.Fatalf("audit log does not verify: %+v %v", res, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []quarry.AuditEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a quarry.AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func TestTables(t *testing.T) {
	e := newQueryEnv(t)
	tables, err := e.m.Tables(context.Background(), e.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2", len(tables))
	}
	byName := map[string]*investigation.UploadedFile{}
	for _, tb := range tables {
		byName[tb.TableName] = tb
	}
	orders, customers := byName["orders_2024"], byName["customers"]
	if orders == nil || customers == nil {
		t.Fatalf("tables %v, want orders_2024 and customers", byName)
	}
	if orders.OriginalName != "Orders 2024.csv" || orders.Description != "one row per order" || orders.RowCount != 4 || orders.Schema == nil {
		t.Fatalf("orders table: %+v", orders)
	}
	if customers.RowCount != 3 || customers.FileID == "" {
		t.Errorf("customers table: %+v", customers)
	}
	want := map[string][2]string{ // column -> data type, role
		"order_id":    {quarry.TypeInteger, quarry.RoleID},
		"order_day":   {quarry.TypeDate, quarry.RoleTimestamp},
		"customer_id": {quarry.TypeString, ""},
		"platform":    {quarry.TypeString, quarry.RoleDimension},
		"amount":      {quarry.TypeFloat, quarry.RoleMeasure},
	}
	if len(orders.Schema.Columns) != len(want) {
		t.Fatalf("orders columns: %+v", orders.Schema.Columns)
	}
	for _, c := range orders.Schema.Columns {
		w, ok := want[c.Name]
		if !ok || c.DataType != w[0] || (w[1] != "" && c.InferredType != w[1]) {
			t.Errorf("column %s: type %s role %s, want %v", c.Name, c.DataType, c.InferredType, w)
		}
	}
}

func TestQuery(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	res, err := e.m.Query(ctx, e.id, `SELECT c.segment, COUNT(*) AS orders, SUM(o.amount) AS revenue
		FROM orders_2024 o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Columns, ",") != "segment,orders,revenue" || len(res.Rows) != 2 {
		t.Fatalf("result: %+v", res)
	}
	for i, w := range []struct {
		segment string
		orders  float64
		revenue float64
	}{{"consumer", 2, 17.75}, {"enterprise", 2, 120}} {
		if res.String(i, 0) != w.segment || res.Float(i, 1) != w.orders || res.Float(i, 2) != w.revenue {
			t.Errorf("row %d: %v, want %+v", i, res.Rows[i], w)
		}
	}

	entries := e.auditEntries(t)
	if len(entries) != 2 {
		t.Fatalf("%d audit entries, want 2", len(entries))
	}
	call, obs := entries[0], entries[1]
	if call.EventType != quarry.EventToolCalled || call.Actor != investigations.QueryActor || obs.EventType != quarry.EventObservationRecorded || obs.Actor != investigations.QueryActor {
		t.Fatalf("audit entries: %+v / %+v", call, obs)
	}
	args, _ := call.EventData["arguments"].(map[string]any)
	if !strings.Contains(args["sql"].(string), "GROUP BY 1") || call.EventData["call_id"] != obs.EventData["call_id"] {
		t.Errorf("tool_called data %v, observation %v", call.EventData, obs.EventData)
	}
	if obs.EventData["success"] != true || obs.EventData["row_count"] != float64(2) {
		t.Errorf("observation data %v", obs.EventData)
	}
}

func TestQueryRefusesAndLogs(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	tests := []struct {
		sql, code string
	}{
		{"ATTACH '/tmp/other.db' AS other", quarry.ECodeForbidden},
		{"SELECT * FROM read_csv('/etc/passwd')", quarry.ECodeForbidden},
		{"SET threads = 1", quarry.ECodeForbidden},
		{"INSTALL httpfs", quarry.ECodeForbidden},
		{"COPY orders_2024 TO '/tmp/out.csv'", quarry.ECodeForbidden},
		{"SELECT 1; SELECT 2", quarry.ECodeForbidden},
		{"DROP TABLE customers", quarry.ECodeForbidden},
		{"SELEC 1", quarry.ECodeInvalid},
		{"SELECT nope FROM customers", quarry.ECodeInvalid},
	}
	for _, tt := range tests {
		_, err := e.m.Query(ctx, e.id, tt.sql)
		if quarry.ErrorCode(err) != tt.code {
			t.Errorf("%q: got %v, want %s", tt.sql, err, tt.code)
		}
	}
	// The tables are intact after every refused statement.
	if res, err := e.m.Query(ctx, e.id, "SELECT COUNT(*) FROM customers"); err != nil || res.Float(0, 0) != 3 {
		t.Fatalf("after the refusals: %v %v", res, err)
	}

	entries := e.auditEntries(t)
	if len(entries) != 2*(len(tests)+1) {
		t.Fatalf("%d audit entries, want %d", len(entries), 2*(len(tests)+1))
	}
	for i, tt := range tests {
		call, obs := entries[2*i], entries[2*i+1]
		args, _ := call.EventData["arguments"].(map[string]any)
		if args["sql"] != tt.sql || call.Actor != "mcp" {
			t.Errorf("entry %d logs %v by %s, want %q by mcp", 2*i, args["sql"], call.Actor, tt.sql)
		}
		if obs.EventData["success"] != false || obs.EventData["error_code"] != tt.code || obs.EventData["error"] == "" {
			t.Errorf("observation of %q: %v", tt.sql, obs.EventData)
		}
	}
}

func TestQueryAndTablesSessionState(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	store := fsstore.New(e.dir, fsstore.Options{})
	s, err := store.Session(e.id)
	if err != nil {
		t.Fatal(err)
	}
	s.Status = investigation.StatusRunning
	if err := store.SaveSession(s); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.Query(ctx, e.id, "SELECT 1"); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("query while running: %v, want CONFLICT", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "sessions", e.id, "audit.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a refused query while running touched the audit log (%v)", err)
	}
	if tables, err := e.m.Tables(ctx, e.id); err != nil || len(tables) != 2 {
		t.Errorf("tables while running: %d, %v", len(tables), err)
	}

	for _, tt := range []struct {
		name, id, code string
		before         func()
	}{
		{"unknown", quarry.NewID(), quarry.ECodeSessionNotFound, func() {}},
		{"expired", e.id, quarry.ECodeSessionExpired, func() { e.clock.Add(25 * time.Hour) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.before()
			if _, err := e.m.Tables(ctx, tt.id); quarry.ErrorCode(err) != tt.code {
				t.Errorf("tables: %v, want %s", err, tt.code)
			}
			if _, err := e.m.Query(ctx, tt.id, "SELECT 1"); quarry.ErrorCode(err) != tt.code {
				t.Errorf("query: %v, want %s", err, tt.code)
			}
		})
	}
}

// TestQuerySeesFileChanges: the engine kept between queries never answers
// from files the session no longer has, nor misses ones it gained.
func TestQuerySeesFileChanges(t *testing.T) {
	e := newQueryEnv(t)
	ctx := context.Background()
	if res, err := e.m.Query(ctx, e.id, "SELECT COUNT(*) FROM orders_2024"); err != nil || res.Float(0, 0) != 4 {
		t.Fatalf("first query: %v %v", res, err)
	}
	added, err := e.m.AddFile(ctx, e.id, "returns.csv", "", strings.NewReader("order_id,amount\n1,10.5\n3,7.25\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.m.Query(ctx, e.id, "SELECT SUM(r.amount) FROM returns r JOIN orders_2024 o USING (order_id)")
	if err != nil || res.Float(0, 0) != 17.75 {
		t.Fatalf("query after adding a file: %v %v; want 17.75", res, err)
	}
	if err := e.m.RemoveFile(ctx, e.id, added.FileID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.Query(ctx, e.id, "SELECT COUNT(*) FROM returns"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Fatalf("query of a removed file = %v; want %s", err, quarry.ECodeInvalid)
	}
	if res, err := e.m.Query(ctx, e.id, "SELECT COUNT(*) FROM orders_2024"); err != nil || res.Float(0, 0) != 4 {
		t.Fatalf("query after a refused one: %v %v", res, err)
	}
}

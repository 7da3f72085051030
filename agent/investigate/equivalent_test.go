package investigate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/investigation"
)

// sqlAudit keeps the SQL of every call.
type sqlAudit struct {
	n   int
	sql []string
}

func (a *sqlAudit) Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	a.n++
	if args, ok := data["arguments"].(map[string]any); ok && eventType == quarry.EventToolCalled {
		sql, _ := args["sql"].(string)
		a.sql = append(a.sql, sql)
	}
	return quarry.AuditEntry{SequenceNumber: a.n, EventType: eventType}, nil
}

// Hundreds of dimensions of the same size are compared for equivalence in
// a bounded number of small queries, and the equivalent pair among the
// first dimensions is still found. Every pair of 302 dimensions in one
// query was 45,000 pairs; at 1,000 columns, 235 MB of SQL and 13 GB of
// memory.
func TestDropEquivalentWide(t *testing.T) {
	var b strings.Builder
	b.WriteString("day,amount,region,region_code")
	const extra = 300
	for i := range extra {
		fmt.Fprintf(&b, ",d%d", i)
	}
	b.WriteByte('\n')
	regions := []string{"north", "south", "east", "west"}
	codes := []string{"N", "S", "E", "W"}
	for r := range 400 {
		fmt.Fprintf(&b, "2024-03-%02d,%d,%s,%s", 1+r%28, 10+r%13, regions[r%4], codes[r%4])
		for i := range extra {
			// Four values in a scramble no other column repeats.
			h := uint32(r*7919 + i*104729)
			h ^= h >> 13
			h *= 0x5bd1e995
			h ^= h >> 15
			fmt.Fprintf(&b, ",v%d", h%4)
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "wide.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	schema, _, err := eng.LoadCSV(ctx, "wide", path)
	if err != nil {
		t.Fatal(err)
	}
	var dims []*Dim
	for _, c := range schema.Columns[2:] {
		dims = append(dims, &Dim{Name: c.Name, Table: "wide", Column: c.Name, Expr: "wide." + quoteIdent(c.Name), Cardinality: c.Cardinality})
	}
	audit := &sqlAudit{}
	r := &run{rec: &recorder{eng: eng, audit: audit}, scope: &scope{m: &investigation.Metric{From: "wide"}}, tables: map[string]*investigation.UploadedFile{}}
	kept, err := r.dropEquivalent(ctx, dims)
	if err != nil {
		t.Fatalf("dropEquivalent(%d dimensions): %v", len(dims), err)
	}
	// 32 dimensions make at most 496 pairs, 16 to a query.
	if len(audit.sql) == 0 || len(audit.sql) > 31 {
		t.Errorf("dropEquivalent(%d dimensions) ran %d queries; want 1 to 31", len(dims), len(audit.sql))
	}
	for _, q := range audit.sql {
		if n := strings.Count(q, "count(DISTINCT"); n > 4*equivalentBatch {
			t.Errorf("an equivalence query has %d COUNT(DISTINCT); want at most %d", n, 4*equivalentBatch)
		}
	}
	if len(kept) != len(dims)-1 || len(r.model.EquivalentColumns) != 1 || strings.Join(r.model.EquivalentColumns[0], ",") != "region,region_code" {
		t.Errorf("dropEquivalent kept %d of %d, groups %v; want region and region_code as one group", len(kept), len(dims), r.model.EquivalentColumns)
	}
}

package duckdb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

func TestRelationships(t *testing.T) {
	e := mustOpen(t)
	var orders, returns strings.Builder
	orders.WriteString("order_id,customer_id,region,amount\n")
	returns.WriteString("return_id,order_id,customer_id\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&orders, "%d,%d,%s,%d\n", i, i%50, []string{"north", "south"}[i%2], i)
		if i%4 == 0 {
			fmt.Fprintf(&returns, "%d,%d,%d\n", 1000+i, i, i%50)
		}
	}
	var customers strings.Builder
	customers.WriteString("customer_id,segment\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&customers, "%d,%s\n", i, []string{"smb", "enterprise"}[i%2])
	}
	mustLoad(t, e, "orders", orders.String())
	mustLoad(t, e, "customers", customers.String())
	mustLoad(t, e, "returns", returns.String())
	mustLoad(t, e, "regions", "region,manager\nnorth,ann\nsouth,bo\neast,cy\n")
	mustLoad(t, e, "segment", "id,label\n1,x\n2,y\n")

	rels, err := e.Relationships(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]investigation.Relationship{}
	for _, r := range rels {
		got[fmt.Sprintf("%s.%s->%s.%s", r.FromTable, r.FromColumn, r.ToTable, r.ToColumn)] = r
	}
	want := []struct {
		key        string
		typ        string
		unique     bool
		confidence float64
	}{
		{"orders.customer_id->customers.customer_id", investigation.RelForeignKey, true, 1},
		{"returns.order_id->orders.order_id", investigation.RelForeignKey, true, 1},
		{"returns.customer_id->customers.customer_id", investigation.RelForeignKey, true, 1},
		{"orders.region->regions.region", investigation.RelForeignKey, true, 0.9 * 0.8}, // plain name, 2 values
		{"returns.customer_id->orders.customer_id", investigation.RelSimilarValues, false, 0.5},
	}
	for _, w := range want {
		r, ok := got[w.key]
		if !ok {
			t.Errorf("Relationships: missing %s; got %v", w.key, keys(got))
			continue
		}
		if r.RelationshipType != w.typ || r.ToUnique != w.unique || !near(r.Confidence, w.confidence) {
			t.Errorf("Relationships %s = %s unique=%v confidence=%v; want %s unique=%v confidence=%v",
				w.key, r.RelationshipType, r.ToUnique, r.Confidence, w.typ, w.unique, w.confidence)
		}
	}
	for _, bad := range []string{"customers.customer_id->orders.customer_id", "orders.order_id->returns.order_id", "regions.region->orders.region"} {
		if _, ok := got[bad]; ok {
			t.Errorf("Relationships reported %s in the wrong direction", bad)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Relationships = %v; want the %d above", keys(got), len(want))
	}
	if rels[0].Confidence < rels[len(rels)-1].Confidence {
		t.Errorf("Relationships not sorted by confidence: %v", rels)
	}
	if _, err := e.Relationships(context.Background(), []string{"orders", "nope"}); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Relationships(unknown table) = %v; want INVALID", err)
	}
}

func TestRelationshipsKeyToID(t *testing.T) {
	e := mustOpen(t)
	mustLoad(t, e, "orders", "id,customer_id,amount\n1,1,5\n2,2,6\n3,2,7\n4,3,8\n5,4,1\n6,5,1\n")
	mustLoad(t, e, "customers", "id,name\n1,a\n2,b\n3,c\n4,d\n5,e\n6,f\n")
	rels, err := e.Relationships(context.Background(), []string{"orders", "customers"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 1 {
		t.Fatalf("Relationships = %+v; want one", rels)
	}
	r := rels[0]
	if r.FromTable != "orders" || r.FromColumn != "customer_id" || r.ToTable != "customers" || r.ToColumn != "id" ||
		r.RelationshipType != investigation.RelForeignKey || !r.ToUnique || r.Containment != 1 {
		t.Errorf("Relationships = %+v; want orders.customer_id -> customers.id foreign key", r)
	}
}

func keys(m map[string]investigation.Relationship) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Tables sharing hundreds of column names measure at most
// maxRelCandidates pairs, key-named ones first, so the key is still found.
func TestRelationshipsBounded(t *testing.T) {
	const shared = 100
	var orders, customers strings.Builder
	customers.WriteString("id")
	for i := range shared {
		fmt.Fprintf(&orders, "c%d,", i)
		fmt.Fprintf(&customers, ",c%d", i)
	}
	orders.WriteString("customer_id\n")
	customers.WriteString("\n")
	for r := range 4 {
		fmt.Fprintf(&customers, "%d", r+1)
		for i := range shared {
			fmt.Fprintf(&orders, "x%d,", (r+i)%3)
			fmt.Fprintf(&customers, ",x%d", (r+i)%3)
		}
		fmt.Fprintf(&orders, "%d\n", r%2+1)
		customers.WriteString("\n")
	}
	e := mustOpen(t)
	mustLoad(t, e, "orders", orders.String())
	mustLoad(t, e, "customers", customers.String())
	var ts []*table
	for _, n := range e.tableNames() {
		tb, _ := e.lookup(n)
		ts = append(ts, tb)
	}
	start := time.Now()
	defer func() { fmt.Println("relationships", time.Since(start)) }()
	if n := len(candidates(ts)); n != shared+1 {
		t.Fatalf("candidates = %d; want %d", n, shared+1)
	}
	rels, err := e.Relationships(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rels {
		found = found || r.FromColumn == "customer_id" && r.ToTable == "customers" && r.ToColumn == "id" && r.RelationshipType == investigation.RelForeignKey
	}
	if !found {
		t.Errorf("Relationships over %d shared names missed orders.customer_id -> customers.id; got %d relationships", shared, len(rels))
	}
}

// Two lists of codes from different sources differ at their edges: with
// many values, 85% of them in a unique column of another table is a key;
// with few, that much overlap is not.
func TestKeysOfListsThatDifferAtTheirEdges(t *testing.T) {
	e := mustOpen(t)
	var facts, lookup strings.Builder
	facts.WriteString("code,year,v\n")
	lookup.WriteString("iso,continent\n")
	for i := range 60 {
		fmt.Fprintf(&facts, "C%02d,2017,%d\n", i, i)
		if i < 51 { // 51 of 60: 85%
			fmt.Fprintf(&lookup, "C%02d,K%d\n", i, i%3)
		}
	}
	lookup.WriteString("X99,K1\n")
	mustLoad(t, e, "facts", facts.String())
	mustLoad(t, e, "lookup", lookup.String())
	mustLoad(t, e, "few", "tag,v\nT1,1\nT2,2\nT3,3\nT4,4\nT5,5\nT6,6\nT7,7\nT8,8\nT9,9\nT10,10\n")
	mustLoad(t, e, "tags", "label,k\nT1,a\nT2,b\nT3,c\nT4,d\nT5,e\nT6,f\nT7,g\nT8,h\nQ1,i\nQ2,j\n")
	got := keyNames(t, e)
	if !slices.Contains(got, "facts.code>lookup.iso") {
		t.Errorf("Keys = %v; want facts.code -> lookup.iso (51 of 60 codes)", got)
	}
	if slices.Contains(got, "few.tag>tags.label") {
		t.Errorf("Keys = %v; want no key from 8 of 10 tags", got)
	}
}

// Two tables of one row a country, from different sources, share half
// their countries: they are one to one where they meet, each joined to
// the other; a column of one name that repeats in either, or shares too
// few values, is no such key.
func TestKeysOneToOneWhereTwoListsMeet(t *testing.T) {
	e := mustOpen(t)
	var risk, census, visits, other strings.Builder
	risk.WriteString("country,score\n")
	census.WriteString("country,pop\n")
	visits.WriteString("country,n\n")
	other.WriteString("country,x\n")
	for i := range 40 {
		if i < 30 {
			fmt.Fprintf(&risk, "Land%02d,%d\n", i, i)
		}
		if i >= 15 {
			fmt.Fprintf(&census, "Land%02d,%d\n", i, i*10) // 15 of risk's 30 in common
		}
		fmt.Fprintf(&visits, "Land%02d,%d\n", i%5, i) // repeats
		if i < 4 {
			fmt.Fprintf(&other, "Land%02d,%d\n", i+36, i) // 4 in common
		}
	}
	mustLoad(t, e, "risk", risk.String())
	mustLoad(t, e, "census", census.String())
	mustLoad(t, e, "visits", visits.String())
	mustLoad(t, e, "other", other.String())
	got := keyNames(t, e)
	for _, want := range []string{"risk.country>census.country", "census.country>risk.country"} {
		if !slices.Contains(got, want) {
			t.Errorf("Keys = %v; want %s (15 countries in both)", got, want)
		}
	}
	for _, k := range got {
		// other's 4 countries are in census (a key by containment), but
		// census's are not in other: no key back; visits repeats its
		// countries: no key to it
		if k == "census.country>other.country" || strings.HasSuffix(k, ">visits.country") {
			t.Errorf("Keys = %v; want no one-to-one key %s", got, k)
		}
	}
}

// keyNames returns e's keys as from.column>to.column.
func keyNames(t *testing.T, e *Engine) []string {
	t.Helper()
	ks, err := e.Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range ks {
		got = append(got, k.FromTable+"."+k.FromColumn+">"+k.ToTable+"."+k.ToColumn)
	}
	return got
}

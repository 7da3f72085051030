package ask_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// acmeRoom is a room holding one small 10-K (testdata, written for these
// tests): a cover, an MD&A page that talks about the quick ratio at length
// without a number, and the three statements.
func acmeRoom(t *testing.T) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "acme-widgets-2022-10k.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return oneDocumentRoom(t, nil, "acme-widgets-2022-10k.txt", f)
}

// oneDocumentRoom is a room of the local owner's holding one processed
// document, with chunks embedded by e when it is set.
func oneDocumentRoom(t *testing.T, e llm.Embedder, name string, r io.Reader) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.OpenRooms(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := &rooms.Service{Store: st, Dir: t.TempDir(), Embedder: e, EmbeddingModel: "concepts"}
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	rm, err := svc.CreateRoom(ctx, owner.ID, "deal", "")
	if err != nil {
		t.Fatal(err)
	}
	d, err := svc.Upload(ctx, owner.ID, rm.ID, name, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Process(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	docs, err := svc.Documents(ctx, owner.ID, rm.ID)
	if err != nil {
		t.Fatal(err)
	}
	return svc, rm, docs
}

func TestRetrieveLiftsTheStatementAQuestionNeeds(t *testing.T) {
	svc, r, docs := acmeRoom(t)
	if docs[0].Meta.Company == "" || len(docs[0].Meta.Years) == 0 || docs[0].Meta.Years[0] != 2022 {
		t.Fatalf("metadata %+v: want Acme's 2022 filing", docs[0].Meta)
	}
	for _, c := range []struct {
		question string
		page     int
	}{
		// The MD&A page names the quick ratio; the numbers for it are on
		// the balance sheet.
		{"What was Acme Widgets' quick ratio at the end of FY2022?", 4},
		{"How much capex did Acme Widgets spend in FY2022?", 5},
		// The MD&A page says "inventories" three times, the balance sheet
		// once.
		{"How large were Acme Widgets' inventories at the end of FY2022?", 4},
		{"Has Acme Widgets' gross margin improved between FY2021 and FY2022?", 3},
	} {
		// Documents processed before their statements' pages were
		// recorded are searched for them by title instead.
		unread := slices.Clone(docs)
		unread[0].Meta.Statements = nil
		for _, ds := range [][]room.Document{docs, unread} {
			pages, err := ask.Retrieve(context.Background(), svc.Store, ask.Request{RoomID: r.ID, Docs: ds, Question: c.question, K: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) == 0 || pages[0].PageNumber != c.page {
				t.Errorf("%q (statements recorded: %v): pages %v, want page %d first", c.question, ds[0].Meta.Statements != nil, pageNumbers(pages), c.page)
			}
		}
	}
}

func TestRetrieveWithoutAStatementRanksByWords(t *testing.T) {
	svc, r, docs := acmeRoom(t)
	pages, err := ask.Retrieve(context.Background(), svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: "What does Acme Widgets say about its revolving credit facility?", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 || pages[0].PageNumber != 2 {
		t.Errorf("pages %v, want page 2 first", pageNumbers(pages))
	}
}

func pageNumbers(ps []ask.PageHit) []int {
	var out []int
	for _, p := range ps {
		out = append(out, p.PageNumber)
	}
	return out
}

func TestAskFindsRevenueWhereTheFilingSaysNetSales(t *testing.T) {
	svc, r, _ := acmeRoom(t)
	owner, err := svc.EnsureUser(context.Background(), "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(context.Background(), owner.ID, r.ID, "What was the revenue in FY2022?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, "5,000") || len(q.Citations) == 0 || q.Citations[0].PageNumber != 3 {
		t.Fatalf("answer %q (%s), citations %+v: want net sales of 5,000 from page 3", q.Answer, q.AnswerType, q.Citations)
	}
}

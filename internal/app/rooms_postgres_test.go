package app_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
	"github.com/quarry-dev/quarry/room"
)

// TestRoomsOnPostgresTwoWorkers is the scale-out deployment in one test:
// one PostgreSQL, a front process that only queues uploads (as quarry
// serve --db does) and two worker processes (two River clients, as two
// quarry worker processes) sharing one data dir. Every document ends
// completed, each processed exactly once, and asking finds them.
func TestRoomsOnPostgresTwoWorkers(t *testing.T) {
	dsn, _ := pgtest.AppDatabase(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	front, owner, closeFront, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFront()
	var mu sync.Mutex
	started := map[string]int{}   // document -> Process runs
	completed := map[string]int{} // document -> completions
	by := map[int]int{}           // worker -> documents completed
	for w := range 2 {
		svc, _, closeWorker, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: dsn, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer closeWorker()
		svc.Progress = func(p room.Progress) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case p.Status == room.StatusProcessing && strings.HasPrefix(p.Message, "reading "):
				started[p.DocumentID]++
			case p.Status == room.StatusCompleted:
				completed[p.DocumentID]++
				by[w]++
			}
		}
	}

	r, err := front.CreateRoom(ctx, owner.ID, "deals", "")
	if err != nil {
		t.Fatal(err)
	}
	animals := []string{"zebra", "okapi", "narwhal", "pangolin", "axolotl", "quokka", "tapir", "ibex"}
	var docs []*room.Document
	for i, a := range animals {
		text := fmt.Sprintf("# Census %d\n\nThe %s count in the reserve was %d at the end of the year, up from %d the year before, "+
			"according to the warden's annual report on page one.\n", i, a, 100+i*7, 90+i*3)
		d, err := front.Upload(ctx, owner.ID, r.ID, a+".md", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, d := range docs {
		for {
			got, err := front.Document(ctx, owner.ID, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status == room.StatusCompleted {
				break
			}
			if got.Status == room.StatusFailed || time.Now().After(deadline) {
				t.Fatalf("document %s is %s (%s %s); want completed", d.Name, got.Status, got.ErrorCode, got.Error)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Queueing a done document again, as a worker's start does for
	// pending ones, runs nothing.
	if err := front.Queue.Enqueue(ctx, docs[0].ID, 0); err != nil {
		t.Fatal(err)
	}
	if n, err := front.EnqueuePending(ctx); err != nil || n != 0 {
		t.Errorf("EnqueuePending = %d, %v; want nothing left pending", n, err)
	}
	time.Sleep(time.Second)
	mu.Lock()
	for _, d := range docs {
		if started[d.ID] != 1 || completed[d.ID] != 1 {
			t.Errorf("document %s processed %d times, completed %d times; want exactly once", d.Name, started[d.ID], completed[d.ID])
		}
	}
	t.Logf("documents completed per worker: %v", by)
	mu.Unlock()

	// Ask as the owner: the store acts for the user the context names.
	q, err := front.Ask(room.WithActor(ctx, owner.ID), owner.ID, r.ID, "What was the pangolin count in the reserve?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || len(q.Citations) == 0 || q.Citations[0].DocumentName != "pangolin.md" || !strings.Contains(q.Answer, "121") {
		t.Errorf("Ask = %s %q citing %+v; want grounded on pangolin.md with 121", q.AnswerType, q.Answer, q.Citations)
	}
}

package rooms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

func TestWatchStreamsARoomsSteps(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, _, _, err := e.svc.Watch(ctx, e.owner.ID, e.b.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Fatalf("watching another's room: %v; want NOT_FOUND", err)
	}
	_, liveA, cancelA, err := e.svc.Watch(ctx, e.owner.ID, e.a.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cancelA()
	_, liveB, cancelB, err := e.svc.Watch(ctx, e.other.ID, e.b.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cancelB()

	d, err := e.svc.Upload(ctx, e.owner.ID, e.a.ID, "notes.md", strings.NewReader(strings.Repeat("The supplier may terminate on ninety days notice. ", 5)))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Process(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for len(statuses) < 2 {
		p := <-liveA
		if p.DocumentID != d.ID || p.RoomID != e.a.ID {
			t.Fatalf("step %+v; want one of document %s in room %s", p, d.ID, e.a.ID)
		}
		statuses = append(statuses, p.Status)
	}
	if statuses[0] != room.StatusProcessing || statuses[1] != room.StatusCompleted {
		t.Errorf("steps %v; want processing then completed", statuses)
	}
	select {
	case p := <-liveB:
		t.Errorf("room B's watcher heard %+v of room A", p)
	default:
	}
	if p, err := e.svc.Latest(ctx, e.owner.ID, d.ID); err != nil || p != nil {
		t.Errorf("Latest of a completed document = %+v, %v; want nil", p, err)
	}
	if _, err := e.svc.Latest(ctx, e.other.ID, d.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("Latest of another room's document: %v; want NOT_FOUND", err)
	}
	cancelA()
	if _, ok := <-liveA; ok {
		t.Error("the channel stays open after cancel")
	}
}

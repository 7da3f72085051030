package rooms_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// TestAccessLog: a room's owner reads who asked, viewed, downloaded and
// uploaded in it, in order, and nothing of another room; a member who is
// no owner may not read it.
func TestAccessLog(t *testing.T) {
	ctx := context.Background()
	svc, _, owner, r, doc := auditedRoom(t)
	viewer, err := svc.AddMember(ctx, owner.ID, r.ID, "vera", room.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	other, err := svc.CreateRoom(ctx, owner.ID, "other", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Ask(ctx, viewer.UserID, r.ID, "What was Northwind's revenue in 2023? Mail me at vera@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.View(ctx, viewer.UserID, doc.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Download(ctx, viewer.UserID, doc.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Page(ctx, viewer.UserID, doc.ID, 1); err != nil { // drawing a page is no view
		t.Fatal(err)
	}
	if _, err := svc.Upload(ctx, viewer.UserID, r.ID, "notes.md", strings.NewReader("# Notes\n")); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Fatalf("a viewer uploads: %v; want FORBIDDEN", err)
	}
	log, err := svc.AccessLog(ctx, owner.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byAction := map[string]room.Access{}
	for _, a := range log {
		got = append(got, a.UserID+" "+a.Action)
		byAction[a.Action] = a
	}
	want := []string{owner.ID + " create_room", owner.ID + " upload", owner.ID + " add_member", viewer.UserID + " ask",
		viewer.UserID + " answer", viewer.UserID + " view", viewer.UserID + " download", viewer.UserID + " upload"}
	if !slices.Equal(got, want) {
		t.Fatalf("access log = %q;\nwant %q", got, want)
	}
	if ask := byAction["ask"]; ask.Detail == "" || strings.Contains(ask.Detail, "vera@example.com") {
		t.Errorf("the question in the log = %q; want it with the address masked", ask.Detail)
	}
	if v := byAction["view"]; v.DocumentID != doc.ID || v.Page != 1 || v.Decision != "allowed" {
		t.Errorf("the view = %+v; want page 1 of %s", v, doc.ID)
	}
	if u := log[len(log)-1]; u.Decision != "refused" {
		t.Errorf("the viewer's upload = %+v; want refused", u)
	}
	if o, err := svc.AccessLog(ctx, owner.ID, other.ID); err != nil || len(o) != 1 || o[0].Action != "create_room" {
		t.Errorf("the other room's log = %v, %v; want its creation alone", o, err)
	}
	if _, err := svc.AccessLog(ctx, viewer.UserID, r.ID); quarry.ErrorCode(err) != quarry.ECodeForbidden {
		t.Errorf("a viewer reads the access log: %v; want FORBIDDEN", err)
	}
}

// TestAccessLogWithoutAuditLog: a service that keeps no log says so.
func TestAccessLogWithoutAuditLog(t *testing.T) {
	e := newEnv(t)
	if _, err := e.svc.AccessLog(context.Background(), e.owner.ID, e.a.ID); quarry.ErrorCode(err) != quarry.ECodeUnavailable {
		t.Fatalf("AccessLog without an audit log = %v; want UNAVAILABLE", err)
	}
}

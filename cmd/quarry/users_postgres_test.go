package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/pgtest"
)

// TestUsersOnPostgres: with --db, quarry user and quarry token manage the
// people of rooms kept in PostgreSQL, as they do in SQLite: a user is
// added, their password changed (the old one stops working), listed and
// given a token. Without PostgreSQL it skips, and under CI=true it fails.
func TestUsersOnPostgres(t *testing.T) {
	dsn, _ := pgtest.AppDatabase(t)
	dir := t.TempDir()
	at := []string{"--data-dir", dir, "--db", dsn}
	if out, err := quarryRun(t, "ann's first password\n", append([]string{"user", "add", "ann", "--password-stdin"}, at...)...); err != nil || !strings.Contains(out, "added user ann") {
		t.Fatalf("user add: %q, %v", out, err)
	}
	if out, err := quarryRun(t, "ann's second password\n", append([]string{"user", "passwd", "ann", "--password-stdin"}, at...)...); err != nil || !strings.Contains(out, "changed the password of ann") {
		t.Fatalf("user passwd: %q, %v", out, err)
	}
	if _, err := quarryRun(t, "a long password\n", append([]string{"user", "passwd", "nobody", "--password-stdin"}, at...)...); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("user passwd nobody: %v; want NOT_FOUND", err)
	}
	out, err := quarryRun(t, "", append([]string{"user", "list", "--json"}, at...)...)
	var list []struct {
		Name     string
		Password bool
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("user list --json: %q, %v", out, err)
	}
	found := false
	for _, u := range list {
		found = found || u.Name == "ann" && u.Password
	}
	if !found {
		t.Errorf("user list: %+v; want ann with a password", list)
	}
	token, err := quarryRun(t, "", append([]string{"token", "create", "--user", "ann"}, at...)...)
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	svc, _, closeFn, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: dir, DB: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if _, err := svc.Login(ctx, "ann", "ann's first password"); quarry.ErrorCode(err) != quarry.ECodeUnauthorized {
		t.Errorf("Login with the old password: %v; want UNAUTHORIZED", err)
	}
	if u, err := svc.Login(ctx, "ann", "ann's second password"); err != nil || u.Name != "ann" {
		t.Errorf("Login with the new password: %v, %v; want ann", u, err)
	}
	if u, err := svc.UserByToken(ctx, strings.TrimSpace(token)); err != nil || u.Name != "ann" {
		t.Errorf("UserByToken: %v, %v; want ann", u, err)
	}
}

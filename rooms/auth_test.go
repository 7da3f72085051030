package rooms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

func TestLogin(t *testing.T) {
	svc := openService(t)
	ctx := context.Background()
	ann, err := svc.AddUser(ctx, "ann", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if _, hash, _ := svc.Store.UserByName(ctx, "ann"); !strings.HasPrefix(hash, "$argon2id$v=19$") || strings.Contains(hash, "horse") {
		t.Errorf("stored hash %q; want an argon2id hash without the password", hash)
	}
	u, err := svc.Login(ctx, "ann", "correct horse battery")
	if err != nil || u.ID != ann.ID {
		t.Fatalf("Login(ann, right password) = %v, %v; want ann", u, err)
	}
	// A user without a password (made by add-member) cannot log in, even
	// with an empty password.
	if _, err := svc.EnsureUser(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	failures := []struct{ name, password string }{
		{"ann", "wrong horse battery"},
		{"ann", ""},
		{"nobody", "correct horse battery"},
		{"bob", ""},
		{"bob", "anything at all"},
		{"ann", strings.Repeat("x", rooms.MaxPasswordBytes+1)},
	}
	var msgs []string
	for _, f := range failures {
		u, err := svc.Login(ctx, f.name, f.password)
		if quarry.ErrorCode(err) != quarry.ECodeUnauthorized || u != nil {
			t.Errorf("Login(%s, %.20q) = %v, %v; want UNAUTHORIZED", f.name, f.password, u, err)
		}
		msgs = append(msgs, quarry.ErrorMessage(err))
	}
	for _, m := range msgs[1:] {
		if m != msgs[0] {
			t.Errorf("failed logins say %q and %q; an unknown user must read like a wrong password", msgs[0], m)
		}
	}

	// A new password replaces the old one and changes the session stamp.
	_, stamp1, err := svc.SessionStamp(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SetPassword(ctx, ann.ID, "short"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("SetPassword(short) = %v; want INVALID", err)
	}
	if err := svc.SetPassword(ctx, ann.ID, "a new and longer one"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Login(ctx, "ann", "correct horse battery"); quarry.ErrorCode(err) != quarry.ECodeUnauthorized {
		t.Errorf("the old password after a change: %v; want UNAUTHORIZED", err)
	}
	if _, err := svc.Login(ctx, "ann", "a new and longer one"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	_, stamp2, _ := svc.SessionStamp(ctx, ann.ID)
	if stamp1 == stamp2 {
		t.Errorf("the session stamp did not change with the password")
	}
	if err := svc.SetPassword(ctx, "no-such-id", "long enough password"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("SetPassword(unknown user) = %v; want NOT_FOUND", err)
	}
	if _, err := svc.AddUser(ctx, "ANN", "whatever password"); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("AddUser(taken name) = %v; want CONFLICT", err)
	}
	if _, err := svc.AddUser(ctx, "carol", "short"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("AddUser(short password) = %v; want INVALID", err)
	}
}

func TestTokens(t *testing.T) {
	svc := openService(t)
	ctx := context.Background()
	ann, err := svc.AddUser(ctx, "ann", "")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := svc.CreateToken(ctx, ann.ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	tok2, err := svc.CreateToken(ctx, ann.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, rooms.TokenPrefix) || len(tok) < 40 || tok == tok2 {
		t.Fatalf("tokens %q and %q; want two distinct %s... tokens of 256 bits", tok, tok2, rooms.TokenPrefix)
	}
	for _, tk := range []string{tok, tok2} {
		if u, err := svc.UserByToken(ctx, tk); err != nil || u.ID != ann.ID {
			t.Errorf("UserByToken(%q) = %v, %v; want ann", tk, u, err)
		}
	}
	// Only the hash is stored: the token itself finds nothing there.
	if _, err := svc.Store.UserByToken(ctx, tok); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("the store found a user by the token in clear: %v", err)
	}
	for _, bad := range []string{"", "qry_", tok + "x", tok[:len(tok)-1], "Bearer " + tok, strings.Repeat("q", 500)} {
		if _, err := svc.UserByToken(ctx, bad); quarry.ErrorCode(err) != quarry.ECodeUnauthorized {
			t.Errorf("UserByToken(%.30q) = %v; want UNAUTHORIZED", bad, err)
		}
	}
	if _, err := svc.CreateToken(ctx, "no-such-id", "x"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("CreateToken(unknown user) = %v; want NOT_FOUND", err)
	}

	// Listed without the token, revoked by its ID: it stops working and
	// the other goes on.
	ts, err := svc.ListTokens(ctx, ann.ID)
	if err != nil || len(ts) != 2 {
		t.Fatalf("ListTokens = %+v, %v; want 2", ts, err)
	}
	for _, tk := range ts {
		if strings.Contains(tok, tk.ID) || strings.Contains(tok2, tk.ID) || len(tk.ID) != room.TokenIDLength {
			t.Errorf("token ID %q shows part of a token", tk.ID)
		}
	}
	var ci string
	for _, tk := range ts {
		if tk.Name == "ci" {
			ci = tk.ID
		}
	}
	if err := svc.RevokeToken(ctx, ann.ID, " "+strings.ToUpper(ci)+" "); err != nil {
		t.Fatalf("RevokeToken(ci) = %v", err)
	}
	if _, err := svc.UserByToken(ctx, tok); quarry.ErrorCode(err) != quarry.ECodeUnauthorized {
		t.Errorf("UserByToken(revoked) = %v; want UNAUTHORIZED", err)
	}
	if u, err := svc.UserByToken(ctx, tok2); err != nil || u.ID != ann.ID {
		t.Errorf("UserByToken(the other) = %v, %v; want ann", u, err)
	}
	if err := svc.RevokeToken(ctx, ann.ID, ci); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("RevokeToken twice = %v; want NOT_FOUND", err)
	}
	if _, err := svc.ListTokens(ctx, "no-such-id"); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("ListTokens(unknown user) = %v; want NOT_FOUND", err)
	}
}

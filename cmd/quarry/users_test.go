package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/rooms"
)

// quarryRun runs the command in-process with stdin and returns stdout.
func quarryRun(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var stdout, stderr syncBuffer
	err := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(stdin), &stdout, &stderr)
	return stdout.String(), err
}

// TestUsersAndTokens: quarry user and quarry token make the people and
// tokens that quarry mcp --http --auth token lets in.
func TestUsersAndTokens(t *testing.T) {
	dir := t.TempDir()
	if out, err := quarryRun(t, "ann's long password\n", "user", "add", "ann", "--password-stdin", "--data-dir", dir); err != nil || !strings.Contains(out, "added user ann") {
		t.Fatalf("user add: %q, %v", out, err)
	}
	if _, err := quarryRun(t, "", "user", "add", "bob", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	if _, err := quarryRun(t, "ann's long password\n", "user", "add", "ann", "--password-stdin", "--data-dir", dir); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Errorf("adding ann twice: %v; want CONFLICT", err)
	}
	if _, err := quarryRun(t, "short\n", "user", "passwd", "bob", "--password-stdin", "--data-dir", dir); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("a short password: %v; want INVALID", err)
	}
	var u *usageError
	if _, err := quarryRun(t, "", "user", "passwd", "bob", "--data-dir", dir); !errors.As(err, &u) {
		t.Errorf("passwd without --password-stdin: %v; want a usage error", err)
	}
	if _, err := quarryRun(t, "bob's long password\n", "user", "passwd", "bob", "--password-stdin", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	out, err := quarryRun(t, "", "user", "list", "--json", "--data-dir", dir)
	var list []struct {
		Name     string
		Password bool
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("user list --json: %q, %v", out, err)
	}
	got := map[string]bool{}
	for _, l := range list {
		got[l.Name] = l.Password
	}
	if len(got) != 3 || !got["ann"] || !got["bob"] || got["owner"] {
		t.Errorf("user list: %v; want ann and bob with passwords, the local owner without", got)
	}
	token, err := quarryRun(t, "", "token", "create", "--user", "ann", "--name", "agent", "--data-dir", dir)
	token = strings.TrimSpace(token)
	if err != nil || !strings.HasPrefix(token, rooms.TokenPrefix) || strings.Contains(token, "\n") {
		t.Fatalf("token create: %q, %v; want the token alone", token, err)
	}
	if _, err := quarryRun(t, "", "token", "create", "--user", "zed", "--data-dir", dir); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("a token for nobody: %v; want NOT_FOUND", err)
	}
	// Tokens are listed by ID and name, never shown again, and revoked
	// by ID.
	if _, err := quarryRun(t, "", "token", "create", "--user", "ann", "--name", "spare", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	listed, err := quarryRun(t, "", "token", "list", "--user", "ann", "--data-dir", dir)
	lines := strings.Split(strings.TrimSpace(listed), "\n")
	if err != nil || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") || strings.Contains(listed, token[len(rooms.TokenPrefix):len(rooms.TokenPrefix)+8]) {
		t.Fatalf("token list: %q, %v; want a header and two tokens, none shown", listed, err)
	}
	var spare string
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "spare" {
			spare = f[0]
		}
	}
	if _, err := quarryRun(t, "", "token", "revoke", "--user", "ann", "--data-dir", dir); !errors.As(err, &u) {
		t.Errorf("token revoke without an ID: %v; want a usage error", err)
	}
	if _, err := quarryRun(t, "", "token", "revoke", "--user", "bob", spare, "--data-dir", dir); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("revoking ann's token as bob: %v; want NOT_FOUND", err)
	}
	if _, err := quarryRun(t, "", "token", "revoke", "--user", "ann", spare, "--data-dir", dir); err != nil {
		t.Fatalf("token revoke %q: %v", spare, err)
	}
	if listed, err := quarryRun(t, "", "token", "list", "--user", "ann", "--data-dir", dir); err != nil || strings.Contains(listed, "spare") || !strings.Contains(listed, "agent") {
		t.Errorf("token list after revoking spare: %q, %v; want agent only", listed, err)
	}
	if _, err := quarryRun(t, "", "mcp", "--auth", "token", "--data-dir", dir); !errors.As(err, &u) {
		t.Errorf("mcp --auth token over stdio: %v; want a usage error", err)
	}

	// quarry mcp --http --auth token: no token, no session; ann's token
	// acts as ann.
	url := startMCPHTTP(t, "--auth", "token", "--data-dir", dir)
	connect := func(tok string) (*mcpsdk.ClientSession, error) {
		c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "quarry-test", Version: "1"}, nil)
		return c.Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: withBearer{tok}}}, nil)
	}
	if cs, err := connect(""); err == nil {
		cs.Close()
		t.Error("connected to quarry mcp --auth token without a token")
	}
	cs, err := connect(token)
	if err != nil {
		t.Fatal(err)
	}
	if text, failed := callText(t, cs, "list_rooms", map[string]any{}); failed || !strings.HasPrefix(text, "0 room(s) of ann") {
		t.Errorf("list_rooms with ann's token: %q", text)
	}
	cs.Close()
}

// withBearer sends a Bearer token with every request, when it has one.
type withBearer struct{ token string }

func (b withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestServeAuthPassword: quarry serve --auth password keeps the data
// rooms behind a sign-in; the default answers the local owner, whose
// fresh data dir has the sample room.
func TestServeAuthPassword(t *testing.T) {
	for _, mode := range []string{"local", "password"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := quarryRun(t, "owner's long password\n", "user", "passwd", "owner", "--password-stdin", "--data-dir", dir); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var stdout, stderr syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--auth", mode, "--data-dir", dir}, func(string) string { return "" }, nil, &stdout, &stderr)
			}()
			t.Cleanup(func() {
				cancel()
				<-done
			})
			serving := regexp.MustCompile(`Quarry is serving on (http://\S+) `)
			var base string
			waitFor(t, done, "the server's URL", func() bool {
				if m := serving.FindStringSubmatch(stdout.String()); m != nil {
					base = m[1]
				}
				return base != ""
			})
			get := func(cookie string) (int, string) {
				req, _ := http.NewRequest("GET", base+"/api/rooms", nil)
				if cookie != "" {
					req.Header.Set("Cookie", cookie)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, string(b)
			}
			status, body := get("")
			if mode == "local" {
				if status != http.StatusOK || !strings.Contains(body, `"sample"`) {
					t.Errorf("the rooms in single-user mode: %d %.300s; want the sample room", status, body)
				}
				return
			}
			if status != http.StatusUnauthorized || !strings.Contains(body, "UNAUTHORIZED") {
				t.Fatalf("the rooms without a sign-in: %d %.300s; want 401 UNAUTHORIZED", status, body)
			}
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			res, err := c.PostForm(base+"/login", url.Values{"name": {"owner"}, "password": {"owner's long password"}, "next": {"/rooms"}})
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 {
				t.Fatalf("sign in: %d, cookies %v", res.StatusCode, res.Cookies())
			}
			if status, body := get(res.Cookies()[0].Name + "=" + res.Cookies()[0].Value); status != http.StatusOK || !strings.Contains(body, `"sample"`) {
				t.Errorf("the rooms after signing in: %d %.300s; want the sample room", status, body)
			}
		})
	}
}

// TestTrustForwardedForSetting: the proxy setting is read as a boolean,
// and a value that is not one stops the server with the setting's name.
func TestTrustForwardedForSetting(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == envTrustForwardedFor {
				return v
			}
			return ""
		}
	}
	for _, v := range []string{"", "true", "false", "1"} {
		if _, err := webAuth(authPassword, t.TempDir(), nil, nil, env(v)); err != nil {
			t.Errorf("%s=%q: %v", envTrustForwardedFor, v, err)
		}
	}
	if _, err := webAuth(authPassword, t.TempDir(), nil, nil, env("maybe")); err == nil || !strings.Contains(err.Error(), envTrustForwardedFor) {
		t.Errorf("%s=maybe: %v; want an error naming the setting", envTrustForwardedFor, err)
	}
}

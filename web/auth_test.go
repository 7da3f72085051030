package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/fakeclock"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/web"
)

// authEnv is a server whose data rooms need a sign-in: ann owns room A,
// bob owns room B and has an API token.
type authEnv struct {
	t        *testing.T
	srv      *httptest.Server
	svc      *rooms.Service
	clock    *fakeclock.Clock
	ann, bob *room.User
	a, b     *room.Room
	bobToken string
	sessions investigation.Service
	key      []byte
}

const annPassword = "ann's long password"

func newAuthEnv(t *testing.T, tls bool) *authEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	a, err := app.Open(ctx, app.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	svc, _, closeRooms, err := app.OpenRooms(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRooms() })
	e := &authEnv{t: t, svc: svc, clock: fakeclock.New(time.Now())}
	svc.Now = e.clock.Now
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	e.ann, err = svc.AddUser(ctx, "ann", annPassword)
	must(err)
	e.bob, err = svc.AddUser(ctx, "bob", "bob's long password")
	must(err)
	e.a, err = svc.CreateRoom(ctx, e.ann.ID, "deal-a", "")
	must(err)
	e.b, err = svc.CreateRoom(ctx, e.bob.ID, "deal-b", "")
	must(err)
	e.bobToken, err = svc.CreateToken(ctx, e.bob.ID, "script")
	must(err)
	key, err := web.LoadSessionKey(filepath.Join(dir, "secrets", "session.key"))
	must(err)
	if again, err := web.LoadSessionKey(filepath.Join(dir, "secrets", "session.key")); err != nil || string(again) != string(key) {
		t.Fatalf("the session key read again differs: %v", err)
	}
	auth, err := web.NewPasswordAuth(svc, key, web.PasswordAuthOptions{Now: e.clock.Now})
	must(err)
	e.key = key
	e.sessions = a.Investigations
	h := web.New(a.Investigations, web.Options{Rooms: svc, Auth: auth})
	if tls {
		e.srv = httptest.NewTLSServer(h)
	} else {
		e.srv = httptest.NewServer(h)
	}
	t.Cleanup(e.srv.Close)
	return e
}

// send makes one request without following redirects.
func (e *authEnv) send(method, path string, form url.Values, header ...string) *http.Response {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	c := e.srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { res.Body.Close() })
	return res
}

// login posts the sign-in form and returns the response.
func (e *authEnv) login(name, password, next string) *http.Response {
	e.t.Helper()
	return e.send("POST", "/login", url.Values{"name": {name}, "password": {password}, "next": {next}})
}

// sessionCookie signs ann in and returns her cookie.
func (e *authEnv) sessionCookie() *http.Cookie {
	e.t.Helper()
	res := e.login("ann", annPassword, "/")
	for _, c := range res.Cookies() {
		if c.Name == web.SessionCookie && c.Value != "" {
			return c
		}
	}
	e.t.Fatalf("signing in answered %d without a session cookie", res.StatusCode)
	return nil
}

// cookieFromAnotherKey signs ann in on a server with the same users and
// another key.
func (e *authEnv) cookieFromAnotherKey() *http.Cookie {
	e.t.Helper()
	key, err := web.LoadSessionKey(filepath.Join(e.t.TempDir(), "session.key"))
	if err != nil {
		e.t.Fatal(err)
	}
	auth, err := web.NewPasswordAuth(e.svc, key, web.PasswordAuthOptions{Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	other := &authEnv{t: e.t, svc: e.svc, srv: httptest.NewServer(web.New(e.sessions, web.Options{Rooms: e.svc, Auth: auth}))}
	defer other.srv.Close()
	return other.sessionCookie()
}

func cookieHeader(c *http.Cookie) string { return c.Name + "=" + c.Value }

// errorCode is the code of an API error envelope.
func errorCode(t *testing.T, res *http.Response) string {
	t.Helper()
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("%s %s: %d, not an error envelope: %v", res.Request.Method, res.Request.URL.Path, res.StatusCode, err)
	}
	return body.Error.Code
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// want401 checks an API answer is 401 UNAUTHORIZED in the envelope.
func want401(t *testing.T, what string, res *http.Response) {
	t.Helper()
	if code := errorCode(t, res); res.StatusCode != http.StatusUnauthorized || code != "UNAUTHORIZED" {
		t.Errorf("%s: %d %s; want 401 UNAUTHORIZED", what, res.StatusCode, code)
	}
	if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("%s: WWW-Authenticate %q; want a Bearer challenge", what, res.Header.Get("WWW-Authenticate"))
	}
}

func TestPasswordSignIn(t *testing.T) {
	e := newAuthEnv(t, false)
	want401(t, "the rooms without credentials", e.send("GET", "/api/rooms", nil))

	// Wrong password and unknown user: the form again, the same words,
	// no cookie.
	var pages []string
	for _, try := range [][2]string{{"ann", "not her password"}, {"nobody", annPassword}, {"ann", ""}} {
		res := e.login(try[0], try[1], "/")
		page := body(t, res)
		if res.StatusCode != http.StatusUnauthorized || len(res.Cookies()) != 0 || !strings.Contains(page, "wrong user name or password") {
			t.Errorf("sign in as %s with %q: %d, cookies %v; want 401 with the form and no cookie", try[0], try[1], res.StatusCode, res.Cookies())
		}
		if !strings.Contains(page, `value="`+try[0]+`"`) || strings.Contains(page, try[1]+`"`) && try[1] != "" {
			t.Errorf("sign in as %s: the form should keep the name and never the password", try[0])
		}
		pages = append(pages, strings.ReplaceAll(page, try[0], "NAME"))
	}
	if pages[0] != pages[1] {
		t.Errorf("a wrong password and an unknown user answer differently")
	}

	// The right password: a cookie that only the server can read, and
	// the page the person was going to.
	res := e.login("ann", annPassword, "/rooms?x=1")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/rooms?x=1" {
		t.Fatalf("sign in: %d to %q; want 303 to /rooms?x=1", res.StatusCode, res.Header.Get("Location"))
	}
	var c *http.Cookie
	for _, k := range res.Cookies() {
		if k.Name == web.SessionCookie {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure || c.Path != "/" || c.MaxAge <= 0 {
		t.Fatalf("session cookie %+v; want HttpOnly, SameSite=Strict, not Secure over plain HTTP, path /", c)
	}
	if strings.Contains(c.Value, annPassword) {
		t.Fatal("the cookie carries the password")
	}
	res = e.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c))
	if got := body(t, res); res.StatusCode != http.StatusOK || !strings.Contains(got, e.a.ID) || strings.Contains(got, e.b.ID) {
		t.Errorf("ann's rooms with her cookie: %d %.300s; want room A only", res.StatusCode, got)
	}
	if page := body(t, e.send("GET", "/login", nil, "Cookie", cookieHeader(c))); !strings.Contains(page, "signed in as ann") {
		t.Errorf("the sign-in page for a signed-in person does not say who: %.500s", page)
	}

	// Forged cookies: a changed MAC, another user's id under ann's MAC,
	// a cookie signed with another key.
	payload, mac, _ := strings.Cut(c.Value, ".")
	flip := []byte(mac)
	flip[3] ^= 1
	forged := map[string]string{
		"a changed MAC": payload + "." + string(flip),
		"no MAC":        payload,
		"garbage":       "x.y",
	}
	dec, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || !strings.Contains(string(dec), e.ann.ID) {
		t.Fatalf("the cookie's payload %q does not name ann's id: %v", dec, err)
	}
	forged["bob's id under ann's MAC"] = base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(dec), e.ann.ID, e.bob.ID, 1))) + "." + mac
	forged["another server's key"] = e.cookieFromAnotherKey().Value
	for what, v := range forged {
		want401(t, "a cookie with "+what, e.send("GET", "/api/rooms", nil, "Cookie", web.SessionCookie+"="+v))
	}

	// Sign out: the cookie is cleared and refused from then on.
	res = e.send("POST", "/logout", nil, "Cookie", cookieHeader(c))
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 || res.Cookies()[0].MaxAge >= 0 {
		t.Errorf("sign out: %d, cookies %v; want 303 clearing the cookie", res.StatusCode, res.Cookies())
	}
	want401(t, "a signed-out cookie", e.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c)))
	// Another server of the same store and key (a restart, a second
	// process) refuses it too, and takes a live cookie.
	auth, err := web.NewPasswordAuth(e.svc, e.key, web.PasswordAuthOptions{Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	other := &authEnv{t: t, svc: e.svc, srv: httptest.NewServer(web.New(e.sessions, web.Options{Rooms: e.svc, Auth: auth}))}
	defer other.srv.Close()
	want401(t, "a cookie signed out on another server", other.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c)))
	if res := other.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(e.sessionCookie())); res.StatusCode != http.StatusOK {
		t.Errorf("a live cookie on another server of the store: %d; want 200", res.StatusCode)
	}

	// Expiry.
	c = e.sessionCookie()
	e.clock.Add(web.DefaultSessionTTL + time.Second)
	want401(t, "an expired cookie", e.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c)))

	// A new password ends the sessions made with the old one.
	c = e.sessionCookie()
	if res := e.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c)); res.StatusCode != http.StatusOK {
		t.Fatalf("a fresh cookie: %d", res.StatusCode)
	}
	if err := e.svc.SetPassword(context.Background(), e.ann.ID, "another long password"); err != nil {
		t.Fatal(err)
	}
	want401(t, "a cookie from before a password change", e.send("GET", "/api/rooms", nil, "Cookie", cookieHeader(c)))
}

func TestBearerTokens(t *testing.T) {
	e := newAuthEnv(t, false)
	for what, h := range map[string]string{
		"a token never issued": "Bearer " + rooms.TokenPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"a changed token":      "Bearer " + e.bobToken[:len(e.bobToken)-2] + "xx",
		"no token":             "Bearer ",
		"another scheme":       "Basic Ym9iOnBhc3N3b3Jk",
	} {
		want401(t, what, e.send("GET", "/api/rooms", nil, "Authorization", h))
	}
	bearer := "Bearer " + e.bobToken
	res := e.send("GET", "/api/rooms/"+e.b.ID, nil, "Authorization", bearer)
	if got := body(t, res); res.StatusCode != http.StatusOK || !strings.Contains(got, "deal-b") {
		t.Errorf("bob's room with his token: %d %.300s", res.StatusCode, got)
	}
	// Room A does not exist for bob, by id or by name.
	for _, ref := range []string{e.a.ID, e.a.Name} {
		res := e.send("GET", "/api/rooms/"+ref, nil, "Authorization", bearer)
		if code := errorCode(t, res); res.StatusCode != http.StatusNotFound || code != "NOT_FOUND" {
			t.Errorf("room A (%s) with bob's token: %d %s; want 404 NOT_FOUND", ref, res.StatusCode, code)
		}
	}
	// A token wins over a cookie: bob's token with ann's cookie is bob.
	c := e.sessionCookie()
	res = e.send("GET", "/api/rooms/"+e.a.ID, nil, "Authorization", bearer, "Cookie", cookieHeader(c))
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("bob's token with ann's cookie reached room A: %d", res.StatusCode)
	}
}

func TestSignInPages(t *testing.T) {
	e := newAuthEnv(t, true)
	// A room page sends a person to sign in, and back afterwards.
	res := e.send("GET", "/rooms", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?next=%2Frooms" {
		t.Errorf("the rooms page without a sign-in: %d to %q; want 303 to /login?next=%%2Frooms", res.StatusCode, res.Header.Get("Location"))
	}
	res = e.send("GET", "/rooms", nil, "HX-Request", "true")
	if res.Header.Get("HX-Redirect") == "" {
		t.Errorf("an htmx request without a sign-in: %d, no HX-Redirect", res.StatusCode)
	}
	// After signing in, only this server's pages are a destination.
	for _, next := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/logout"} {
		res := e.login("ann", annPassword, next)
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != "/" {
			t.Errorf("sign in with next=%q: %d to %q; want 303 to /", next, res.StatusCode, loc)
		}
	}
	// Over TLS the cookie is Secure.
	c := e.sessionCookie()
	if !c.Secure {
		t.Errorf("the session cookie over TLS is not Secure")
	}
	// Too many failures for a name: 429 with Retry-After for a while,
	// even with the right password, and the same for a name that does
	// not exist.
	for _, name := range []string{"ann", "nobody"} {
		for range rooms.MaxLoginFailures {
			e.login(name, "wrong password", "/")
		}
		res := e.login(name, annPassword, "/")
		secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
		if res.StatusCode != http.StatusTooManyRequests || err != nil || secs <= 0 || secs > int(rooms.LoginFailureWindow.Seconds()) {
			t.Errorf("sign in as %s after %d failures: %d, Retry-After %q; want 429 within the window",
				name, rooms.MaxLoginFailures, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	e.clock.Add(rooms.LoginFailureWindow)
	if res := e.login("ann", annPassword, "/"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("sign in after the failure window: %d; want 303", res.StatusCode)
	}
}

package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Authenticator says who sent a request. Every data-room handler asks it
// through Server.user and passes the user's id to the rooms service, which
// checks membership; no handler decides access itself.
type Authenticator interface {
	// User returns the request's user, or an UNAUTHORIZED error.
	User(r *http.Request) (*room.User, error)
}

// LocalUser is single-user mode: every request is the local owner.
type LocalUser struct{ Owner *room.User }

// User implements Authenticator.
func (l LocalUser) User(*http.Request) (*room.User, error) { return l.Owner, nil }

// user is the request's user, by the configured Authenticator.
func (s *Server) user(r *http.Request) (*room.User, error) {
	return s.opt.Auth.User(r)
}

// Credentials is what password sign-in needs from the data rooms
// (rooms.Service).
type Credentials interface {
	// LoginFrom returns the user called name when password is theirs,
	// counting a failure against the name and client (the address
	// clientOf gives). Errors: UNAUTHORIZED, alike for an unknown user
	// and a wrong password; RATE_LIMITED (a *room.RateLimited, whose
	// seconds become Retry-After) past the failures allowed or when too
	// many sign-ins are under way.
	LoginFrom(ctx context.Context, client, name, password string) (*room.User, error)
	// UserByToken returns the user of an API token. Errors: UNAUTHORIZED.
	UserByToken(ctx context.Context, token string) (*room.User, error)
	// SessionStamp returns a user and a fingerprint of their password,
	// which changes with it. Errors: NOT_FOUND for a deleted user.
	SessionStamp(ctx context.Context, userID string) (*room.User, string, error)
	// EndSession records a sign-out of session id, to be refused by
	// every server of the store until expires.
	EndSession(ctx context.Context, userID, id string, expires time.Time) error
	// SessionEnded reports whether session id was signed out.
	SessionEnded(ctx context.Context, id string) (bool, error)
}

// SessionCookie is the name of the sign-in cookie.
const SessionCookie = "quarry_session"

// Sign-in defaults. The limits on failed sign-ins are the rooms
// service's (rooms.MaxLoginFailures and the rest), counted in its store.
const (
	DefaultSessionTTL = 12 * time.Hour
	// sessionKeyBytes is the size of the key that signs the cookies.
	sessionKeyBytes = 32
)

// PasswordAuth is the data rooms for several people: a person signs in
// at /login with their name and password and gets a session cookie
// (HttpOnly, SameSite=Strict, Secure over TLS); a program sends
// "Authorization: Bearer TOKEN" with an API token. A request with neither
// is UNAUTHORIZED: 401 from the API, a redirect to /login from a page.
//
// A session is not stored: the cookie carries the user's id, its expiry,
// a random id and a stamp of the user's password, signed with HMAC-SHA256
// under a key kept in the data dir (LoadSessionKey), so it survives a
// restart. It ends when it expires, when the user's password changes (the
// stamp no longer matches) or when the user is deleted; signing out
// refuses the cookie from then on, in every server of the store
// (Credentials.EndSession).
type PasswordAuth struct {
	users        Credentials
	key          []byte
	ttl          time.Duration
	now          func() time.Time
	trustProxies bool
}

// PasswordAuthOptions configure a PasswordAuth; zero values take the
// defaults.
type PasswordAuthOptions struct {
	// TTL is how long a sign-in lasts (default DefaultSessionTTL).
	TTL time.Duration
	Now func() time.Time
	// TrustForwardedFor takes a sign-in's client, whose failures are
	// counted, from the last address of X-Forwarded-For, which a reverse
	// proxy in front of the server appends. Set it only behind such a
	// proxy: otherwise a client writes the header itself and picks a new
	// address for every guess. Off, the client is the connection's
	// address.
	TrustForwardedFor bool
}

// NewPasswordAuth signs people in with users' passwords, under key (at
// least 32 bytes; LoadSessionKey keeps one in the data dir).
func NewPasswordAuth(users Credentials, key []byte, opt PasswordAuthOptions) (*PasswordAuth, error) {
	if len(key) < sessionKeyBytes {
		return nil, fmt.Errorf("the session key has %d bytes; it needs %d", len(key), sessionKeyBytes)
	}
	if opt.TTL <= 0 {
		opt.TTL = DefaultSessionTTL
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &PasswordAuth{users: users, key: key, ttl: opt.TTL, now: opt.Now, trustProxies: opt.TrustForwardedFor}, nil
}

// errSignIn is the answer to a request without credentials.
func errSignIn(msg string) error {
	return quarry.Errorf(quarry.ECodeUnauthorized, "%s", msg).
		WithHint("sign in at /login, or send Authorization: Bearer TOKEN with a token from quarry token create")
}

// User implements Authenticator: the Bearer token's user, else the
// session cookie's.
func (a *PasswordAuth) User(r *http.Request) (*room.User, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, token, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return nil, errSignIn("the Authorization header must be Bearer TOKEN")
		}
		return a.users.UserByToken(r.Context(), strings.TrimSpace(token))
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return nil, errSignIn("sign in to use the data rooms")
	}
	s, err := a.parse(c.Value)
	if err != nil {
		return nil, err
	}
	if ended, err := a.users.SessionEnded(r.Context(), s.id); err != nil || ended {
		if err != nil {
			return nil, err
		}
		return nil, errSignIn("you have signed out; sign in again")
	}
	u, stamp, err := a.users.SessionStamp(r.Context(), s.userID)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound || err == nil && !hmac.Equal([]byte(stamp), []byte(s.stamp)) {
		return nil, errSignIn("your sign-in has ended; sign in again")
	}
	return u, err
}

// session is what a cookie says.
type session struct {
	userID  string
	expires time.Time
	id      string // random, so that signing out can refuse this cookie alone
	stamp   string
}

// sign returns a cookie value for s: the fields, then their MAC.
func (a *PasswordAuth) sign(s session) string {
	payload := strings.Join([]string{"v1", s.userID, strconv.FormatInt(s.expires.Unix(), 10), s.id, s.stamp}, "|")
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(a.mac(payload))
}

func (a *PasswordAuth) mac(payload string) []byte {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte("quarry session cookie\x00" + payload))
	return m.Sum(nil)
}

// parse checks a cookie value's MAC and expiry. Errors: UNAUTHORIZED.
func (a *PasswordAuth) parse(value string) (session, error) {
	enc := base64.RawURLEncoding
	p64, m64, ok := strings.Cut(value, ".")
	payload, err1 := enc.DecodeString(p64)
	mac, err2 := enc.DecodeString(m64)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, a.mac(string(payload))) {
		return session{}, errSignIn("your sign-in is not valid; sign in again")
	}
	f := strings.Split(string(payload), "|")
	var exp int64
	if len(f) == 5 && f[0] == "v1" {
		exp, err1 = strconv.ParseInt(f[2], 10, 64)
	}
	if len(f) != 5 || f[0] != "v1" || err1 != nil {
		return session{}, errSignIn("your sign-in is not valid; sign in again")
	}
	s := session{userID: f[1], expires: time.Unix(exp, 0), id: f[3], stamp: f[4]}
	if !a.now().Before(s.expires) {
		return session{}, errSignIn("your sign-in has expired; sign in again")
	}
	return s, nil
}

// signIn checks a name and password and returns the session cookie.
// Errors: UNAUTHORIZED, RATE_LIMITED (a *room.RateLimited) after too
// many failures for the name or from the client, or when too many
// sign-ins are under way (Credentials.LoginFrom).
func (a *PasswordAuth) signIn(r *http.Request, name, password string) (*http.Cookie, *room.User, error) {
	u, err := a.users.LoginFrom(r.Context(), a.clientOf(r), name, password)
	if err != nil {
		return nil, nil, err
	}
	_, stamp, err := a.users.SessionStamp(r.Context(), u.ID)
	if err != nil {
		return nil, nil, err
	}
	s := session{userID: u.ID, expires: a.now().Add(a.ttl), id: quarry.NewID(), stamp: stamp}
	c := a.cookie(r, a.sign(s), int(a.ttl.Seconds()))
	return c, u, nil
}

// clientOf names the client of a sign-in, whose failures are counted
// together: its IPv4 address, or the /64 of its IPv6 one (a single
// machine is commonly given a whole /64). The address is the
// connection's, or with TrustForwardedFor the one the proxy appended.
func (a *PasswordAuth) clientOf(r *http.Request) string {
	addr := r.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	if a.trustProxies {
		if fwd := r.Header.Values("X-Forwarded-For"); len(fwd) > 0 {
			last := fwd[len(fwd)-1]
			addr = strings.TrimSpace(last[strings.LastIndex(last, ",")+1:])
		}
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		// Not an address (a test's pipe, a proxy's odd header): counted
		// as it is, bounded in length.
		return "other:" + addr[:min(len(addr), 100)]
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}

// signOut refuses the request's session cookie from now on, in every
// server of the store, and returns the cookie that clears it in the
// browser. Errors: the store's, when the sign-out could not be recorded.
func (a *PasswordAuth) signOut(r *http.Request) (*http.Cookie, error) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		if s, err := a.parse(c.Value); err == nil {
			if err := a.users.EndSession(r.Context(), s.userID, s.id, s.expires); err != nil {
				return nil, err
			}
		}
	}
	return a.cookie(r, "", -1), nil
}

func (a *PasswordAuth) cookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: SessionCookie, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil}
}

// LoadSessionKey returns the key that signs session cookies, kept at path
// (hex, readable by its owner only) and made on first use. Two processes
// starting at once agree on one key: it is written to a temporary file
// and linked into place, and the loser reads the winner's.
func LoadSessionKey(path string) ([]byte, error) {
	read := func() ([]byte, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		key, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) < sessionKeyBytes {
			return nil, fmt.Errorf("%s is not a session key of %d hex bytes; delete it to make a new one (everyone signs in again)", path, sessionKeyBytes)
		}
		return key, nil
	}
	key, err := read()
	if !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key = make([]byte, sessionKeyBytes)
	rand.Read(key) // never fails on supported platforms
	tmp, err := os.CreateTemp(filepath.Dir(path), ".session-key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(key) + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return read()
		}
		return nil, err
	}
	return key, nil
}

// toLogin answers a page request that needs a sign-in with a redirect to
// the sign-in page, which comes back to the page afterwards. It reports
// whether it answered: only UNAUTHORIZED on a server with PasswordAuth.
func (s *Server) toLogin(w http.ResponseWriter, r *http.Request, qe *quarry.Error) bool {
	if _, ok := s.opt.Auth.(*PasswordAuth); !ok || qe.Code != quarry.ECodeUnauthorized {
		return false
	}
	next := "/"
	switch {
	case r.Method == http.MethodGet && !isHTMX(r):
		next = r.URL.RequestURI()
	default:
		// A form post or an htmx request comes back to the page it was
		// sent from.
		if ref, err := url.Parse(r.Header.Get("Referer")); err == nil && ref.Host == r.Host {
			next = ref.RequestURI()
		}
	}
	to := "/login?next=" + url.QueryEscape(localPath(next))
	if isHTMX(r) {
		w.Header().Set("HX-Redirect", to)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return true
}

// localPath returns p when it is a path on this server, "/" otherwise:
// after signing in, the page may send people only to Quarry's own pages.
func localPath(p string) string {
	u, err := url.Parse(p)
	if err != nil || p == "" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") ||
		u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/login") || strings.HasPrefix(u.Path, "/logout") {
		return "/"
	}
	return p
}

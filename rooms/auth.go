package rooms

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Password limits. A password is hashed whole, so the upper bound only
// keeps a request from making the hash read megabytes.
const (
	MinPasswordChars = 8
	MaxPasswordBytes = 1024
)

// argon2id parameters: OWASP's 19 MiB, 2 passes, 1 lane. A login costs
// about 30 ms of one core here, and a hash records its own parameters, so
// they can be raised later without breaking stored ones.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// errLogin is the one answer to a failed login, whether the user is
// unknown, has no password or gave the wrong one.
func errLogin() error {
	return quarry.Errorf(quarry.ECodeUnauthorized, "wrong user name or password")
}

// hashPassword returns password's argon2id hash in the PHC string format
// ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt) // never fails on supported platforms
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// checkPassword reports whether password matches encoded. A hash that
// does not parse matches nothing, after the same work as one that does.
func checkPassword(encoded, password string) bool {
	var v int
	var m, t uint32
	var p uint8
	parts := strings.Split(encoded, "$")
	ok := len(parts) == 6 && parts[1] == "argon2id"
	if ok {
		_, err1 := fmt.Sscanf(parts[2], "v=%d", &v)
		_, err2 := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p)
		ok = err1 == nil && err2 == nil && v == argon2.Version && m > 0 && m <= 1<<20 && t > 0 && t <= 16 && p > 0
	}
	var salt, want []byte
	if ok {
		var err1, err2 error
		salt, err1 = base64.RawStdEncoding.DecodeString(parts[4])
		want, err2 = base64.RawStdEncoding.DecodeString(parts[5])
		ok = err1 == nil && err2 == nil && len(want) > 0
	}
	if !ok {
		// Spend what a real check costs, so that a broken or missing hash
		// cannot be told from a wrong password by the time it takes.
		m, t, p, salt, want = argonMemory, argonTime, argonThreads, make([]byte, argonSaltLen), make([]byte, argonKeyLen)
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1 && ok
}

// dummyHash is checked against when the user is unknown or has no
// password, so that a failed login takes the same time either way.
var dummyHash = sync.OnceValue(func() string { return hashPassword("quarry: no such user") })

// validPassword checks a new password's length.
func validPassword(password string) error {
	if n := utf8.RuneCountInString(password); n < MinPasswordChars {
		return quarry.Errorf(quarry.ECodeInvalid, "the password is %d characters; it must be at least %d", n, MinPasswordChars)
	}
	if len(password) > MaxPasswordBytes {
		return quarry.Errorf(quarry.ECodeInvalid, "the password is longer than %d bytes", MaxPasswordBytes)
	}
	return nil
}

// AddUser creates a user who logs in with password; an empty password
// makes a user who can act only through API tokens (or, in single-user
// mode, through the CLI's --as). Errors: INVALID for a bad name or a
// password shorter than MinPasswordChars, CONFLICT for a taken name.
func (s *Service) AddUser(ctx context.Context, name, password string) (*room.User, error) {
	// Users and tokens belong to no room: the store calls of this file
	// are the application's own work, whoever asked.
	ctx = act(ctx, room.System)
	name = strings.TrimSpace(name)
	if err := validName("user", name); err != nil {
		return nil, err
	}
	hash := ""
	if password != "" {
		if err := validPassword(password); err != nil {
			return nil, err
		}
		hash = hashPassword(password)
	}
	u := &room.User{ID: quarry.NewID(), Name: name, CreatedAt: s.now()}
	if err := s.Store.CreateUser(ctx, u, hash); err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeConflict {
			return nil, quarry.Errorf(quarry.ECodeConflict, "a user called %s exists", name).
				WithHint("quarry user passwd " + name + " --password-stdin sets their password")
		}
		return nil, err
	}
	return u, nil
}

// SetPassword replaces userID's password; the login sessions made with
// the old one end (see SessionStamp). Errors: INVALID for a short
// password, NOT_FOUND for an unknown user, UNAVAILABLE when the store
// cannot change passwords.
func (s *Service) SetPassword(ctx context.Context, userID, password string) error {
	ctx = act(ctx, room.System)
	if err := validPassword(password); err != nil {
		return err
	}
	ps, ok := s.Store.(room.PasswordSetter)
	if !ok {
		return quarry.Errorf(quarry.ECodeUnavailable, "this store cannot change passwords")
	}
	if _, err := s.Store.User(ctx, userID); err != nil {
		return err
	}
	return ps.SetPassword(ctx, userID, hashPassword(password))
}

// Login returns the user called name when password is theirs, counting
// failures against the name and waiting for a turn as LoginFrom does.
// Errors: UNAUTHORIZED, the same message after the same work for an
// unknown user, a user without a password and a wrong password;
// RATE_LIMITED as LoginFrom's.
func (s *Service) Login(ctx context.Context, name, password string) (*room.User, error) {
	return s.LoginFrom(ctx, "", name, password)
}

// checkLogin checks name's password, spending the same work whether the
// user exists or not. Errors: UNAUTHORIZED.
func (s *Service) checkLogin(ctx context.Context, name, password string) (*room.User, error) {
	u, hash, err := s.Store.UserByName(ctx, name)
	if err != nil && quarry.ErrorCode(err) != quarry.ECodeNotFound {
		return nil, err
	}
	if err != nil || hash == "" {
		u, hash = nil, dummyHash()
	}
	if !checkPassword(hash, password) || u == nil {
		return nil, errLogin()
	}
	return u, nil
}

// SessionStamp returns userID's user and a fingerprint of their password
// hash. A login session records the stamp it was made under; a new
// password changes the stamp and so ends those sessions. Errors:
// NOT_FOUND for a user that no longer exists.
func (s *Service) SessionStamp(ctx context.Context, userID string) (*room.User, string, error) {
	ctx = act(ctx, room.System)
	u, err := s.Store.User(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	_, hash, err := s.Store.UserByName(ctx, u.Name)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256([]byte("quarry session stamp\x00" + hash))
	return u, hex.EncodeToString(sum[:8]), nil
}

// EndSession records that userID signed out of sign-in session id: every
// process of the store refuses it until expires.
func (s *Service) EndSession(ctx context.Context, userID, id string, expires time.Time) error {
	return s.Store.EndSession(act(ctx, room.System), userID, id, expires)
}

// SessionEnded reports whether sign-in session id was signed out.
func (s *Service) SessionEnded(ctx context.Context, id string) (bool, error) {
	return s.Store.SessionEnded(act(ctx, room.System), id)
}

// TokenPrefix starts every API token, so that a leaked one is easy to
// recognise (and to search for).
const TokenPrefix = "qry_"

// tokenBytes is the randomness of a token: 256 bits.
const tokenBytes = 32

// hashToken is what the store keeps of a token.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateToken makes an API token for userID, labelled name. The token is
// returned once; only its SHA-256 is stored. Errors: NOT_FOUND for an
// unknown user, INVALID for a label over 100 characters.
func (s *Service) CreateToken(ctx context.Context, userID, name string) (string, error) {
	ctx = act(ctx, room.System)
	if _, err := s.Store.User(ctx, userID); err != nil {
		return "", err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = "token of " + s.now().UTC().Format("2006-01-02 15:04")
	}
	if utf8.RuneCountInString(name) > 100 {
		return "", quarry.Errorf(quarry.ECodeInvalid, "the token name is longer than 100 characters")
	}
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails on supported platforms
	token := TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	if err := s.Store.CreateToken(ctx, userID, name, hashToken(token)); err != nil {
		return "", err
	}
	return token, nil
}

// ListTokens returns a user's API tokens, newest first, each named by
// the start of its hash. Errors: NOT_FOUND for an unknown user.
func (s *Service) ListTokens(ctx context.Context, userID string) ([]room.Token, error) {
	ctx = act(ctx, room.System)
	if _, err := s.Store.User(ctx, userID); err != nil {
		return nil, err
	}
	return s.Store.ListTokens(ctx, userID)
}

// RevokeToken deletes a user's API token by its ID (ListTokens): it
// stops working at once. Errors: NOT_FOUND for an unknown user, or a
// token the user does not have.
func (s *Service) RevokeToken(ctx context.Context, userID, id string) error {
	ctx = act(ctx, room.System)
	if _, err := s.Store.User(ctx, userID); err != nil {
		return err
	}
	return s.Store.DeleteToken(ctx, userID, strings.ToLower(strings.TrimSpace(id)))
}

// UserByToken returns the user an API token belongs to. Errors:
// UNAUTHORIZED for a token that is malformed or was never issued.
func (s *Service) UserByToken(ctx context.Context, token string) (*room.User, error) {
	ctx = act(ctx, room.System)
	token = strings.TrimSpace(token)
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 200 {
		return nil, quarry.Errorf(quarry.ECodeUnauthorized, "the API token is not valid")
	}
	u, err := s.Store.UserByToken(ctx, hashToken(token))
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return nil, quarry.Errorf(quarry.ECodeUnauthorized, "the API token is not valid").
			WithHint("quarry token create --user NAME makes one")
	}
	return u, err
}

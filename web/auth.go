package web

import (
	"net/http"

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

package web

import (
	"context"
	"net/http"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/room"
)

// rule is who may use a route. Every route of the table (routes.go) names
// one, so that no route is added without choosing; Server.guard enforces
// it before the handler runs.
type rule int

const (
	// open routes answer anyone: the static files, the sign-in page and
	// the answers for unknown paths.
	open rule = iota
	// signedIn routes need the request's user: under PasswordAuth an
	// anonymous request is UNAUTHORIZED (401 from the API, the sign-in
	// page for a page). In single-user mode everyone is the local owner.
	signedIn
	// ownSession routes are signedIn, and the investigation {id} must be
	// the user's (Server.owns): another user's is SESSION_NOT_FOUND, the
	// answer for one that does not exist, never FORBIDDEN, which would
	// say that it does.
	ownSession
	// ownAnalysis routes are signedIn, and the analysis {id} must be the
	// user's: another user's is NOT_FOUND, as for ownSession.
	ownAnalysis
)

func (rl rule) String() string {
	return [...]string{"open", "signed-in", "own investigation", "own analysis"}[rl]
}

// userKey keys the request's user in its context, once guard resolved it.
type userKey struct{}

// user is the request's user: the one guard resolved for the route, else
// the configured Authenticator's. A server without an Authenticator is
// single-user, and its user is nil, the local owner. Errors: UNAUTHORIZED
// from the Authenticator.
func (s *Server) user(r *http.Request) (*room.User, error) {
	if u, ok := r.Context().Value(userKey{}).(*room.User); ok {
		return u, nil
	}
	if s.opt.Auth == nil {
		return nil, nil
	}
	return s.opt.Auth.User(r)
}

// multiUser reports whether people sign in to this server (PasswordAuth,
// or any Authenticator but LocalUser): each then sees only the
// investigations and analyses they made. Without it the server is
// single-user, and the local owner owns everything.
func (s *Server) multiUser() bool {
	switch s.opt.Auth.(type) {
	case nil, LocalUser, *LocalUser:
		return false
	}
	return true
}

// owns reports whether u may see an investigation or analysis owned by
// ownerID. In single-user mode the local owner owns everything, whoever
// made it. With sign-ins a record is its owner's alone; one without an
// owner (made before records had owners, or by the CLI or MCP, which act
// as the local owner) is the local owner's: the user named
// room.LocalOwner, who signs in only once given a password with
// "quarry user passwd owner", and otherwise nobody on the web.
func (s *Server) owns(u *room.User, ownerID string) bool {
	switch {
	case !s.multiUser():
		return true
	case u == nil:
		return false
	}
	return room.Owns(u, ownerID)
}

// guard enforces rl before h runs: it resolves the request's user, puts
// it in the request's context for h (Server.user) and, for ownSession and
// ownAnalysis, checks that the {id} of the path is the user's.
func (s *Server) guard(rl rule, h handlerFunc) handlerFunc {
	if rl == open {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		u, err := s.user(r)
		if err != nil {
			return err
		}
		r = r.WithContext(context.WithValue(r.Context(), userKey{}, u))
		switch rl {
		case ownSession:
			err = s.checkSession(r, u, r.PathValue("id"))
		case ownAnalysis:
			err = s.checkAnalysis(r, u, r.PathValue("id"))
		}
		if err != nil {
			return err
		}
		return h(w, r)
	}
}

// checkSession returns nil when u may use investigation id. Errors:
// SESSION_NOT_FOUND for another user's, worded as for one that does not
// exist; the service's for one it cannot read.
func (s *Server) checkSession(r *http.Request, u *room.User, id string) error {
	if !s.multiUser() {
		return nil
	}
	sess, err := s.svc.Session(r.Context(), id)
	if err != nil {
		return err
	}
	if !s.owns(u, sess.OwnerID) {
		return quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
	}
	return nil
}

// checkAnalysis returns nil when u may use analysis id. Errors:
// NOT_FOUND for another user's, worded as for one that does not exist;
// the service's for one it cannot read.
func (s *Server) checkAnalysis(r *http.Request, u *room.User, id string) error {
	if !s.multiUser() {
		return nil
	}
	res, err := s.opt.Analyses.Get(r.Context(), id)
	if err != nil {
		return err
	}
	owner := ""
	if res.Request != nil {
		owner = res.Request.OwnerID
	}
	if !s.owns(u, owner) {
		return quarry.Errorf(quarry.ECodeNotFound, "no analysis %s", id)
	}
	return nil
}

// creator is the owner to record for what the request makes: its user's
// id, or "" for the local owner of a server without an Authenticator.
// Errors: UNAUTHORIZED from the Authenticator.
func (s *Server) creator(r *http.Request) (string, error) {
	u, err := s.user(r)
	if err != nil {
		return "", err
	}
	if u == nil {
		return "", nil
	}
	return u.ID, nil
}

// sessions lists the investigations the request's user may see, newest
// first.
func (s *Server) sessions(r *http.Request) ([]*investigation.Investigation, error) {
	u, err := s.user(r)
	if err != nil {
		return nil, err
	}
	all, err := s.svc.Sessions(r.Context())
	if err != nil {
		return nil, err
	}
	mine := make([]*investigation.Investigation, 0, len(all))
	for _, sess := range all {
		if s.owns(u, sess.OwnerID) {
			mine = append(mine, sess)
		}
	}
	return mine, nil
}

// analyses lists the analyses the request's user may see, newest first.
func (s *Server) analyses(r *http.Request) ([]analysis.Summary, error) {
	u, err := s.user(r)
	if err != nil {
		return nil, err
	}
	all, err := s.opt.Analyses.List(r.Context())
	if err != nil {
		return nil, err
	}
	mine := make([]analysis.Summary, 0, len(all))
	for _, a := range all {
		if s.owns(u, a.OwnerID) {
			mine = append(mine, a)
		}
	}
	return mine, nil
}

package web

import (
	"net/http"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// signOutPage ends the request's sign-in (PasswordAuth.signOut) and goes
// to the sign-in page.
func (s *Server) signOutPage(w http.ResponseWriter, r *http.Request, a *PasswordAuth) error {
	c, err := a.signOut(r)
	if err != nil {
		return err
	}
	http.SetCookie(w, c)
	seeOther(w, r, "/login")
	return nil
}

// loginPage is the sign-in form, or who is signed in with a way out.
type loginPage struct {
	pageBase
	Name string
	// Next is where to go after signing in: a path on this server.
	Next    string
	User    *room.User
	Expires time.Time
	// Deleted names the account just deleted, for the page to say so.
	Deleted string
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, a *PasswordAuth) error {
	p := loginPage{pageBase: pageBase{Title: "Sign in"}, Next: localPath(r.URL.Query().Get("next")), Deleted: r.URL.Query().Get("deleted")}
	if c, err := r.Cookie(SessionCookie); err == nil {
		if sess, err := a.parse(c.Value); err == nil {
			// A cookie signed out elsewhere, or made under an old
			// password, shows the form.
			if u, err := a.User(withoutBearer(r)); err == nil {
				p.Title, p.User, p.Expires = "Signed in", u, sess.expires
			}
		}
	}
	s.render(w, r, http.StatusOK, "login", p)
	return nil
}

// withoutBearer is r as a browser sends it, judged by its cookie alone.
func withoutBearer(r *http.Request) *http.Request {
	if r.Header.Get("Authorization") == "" {
		return r
	}
	c := r.Clone(r.Context())
	c.Header.Del("Authorization")
	return c
}

// signIn checks the form's name and password: a session cookie and a
// redirect to where the person was going, or the form again with the
// error (401, or 429 after too many failures).
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, a *PasswordAuth) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	name, next := r.PostForm.Get("name"), localPath(r.PostForm.Get("next"))
	c, _, err := a.signIn(r, name, r.PostForm.Get("password"))
	if err == nil {
		http.SetCookie(w, c)
		seeOther(w, r, next)
		return nil
	}
	qe := s.asQuarryError(r, err)
	if qe.Code != quarry.ECodeUnauthorized && qe.Code != quarry.ECodeRateLimited {
		return err
	}
	setRetryAfter(w, err)
	p := loginPage{pageBase: pageBase{Title: "Sign in", Errors: []summaryItem{{Message: qe.Message, Hint: qe.Hint}}}, Name: name, Next: next}
	s.render(w, r, pageStatus(qe), "login", p)
	return nil
}

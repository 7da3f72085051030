package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// deleteRoom deletes the room (owners only) with its documents, their
// files and its questions: 200 {success: true}.
func (s *Server) deleteRoom(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := s.opt.Rooms.DeleteRoom(r.Context(), u.ID, rm.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// removeMember takes the user named in the path out of the room: an
// owner removes anyone, a member themselves; 200 {success: true}.
func (s *Server) removeMember(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := s.opt.Rooms.RemoveMember(r.Context(), u.ID, rm.ID, r.PathValue("user")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// deleteAccount deletes the signed-in user with their memberships,
// tokens, questions and feedback (the right to erasure): 200 {success:
// true}. The local owner of single-user mode is FORBIDDEN.
func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request, u *room.User) error {
	if err := s.opt.Rooms.DeleteUser(r.Context(), u.ID, u.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// confirmed checks a destructive form's confirm field, which must hold
// name as typed (spaces around it aside). Errors: INVALID, saying what
// to type.
func confirmed(r *http.Request, what, name string) *quarry.Error {
	if strings.TrimSpace(r.PostFormValue("confirm")) == name {
		return nil
	}
	return quarry.Errorf(quarry.ECodeInvalid, "type %s, %s, to confirm", what, name)
}

// deleteRoomPage deletes the room once its name is typed in the form's
// confirm field, and goes to the list of rooms; a wrong name is shown at
// the field.
func (s *Server) deleteRoomPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	if qe := confirmed(r, "the room's name", rm.Name); qe != nil {
		return s.renderRoom(w, r, u, rm, pageStatus(qe), roomState{deleteErr: qe})
	}
	if err := s.opt.Rooms.DeleteRoom(r.Context(), u.ID, rm.ID); err != nil {
		return err
	}
	seeOther(w, r, "/rooms")
	return nil
}

// removeMemberPage takes a member out of the room and comes back to the
// members; one who left goes to the list of rooms. A refusal (the last
// owner) is shown by the members.
func (s *Server) removeMemberPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	name := r.PathValue("user")
	if err := s.opt.Rooms.RemoveMember(r.Context(), u.ID, rm.ID, name); err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeConflict {
			return qe
		}
		return s.renderRoom(w, r, u, rm, pageStatus(qe), roomState{removeErr: qe})
	}
	if strings.EqualFold(name, u.Name) {
		seeOther(w, r, "/rooms")
		return nil
	}
	seeOther(w, r, roomURL(rm.ID)+"#members-heading")
	return nil
}

// deleteAccountPage deletes the signed-in user once their name is typed
// in the confirm field, ends their sign-in and goes to the sign-in page.
func (s *Server) deleteAccountPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	if qe := confirmed(r, "your user name", u.Name); qe != nil {
		return s.renderRooms(w, r, u, pageStatus(qe), roomsListPage{AccountErr: newFieldError("account-confirm-error", qe),
			pageBase: pageBase{Errors: []summaryItem{{Field: "account-confirm", Label: "Delete your account", Message: qe.Message}}}})
	}
	if err := s.opt.Rooms.DeleteUser(r.Context(), u.ID, u.ID); err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeConflict && qe.Code != quarry.ECodeForbidden {
			return qe
		}
		return s.renderRooms(w, r, u, pageStatus(qe), roomsListPage{AccountErr: newFieldError("account-confirm-error", qe),
			pageBase: pageBase{Errors: []summaryItem{{Field: "account-confirm", Label: "Delete your account", Message: qe.Message}}}})
	}
	if pw, ok := s.opt.Auth.(*PasswordAuth); ok {
		// The user and their sessions are gone; the cookie goes too.
		http.SetCookie(w, pw.cookie(r, "", -1))
	}
	seeOther(w, r, "/login?"+url.Values{"deleted": {u.Name}}.Encode())
	return nil
}

package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// roomURL is the page of a room.
func roomURL(id string) string { return "/rooms/" + url.PathEscape(id) }

// roomsListPage lists the user's rooms with a form to create one.
type roomsListPage struct {
	pageBase
	User        *room.User
	Rooms       []room.Room
	Name        string
	Description string
	NameErr     *fieldError
	// AccountErr is why the user's account was not deleted.
	AccountErr *fieldError
}

func (s *Server) roomsPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	return s.renderRooms(w, r, u, http.StatusOK, roomsListPage{})
}

func (s *Server) renderRooms(w http.ResponseWriter, r *http.Request, u *room.User, status int, p roomsListPage) error {
	rs, err := s.opt.Rooms.Rooms(r.Context(), u.ID)
	if err != nil {
		return err
	}
	p.Title, p.User, p.Rooms = "Data rooms", u, rs
	s.render(w, r, status, "rooms", p)
	return nil
}

func (s *Server) createRoomPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	name, desc := r.PostFormValue("name"), r.PostFormValue("description")
	rm, err := s.opt.Rooms.CreateRoom(r.Context(), u.ID, name, desc)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeInvalid && qe.Code != quarry.ECodeConflict {
			return qe
		}
		return s.renderRooms(w, r, u, pageStatus(qe), roomsListPage{Name: name, Description: desc,
			NameErr:  newFieldError("room-name-error", qe),
			pageBase: pageBase{Errors: []summaryItem{{Field: "room-name", Label: "Name", Message: qe.Message}}}})
	}
	seeOther(w, r, roomURL(rm.ID))
	return nil
}

// roomView is a room's page: its documents, members, the ask box and the
// latest answers.
type roomView struct {
	pageBase
	Room      *room.Room
	URL       string
	EventsURL string
	CanEdit   bool // editors and owners upload and delete
	CanManage bool // owners add and remove members, and delete the room
	// AccessURL is the room's access log as CSV, for its owners.
	AccessURL string
	// Me is the user's name: a member may leave, and the member list
	// says which one is them.
	Me        string
	Docs      []docRow
	Members   []room.Member
	Answers   []answerView
	Question  string
	AskErr    *fieldError
	UploadErr *fieldError
	MemberErr *fieldError
	RemoveErr *fieldError
	DeleteErr *fieldError
	MaxBytes  int64
}

// RemoveURL is where the form that takes the member called name out of
// the room posts.
func (v roomView) RemoveURL(name string) string {
	return v.URL + "/members/" + url.PathEscape(name) + "/remove"
}

// docRow is one document in a room's table.
type docRow struct {
	room.Document
	RoomURL  string
	Progress *room.Progress
	CanEdit  bool // the user may delete it
}

func (d docRow) URL() string     { return d.RoomURL + "/documents/" + url.PathEscape(d.ID) }
func (d docRow) FileURL() string { return documentAPI(d.RoomID, d.ID) + "/file" }
func (d docRow) Busy() bool {
	return d.Status == room.StatusPending || d.Status == room.StatusProcessing
}

// roomState is what a failed form post typed and its error.
type roomState struct {
	question                     string
	askErr, uploadErr, memberErr *quarry.Error
	removeErr, deleteErr         *quarry.Error
}

func (s *Server) roomPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	return s.renderRoom(w, r, u, rm, http.StatusOK, roomState{})
}

// recentAnswers is how many of the user's answers the room page shows.
const recentAnswers = 5

func (s *Server) renderRoom(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room, status int, st roomState) error {
	ctx := r.Context()
	v := roomView{Room: rm, URL: roomURL(rm.ID), EventsURL: roomAPI(rm.ID) + "/events", AccessURL: roomAPI(rm.ID) + "/access?format=csv", MaxBytes: s.opt.MaxUploadBytes,
		CanEdit: room.RoleAtLeast(rm.Role, room.RoleEditor), CanManage: room.RoleAtLeast(rm.Role, room.RoleOwner),
		Question: st.question, AskErr: newFieldError("ask-error", st.askErr),
		UploadErr: newFieldError("upload-error", st.uploadErr), MemberErr: newFieldError("member-error", st.memberErr),
		RemoveErr: newFieldError("remove-error", st.removeErr), DeleteErr: newFieldError("delete-room-error", st.deleteErr), Me: u.Name}
	v.Title = rm.Name
	var err error
	if v.Docs, err = s.docRows(r, u, rm); err != nil {
		return err
	}
	for _, d := range v.Docs {
		v.Refresh = v.Refresh || d.Busy()
	}
	if v.Members, err = s.opt.Rooms.Members(ctx, u.ID, rm.ID); err != nil {
		return err
	}
	qs, err := s.opt.Rooms.History(ctx, u.ID, rm.ID, time.Time{}, recentAnswers)
	if err != nil {
		return err
	}
	for _, q := range qs {
		v.Answers = append(v.Answers, newAnswerView(rm, q))
	}
	for _, e := range []struct {
		err          *quarry.Error
		field, label string
	}{{st.askErr, "question", "Question"}, {st.uploadErr, "document-file", "Document"}, {st.memberErr, "member-name", "Member"},
		{st.removeErr, "members-heading", "Members"}, {st.deleteErr, "delete-room-confirm", "Delete this room"}} {
		if e.err != nil {
			v.Errors = append(v.Errors, summaryItem{Field: e.field, Label: e.label, Message: e.err.Message})
		}
	}
	v.Scripts = []string{"rooms.js"}
	s.render(w, r, status, "room", v)
	return nil
}

func (s *Server) docRows(r *http.Request, u *room.User, rm *room.Room) ([]docRow, error) {
	docs, err := s.opt.Rooms.Documents(r.Context(), u.ID, rm.ID)
	if err != nil {
		return nil, err
	}
	out := make([]docRow, 0, len(docs))
	for _, d := range docs {
		row, err := s.docRow(r, u, rm, d)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

func (s *Server) docRow(r *http.Request, u *room.User, rm *room.Room, d room.Document) (docRow, error) {
	row := docRow{Document: d, RoomURL: roomURL(rm.ID), CanEdit: room.RoleAtLeast(rm.Role, room.RoleEditor)}
	if row.Busy() {
		p, err := s.opt.Rooms.Latest(r.Context(), u.ID, d.ID)
		if err != nil {
			return row, err
		}
		row.Progress = p
	}
	return row, nil
}

// documentRowPage answers htmx with a document's row, which rooms.js
// swaps in when processing ends; a browser goes to the room.
func (s *Server) documentRowPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	return s.documentAnswer(w, r, u, rm, d)
}

// documentAnswer ends a request about a document: a browser goes to its
// row on the room's page; htmx gets the row as it is now, then after.
func (s *Server) documentAnswer(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room, d *room.Document, after ...fragment) error {
	if !isHTMX(r) {
		seeOther(w, r, roomURL(rm.ID)+"#doc-"+d.ID)
		return nil
	}
	row, err := s.docRow(r, u, rm, *d)
	if err != nil {
		return err
	}
	s.renderFragment(w, r, http.StatusOK, append([]fragment{{"room_doc_row", row}}, after...)...)
	return nil
}

// uploadDocumentPage receives a document from the upload form: with htmx
// the new row and a status line, or the error at the field; without, back
// to the room (or the room with the error).
func (s *Server) uploadDocumentPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.receiveDocument(w, r, u, rm)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code == quarry.ECodeNotFound {
			return qe
		}
		if isHTMX(r) {
			return s.fieldFragment(w, r, "#upload-error-slot", newFieldError("upload-error", qe), qe)
		}
		return s.renderRoom(w, r, u, rm, pageStatus(qe), roomState{uploadErr: qe})
	}
	return s.documentAnswer(w, r, u, rm, d,
		fragment{"room_error_slot", errorSlot{ID: "upload-error-slot", OOB: true}},
		fragment{"room_status", roomStatus{ID: "upload-status", Text: d.Name + " uploaded; processing starts."}})
}

// errorSlot is where a form's field error goes, cleared out of band
// after a success.
type errorSlot struct {
	ID  string
	OOB bool
	Err *fieldError
}

// roomStatus is a polite live region's new text.
type roomStatus struct{ ID, Text string }

// fieldFragment answers an htmx form post with its field error in the
// slot sel, at the error's status.
func (s *Server) fieldFragment(w http.ResponseWriter, r *http.Request, sel string, fe *fieldError, qe *quarry.Error) error {
	w.Header().Set("HX-Retarget", sel)
	w.Header().Set("HX-Reswap", "outerHTML")
	s.renderFragment(w, r, pageStatus(qe), fragment{"room_error_slot", errorSlot{ID: strings.TrimPrefix(sel, "#"), Err: fe}})
	return nil
}

func (s *Server) deleteDocumentPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	if err := s.opt.Rooms.DeleteDocument(r.Context(), u.ID, d.ID); err != nil {
		return err
	}
	seeOther(w, r, roomURL(rm.ID)+"#documents-heading")
	return nil
}

func (s *Server) addMemberPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	if _, err := s.opt.Rooms.AddMember(r.Context(), u.ID, rm.ID, r.PostFormValue("user_name"), r.PostFormValue("role")); err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeInvalid {
			return qe
		}
		return s.renderRoom(w, r, u, rm, pageStatus(qe), roomState{memberErr: qe})
	}
	seeOther(w, r, roomURL(rm.ID)+"#members-heading")
	return nil
}

// askPage asks the room: with htmx the answer card goes on top of the
// answers; without, to the answer's page. A question out of bounds or
// over the hourly limit is shown at the field (429 with Retry-After).
func (s *Server) askPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	question := r.PostFormValue("question")
	q, err := s.ask(w, r, u, rm, question)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeInvalid && qe.Code != quarry.ECodeRateLimited {
			return qe
		}
		if isHTMX(r) {
			return s.fieldFragment(w, r, "#ask-error-slot", newFieldError("ask-error", qe), qe)
		}
		return s.renderRoom(w, r, u, rm, pageStatus(qe), roomState{question: question, askErr: qe})
	}
	if !isHTMX(r) {
		seeOther(w, r, roomURL(rm.ID)+"/queries/"+url.PathEscape(q.ID))
		return nil
	}
	s.renderFragment(w, r, http.StatusOK,
		fragment{"room_answer", newAnswerView(rm, *q)},
		fragment{"room_error_slot", errorSlot{ID: "ask-error-slot", OOB: true}})
	return nil
}

// answerView is an answer with its numbered citations linked to the pages
// they cite.
type answerView struct {
	room.Query
	RoomURL   string
	Parts     []answerPart
	Citations []citationView
	// Saved is set right after feedback was given.
	Saved       bool
	FeedbackErr *fieldError
}

// answerPart is a stretch of an answer's text, or a reference to one of
// its citations.
type answerPart struct {
	Text string
	Cite *citationView
}

type citationView struct {
	room.Citation
	URL string
}

func (a answerView) URL() string { return a.RoomURL + "/queries/" + url.PathEscape(a.ID) }

// sourceRef is how an offline answer names its sources: "(name, page N)".
var sourceRef = regexp.MustCompile(`\(([^()\n]+), page (\d+)\)`)

func newAnswerView(rm *room.Room, q room.Query) answerView {
	v := answerView{Query: q, RoomURL: roomURL(rm.ID)}
	for _, c := range q.Citations {
		v.Citations = append(v.Citations, citationView{Citation: c, URL: citationURL(rm.ID, c, q.ID)})
	}
	// Each "(document, page N)" the text names is followed by the number
	// of the citation of that page.
	last := 0
	for _, m := range sourceRef.FindAllStringSubmatchIndex(q.Answer, -1) {
		name, page := q.Answer[m[2]:m[3]], q.Answer[m[4]:m[5]]
		for i, c := range v.Citations {
			if c.DocumentName == name && strconv.Itoa(c.PageNumber) == page {
				v.Parts = append(v.Parts, answerPart{Text: q.Answer[last:m[1]]}, answerPart{Cite: &v.Citations[i]})
				last = m[1]
				break
			}
		}
	}
	v.Parts = append(v.Parts, answerPart{Text: q.Answer[last:]})
	return v
}

// citationURL is the page view of a citation, its passage highlighted.
func citationURL(roomID string, c room.Citation, queryID string) string {
	v := url.Values{"chunk": {c.ChunkID}, "query": {queryID}}
	return roomURL(roomID) + "/documents/" + url.PathEscape(c.DocumentID) + "/pages/" + strconv.Itoa(c.PageNumber) + "?" + v.Encode() + "#passage"
}

// answerPageView is one answer on its own page.
type answerPageView struct {
	pageBase
	Room   *room.Room
	Answer answerView
}

func (s *Server) answerPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	q, err := s.queryOf(r, u, rm)
	if err != nil {
		return err
	}
	v := answerPageView{Room: rm, Answer: newAnswerView(rm, *q)}
	v.Answer.Saved = r.URL.Query().Get("saved") == "1"
	v.Title = "Answer · " + rm.Name
	s.render(w, r, http.StatusOK, "room_answer", v)
	return nil
}

// feedbackPage rates an answer; htmx gets the answer's feedback form
// back, saying it was saved or what is wrong.
func (s *Server) feedbackPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	q, err := s.queryOf(r, u, rm)
	if err != nil {
		return err
	}
	f, err := s.opt.Rooms.Feedback(r.Context(), u.ID, q.ID, r.PostFormValue("rating"), r.PostFormValue("comment"))
	v := newAnswerView(rm, *q)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if qe.Code != quarry.ECodeInvalid {
			return qe
		}
		if !isHTMX(r) {
			return qe
		}
		v.FeedbackErr = newFieldError("feedback-error-"+q.ID, qe)
		s.renderFragment(w, r, pageStatus(qe), fragment{"room_feedback", v})
		return nil
	}
	if !isHTMX(r) {
		seeOther(w, r, v.URL()+"?saved=1#feedback-"+q.ID)
		return nil
	}
	v.Feedback, v.Saved = f, true
	s.renderFragment(w, r, http.StatusOK, fragment{"room_feedback", v})
	return nil
}

// historyView is a page of the user's questions in a room.
type historyView struct {
	pageBase
	Room    *room.Room
	URL     string
	Answers []answerView
	Older   string // the next page's address, "" at the end
	Newest  bool   // the first page
	Deleted int    // questions just deleted, -1 for none
}

func (s *Server) historyPagePage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	qs, next, err := s.historyPage(r, u, rm)
	if err != nil {
		return err
	}
	v := historyView{Room: rm, URL: roomURL(rm.ID), Newest: r.URL.Query().Get("before") == "", Deleted: -1}
	v.Title = "History · " + rm.Name
	if n, err := strconv.Atoi(r.URL.Query().Get("deleted")); err == nil {
		v.Deleted = n
	}
	for _, q := range qs {
		v.Answers = append(v.Answers, newAnswerView(rm, q))
	}
	if next != "" {
		v.Older = v.URL + "/history?" + url.Values{"before": {next}}.Encode()
	}
	s.render(w, r, http.StatusOK, "room_history", v)
	return nil
}

func (s *Server) deleteHistoryPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	n, err := s.opt.Rooms.DeleteHistory(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	seeOther(w, r, roomURL(rm.ID)+"/history?deleted="+strconv.Itoa(n))
	return nil
}

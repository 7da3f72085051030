package web

import (
	"net/http"
	"net/url"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
)

// researchURL is the page of a research.
func researchURL(id string) string { return "/research/" + url.PathEscape(id) }

// researchListView is the form that starts a research and the user's
// researches.
type researchListView struct {
	pageBase
	Rooms      []room.Room
	Depths     []depthOption
	Researches []researchRow
	// Question and Room are what the form holds: as typed after an
	// error, the room from ?room= on arrival.
	Question, Room                 string
	QuestionErr, DepthErr, RoomErr *fieldError
	MinChars, MaxChars             int
	// WebSource names the web with its provider ("the web (SearxNG at
	// ...)") when the service can search it, "" otherwise: the form
	// then offers the web, alone or with the room. Web is its box
	// checked; WebErr a post asking for the web where there is none.
	WebSource string
	Web       bool
	WebErr    *fieldError
}

// depthOption is one choice of depth with the number of sub-questions
// it plans.
type depthOption struct {
	Value, Label string
	Lo, Hi       int
	Checked      bool
}

// researchRow is one of the user's researches in the list.
type researchRow struct {
	research.Request
	URL   string
	Label string
}

// researchState is what a failed post typed and its errors.
type researchState struct {
	question, depth, room                  string
	web                                    bool
	questionErr, depthErr, roomErr, webErr *quarry.Error
}

// webResearch is the research service as one that searches the web, nil
// when it cannot or has no provider.
func (s *Server) webResearch() research.WebService {
	if ws, ok := s.opt.Research.(research.WebService); ok && ws.WebSource() != "" {
		return ws
	}
	return nil
}

func (s *Server) researchListPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	return s.renderResearchList(w, r, u, http.StatusOK, researchState{room: r.URL.Query().Get("room")})
}

func (s *Server) renderResearchList(w http.ResponseWriter, r *http.Request, u *room.User, status int, st researchState) error {
	ctx := r.Context()
	v := researchListView{Question: st.question, Room: st.room, MinChars: research.MinQueryChars, MaxChars: research.MaxQueryChars,
		QuestionErr: newFieldError("research-question-error", st.questionErr), DepthErr: newFieldError("research-depth-error", st.depthErr),
		RoomErr: newFieldError("research-room-error", st.roomErr), Web: st.web, WebErr: newFieldError("research-web-error", st.webErr)}
	v.Title = "Research"
	if ws := s.webResearch(); ws != nil {
		v.WebSource = ws.WebSource()
	}
	if s.opt.Rooms != nil {
		rs, err := s.opt.Rooms.Rooms(ctx, u.ID)
		if err != nil {
			return err
		}
		v.Rooms = rs
	}
	depth, err := research.ParseDepth(st.depth)
	if err != nil {
		depth = research.DepthStandard
	}
	for _, d := range []research.Depth{research.DepthQuick, research.DepthStandard, research.DepthComprehensive} {
		lo, hi := d.SubQuestions()
		v.Depths = append(v.Depths, depthOption{Value: string(d), Label: depthLabel(d), Lo: lo, Hi: hi, Checked: d == depth})
	}
	reqs, err := s.opt.Research.List(ctx, u.ID)
	if err != nil {
		return err
	}
	for _, q := range reqs {
		v.Researches = append(v.Researches, researchRow{Request: q, URL: researchURL(q.ID), Label: researchStatusLabel(q.Status)})
	}
	for _, e := range []struct {
		err          *quarry.Error
		field, label string
	}{{st.questionErr, "research-question", "Question"}, {st.depthErr, "depth-quick", "Depth"}, {st.roomErr, "research-room", "Data room"},
		{st.webErr, "research-web", "Web"}} {
		if e.err != nil {
			v.Errors = append(v.Errors, summaryItem{Field: e.field, Label: e.label, Message: e.err.Message})
		}
	}
	s.render(w, r, status, "research", v)
	return nil
}

// startResearchPage starts a research from the form and goes to its
// page: over the room, and the web too when its box is checked (then the
// room may be left out, as the API allows). A question out of bounds, an
// unknown depth, a room the user cannot research or the web asked of a
// server without a provider is shown at its field with what was typed.
func (s *Server) startResearchPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	if err := parseForm(w, r); err != nil {
		return err
	}
	st := researchState{question: r.PostFormValue("question"), depth: r.PostFormValue("depth"), room: r.PostFormValue("room"),
		web: r.PostFormValue("web") != ""}
	if _, err := research.ParseDepth(st.depth); err != nil {
		st.depthErr = s.asQuarryError(r, err)
		return s.renderResearchList(w, r, u, pageStatus(st.depthErr), st)
	}
	ws := s.webResearch()
	if st.web && ws == nil {
		st.webErr = quarry.Errorf(quarry.ECodeInvalid, "this server has no web search provider, so it cannot research the web").
			WithHint("research a data room, or ask the server's administrator to configure a provider")
		return s.renderResearchList(w, r, u, pageStatus(st.webErr), st)
	}
	if st.room == "" && !st.web {
		st.roomErr = quarry.Errorf(quarry.ECodeInvalid, "choose the data room to research").
			WithHint("the research reads the documents of one room you are a member of")
		if ws != nil {
			st.roomErr = quarry.Errorf(quarry.ECodeInvalid, "choose the data room to research, or search the web, or both").
				WithHint("the research reads the documents of one room you are a member of, the web's pages, or both")
		}
		return s.renderResearchList(w, r, u, pageStatus(st.roomErr), st)
	}
	start := s.opt.Research.Start
	if st.web {
		start = ws.StartWeb
	}
	req, err := start(r.Context(), u.ID, st.question, st.depth, st.room)
	if err != nil {
		qe := s.asQuarryError(r, err)
		switch qe.Code {
		case quarry.ECodeInvalid:
			st.questionErr = qe
		case quarry.ECodeNotFound, quarry.ECodeEmptyFile:
			st.roomErr = qe
		default:
			return qe
		}
		return s.renderResearchList(w, r, u, pageStatus(qe), st)
	}
	seeOther(w, r, researchURL(req.ID))
	return nil
}

// researchPage shows one of the user's researches: its stages, and once
// it has them its plan, report, discrepancies, ambiguities and facts.
// Another user's research is not found, like one that does not exist.
func (s *Server) researchPage(w http.ResponseWriter, r *http.Request, u *room.User) error {
	id := r.PathValue("id")
	res, err := s.opt.Research.Get(r.Context(), u.ID, id)
	if err != nil {
		return err
	}
	past, _, cancel, err := s.opt.Research.Subscribe(r.Context(), u.ID, id)
	if err != nil {
		return err
	}
	cancel()
	v := newResearchView(res, past, s.opt.Rooms != nil)
	v.EventsURL = "/api/research/" + url.PathEscape(id) + "/events"
	v.Refresh = v.Running
	v.Scripts = []string{"research.js"}
	s.render(w, r, http.StatusOK, "research_view", v)
	return nil
}

// depthLabel is a depth in words.
func depthLabel(d research.Depth) string {
	switch d {
	case research.DepthQuick:
		return "Quick"
	case research.DepthStandard:
		return "Standard"
	case research.DepthComprehensive:
		return "Comprehensive"
	}
	return string(d)
}

// researchStatusLabel is a research's status in words.
func researchStatusLabel(st research.Status) string {
	switch st {
	case research.StatusPlanning:
		return "Planning"
	case research.StatusExecuting:
		return "Reading sources"
	case research.StatusVerifying:
		return "Verifying"
	case research.StatusSynthesizing:
		return "Writing"
	case research.StatusCompleted:
		return "Completed"
	case research.StatusFailed:
		return "Failed"
	}
	return string(st)
}

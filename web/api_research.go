package web

import (
	"net/http"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
)

// startResearch takes {question, depth, room, web} and answers 202 with
// the research's id and status; it runs in the background. With web
// true it searches the web too, or alone without a room, when the
// service has a web search provider.
func (s *Server) startResearch(w http.ResponseWriter, r *http.Request, u *room.User) error {
	var req struct {
		Question string `json:"question"`
		Depth    string `json:"depth"`
		Room     string `json:"room"`
		Web      bool   `json:"web"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	start := s.opt.Research.Start
	if req.Web {
		ws, ok := s.opt.Research.(research.WebService)
		if !ok {
			return quarry.Errorf(quarry.ECodeInvalid, "this server cannot research the web")
		}
		start = ws.StartWeb
	}
	rq, err := start(r.Context(), u.ID, req.Question, req.Depth, req.Room)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/research/"+rq.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": rq.ID, "status": rq.Status, "query": rq.Query, "depth_level": rq.Depth,
		"events": "/api/research/" + rq.ID + "/events"})
	return nil
}

// getResearch answers the research as quarry research --json shows it:
// while it runs, its id, status and empty lists.
func (s *Server) getResearch(w http.ResponseWriter, r *http.Request, u *room.User) error {
	res, err := s.opt.Research.Get(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, research.NewView(res))
	return nil
}

// researchEvents streams a research's stages (planning, executing,
// verifying, synthesizing, completed or failed, each with a message),
// then "end" with the final status.
func (s *Server) researchEvents(w http.ResponseWriter, r *http.Request, u *room.User) error {
	id := r.PathValue("id")
	past, live, cancel, err := s.opt.Research.Subscribe(r.Context(), u.ID, id)
	if err != nil {
		return err
	}
	defer cancel()
	return stream(w, r, past, live, func() any {
		res, err := s.opt.Research.Get(r.Context(), u.ID, id)
		if err != nil {
			return nil
		}
		return map[string]any{"status": res.Request.Status, "error": res.Request.Error}
	})
}

package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/quarry-dev/quarry/agent/investigate"
)

// heartbeat keeps idle event streams open through proxies.
const heartbeat = 15 * time.Second

// events streams a session's progress as server-sent events: every event
// so far, then each new one as it happens, then an "end" event with the
// session's status. Each progress event carries an id, so a client that
// reconnects with Last-Event-ID gets only what it missed.
func (s *Server) events(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	past, live, cancel, err := s.svc.Subscribe(r.Context(), id)
	if err != nil {
		return err
	}
	defer cancel()
	flusher, ok := w.(http.Flusher)
	if !ok {
		return fmt.Errorf("streaming is not supported by this connection")
	}
	skip, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	seq := 0
	send := func(e investigate.Event) {
		seq++
		if seq <= skip {
			return
		}
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "id: %d\nevent: progress\ndata: %s\n\n", seq, data)
	}
	for _, e := range past {
		send(e)
	}
	flusher.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-live:
			if !ok {
				return s.endEvent(w, r, id, flusher)
			}
			send(e)
			flusher.Flush()
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		case <-r.Context().Done():
			return nil
		}
	}
}

// endEvent tells the client the stream is over and how the session ended.
func (s *Server) endEvent(w http.ResponseWriter, r *http.Request, id string, f http.Flusher) error {
	sess, err := s.svc.Session(r.Context(), id)
	if err != nil {
		return nil // deleted meanwhile; the stream just ends
	}
	data, _ := json.Marshal(map[string]any{"status": sess.Status, "outcome": sess.Outcome, "error": sess.Error})
	fmt.Fprintf(w, "event: end\ndata: %s\n\n", data)
	f.Flush()
	return nil
}

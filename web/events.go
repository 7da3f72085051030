package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
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
	return stream(w, r, past, live, func() any {
		sess, err := s.svc.Session(r.Context(), id)
		if err != nil {
			return nil // deleted meanwhile; the stream just ends
		}
		return map[string]any{"status": sess.Status, "outcome": sess.Outcome, "error": sess.Error}
	})
}

// stream writes a run's events as server-sent events: past, then live
// until the channel closes, then an "end" event with what end returns
// (none when it returns nil), with heartbeats meanwhile.
func stream[E any](w http.ResponseWriter, r *http.Request, past []E, live <-chan E, end func() any) error {
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
	send := func(e E) {
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
				if v := end(); v != nil {
					data, _ := json.Marshal(v)
					fmt.Fprintf(w, "event: end\ndata: %s\n\n", data)
					flusher.Flush()
				}
				return nil
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

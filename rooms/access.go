package rooms

import (
	"context"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// readableLog is an audit log that can be read back (the audit
// package's logs are).
type readableLog interface {
	Entries() ([]quarry.AuditEntry, error)
}

// View returns a page of a document for userID to read, and records that
// they viewed it; Page returns it without a record, for what draws or
// searches the page.
func (s *Service) View(ctx context.Context, userID, documentID string, number int) (*room.Page, error) {
	d, err := s.document(ctx, userID, documentID, room.RoleViewer)
	if err != nil {
		return nil, err
	}
	p, err := s.Store.Page(act(ctx, userID), documentID, number)
	if err != nil {
		return nil, err
	}
	return p, s.record(d.RoomID, quarry.EventPolicyDecision, userID, map[string]any{"action": "view", "decision": "allowed",
		"room_id": d.RoomID, "document_id": d.ID, "page": number, "name": d.Name})
}

// Download returns where a document's bytes are for userID to download,
// and records that they did.
func (s *Service) Download(ctx context.Context, userID, documentID string) (string, *room.Document, error) {
	path, d, err := s.FilePath(ctx, userID, documentID)
	if err != nil {
		return "", nil, err
	}
	err = s.record(d.RoomID, quarry.EventPolicyDecision, userID, map[string]any{"action": "download", "decision": "allowed",
		"room_id": d.RoomID, "document_id": d.ID, "name": d.Name})
	if err != nil {
		return "", nil, err
	}
	return path, d, nil
}

// AccessLog returns what users did in a room, oldest first, from the
// audit log: questions asked, pages viewed, documents downloaded,
// uploaded and deleted, members added and removed, each allowed or
// refused. Only the room's owners may read it. It reads the whole log.
// Errors: NOT_FOUND for a room userID is not in, FORBIDDEN for a member
// who is no owner, UNAVAILABLE when the service keeps no audit log it can
// read.
func (s *Service) AccessLog(ctx context.Context, userID, roomID string) ([]room.Access, error) {
	if _, err := s.access(ctx, userID, roomID, room.RoleOwner); err != nil {
		return nil, err
	}
	log, ok := s.Audit.(readableLog)
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "this server keeps no audit log to read accesses from").
			WithHint("run Quarry with its audit log (the default) to record who did what in a room")
	}
	entries, err := log.Entries()
	if err != nil {
		return nil, err
	}
	out := []room.Access{}
	for _, e := range entries {
		if a, ok := accessOf(e, roomID); ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// accessOf reads an audit entry as an access to roomID: an entry of
// that room by a user, not the processing the application does itself.
func accessOf(e quarry.AuditEntry, roomID string) (room.Access, bool) {
	str := func(k string) string { s, _ := e.EventData[k].(string); return s }
	if str("room_id") != roomID || e.Actor == auditWorker || e.Actor == "" {
		return room.Access{}, false
	}
	a := room.Access{UserID: e.Actor, Action: str("action"), Decision: str("decision"), DocumentID: str("document_id"), Detail: str("name")}
	switch {
	case e.EventType == quarry.EventRequestSubmitted && str("job") == "room_question":
		a.Action, a.Detail = "ask", str("question")
	case e.EventType != quarry.EventPolicyDecision || a.Action == "":
		return room.Access{}, false
	}
	if r := str("reason"); r != "" && a.Decision == "refused" {
		a.Detail = r
	}
	if p, ok := e.EventData["page"].(float64); ok {
		a.Page = int(p)
	}
	if at, err := time.Parse(quarry.AuditTimeFormat, e.Timestamp); err == nil {
		a.At = at
	}
	return a, true
}

// AccessLine is one access as a line of text: time, user, action,
// document and detail.
func AccessLine(a room.Access, user string) string {
	what := a.Action
	if a.Decision != "" && a.Decision != "allowed" {
		what += " (" + a.Decision + ")" // "refused", an answer's type
	}
	line := fmt.Sprintf("%s\t%s\t%s", a.At.UTC().Format(time.RFC3339), user, what)
	if a.DocumentID != "" {
		line += "\t" + a.DocumentID
		if a.Page > 0 {
			line += fmt.Sprintf(" p.%d", a.Page)
		}
	}
	if a.Detail != "" {
		line += "\t" + a.Detail
	}
	return line
}

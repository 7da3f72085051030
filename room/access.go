package room

import "time"

// Access is one thing a user did in a data room, as its audit log
// records it: asked a question, viewed a page, downloaded or uploaded a
// document, deleted one, changed the members. Owners read a room's
// accesses (rooms.Service.AccessLog).
type Access struct {
	At     time.Time `json:"at"`
	UserID string    `json:"user_id"`
	// Action is "ask", "view", "download", "upload", "delete_document",
	// "delete_room", "add_member", "remove_member" and the like.
	Action string `json:"action"`
	// Decision is "allowed" or "refused" where the log says.
	Decision   string `json:"decision,omitempty"`
	DocumentID string `json:"document_id,omitempty"`
	Page       int    `json:"page,omitempty"`
	// Detail is the question (personal data masked), the file's name or
	// why it was refused.
	Detail string `json:"detail,omitempty"`
}

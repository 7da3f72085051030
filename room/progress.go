package room

import "time"

// Progress is a step of a document's processing.
type Progress struct {
	DocumentID string `json:"document_id"`
	RoomID     string `json:"data_room_id"`
	Status     string `json:"processing_status"`
	Message    string `json:"message"`
	Done       int    `json:"done,omitzero"`
	Of         int    `json:"of,omitzero"`
}

// MaxHistoryPage is the most queries one page of history holds.
const MaxHistoryPage = 100

// Export is a user's history in one room, with personal data masked.
type Export struct {
	Room       string    `json:"data_room"`
	User       string    `json:"user"`
	ExportedAt time.Time `json:"exported_at"`
	Queries    []Query   `json:"queries"`
}

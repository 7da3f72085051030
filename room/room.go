// Package room is the vocabulary of data rooms: people, rooms and their
// members, documents cut into pages and chunks, questions asked of a room
// with the answers, citations and feedback they got, and the contract of
// the store that keeps them (the specification's data-room-qa data model).
//
// Stores (sqlite, postgres) implement Store without checking who asks;
// the rooms package is the one place that checks membership before any
// read or write reaches a store.
package room

import "time"

// Roles of a member, strongest first.
const (
	RoleOwner  = "owner"
	RoleEditor = "editor"
	RoleViewer = "viewer"
)

// Roles lists the roles, strongest first.
var Roles = []string{RoleOwner, RoleEditor, RoleViewer}

// RoleAtLeast reports whether role grants what want needs: an owner can do
// what an editor can, an editor what a viewer can.
func RoleAtLeast(role, want string) bool {
	rank := func(r string) int {
		for i, x := range Roles {
			if x == r {
				return len(Roles) - i
			}
		}
		return 0
	}
	return rank(role) > 0 && rank(role) >= rank(want)
}

// User is a person, or a program acting for one through an API token.
type User struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"` // unique, used to log in
	Email     string    `json:"email,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// Token is an API token as it may be shown: never the token, nor all of
// its hash.
type Token struct {
	// ID is the first TokenIDLength characters of the token's hash,
	// enough to name it among a user's tokens.
	ID        string    `json:"id"`
	UserID    string    `json:"user_id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// TokenIDLength is how many characters of a token's hash name it.
const TokenIDLength = 12

// Room is a data room: documents and the people who may ask about them.
type Room struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"` // unique
	Description string    `json:"description,omitempty"`
	CreatedBy   string    `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	// Role is the asking user's role, filled in by listings.
	Role string `json:"role,omitempty"`
	// Documents counts the room's documents, filled in by listings.
	Documents int `json:"documents"`
}

// Member is a user's place in a room.
type Member struct {
	RoomID   string    `json:"data_room_id"`
	UserID   string    `json:"user_id"`
	UserName string    `json:"user_name,omitempty"`
	Role     string    `json:"role"`
	AddedAt  time.Time `json:"added_at"`
}

// Document processing states (documents.processing_status).
const (
	StatusPending    = "pending"
	StatusProcessing = "processing"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// Document is an uploaded file of a room.
type Document struct {
	ID        string `json:"id"`
	RoomID    string `json:"data_room_id"`
	Name      string `json:"name"`
	Format    string `json:"format"` // pdf, docx, html, markdown, text, csv
	SizeBytes int64  `json:"size_bytes"`
	SHA256    string `json:"sha256"`
	// Status is pending -> processing -> completed | failed; Error says
	// why a document failed, with its code.
	Status       string `json:"processing_status"`
	ErrorCode    string `json:"error_code,omitempty"`
	Error        string `json:"error,omitempty"`
	OCRAttempted bool   `json:"ocr_attempted"`
	PageCount    int    `json:"page_count"`
	ChunkCount   int    `json:"chunk_count"`
	// AvgChunkSize is the mean token count of the chunks.
	AvgChunkSize int `json:"avg_chunk_size"`
	// Meta is what the document says about itself on its first pages.
	Meta DocMeta `json:"metadata"`
	// Notes are what processing found worth saying (pages without text).
	Notes      []string  `json:"notes,omitempty"`
	UploadedBy string    `json:"uploaded_by"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// EmbeddingModel is the model the document's chunks must be embedded
	// with, "" for none: the uploading process's, or else the room's.
	// A process configured otherwise does not process it (see
	// rooms.Service.Process), so that no document of a room with
	// vectors is stored without them.
	EmbeddingModel string `json:"embedding_model,omitempty"`
	// Round counts the times the document's processing was handed back
	// (by a worker that stopped, or because its lease ran out): each
	// round is queued once.
	Round int `json:"-"`
}

// DocMeta is what a document says about itself: who issued it, for which
// period, and what kind of document it is. Questions that name them are
// matched against it.
type DocMeta struct {
	Title   string `json:"title,omitempty"`
	Company string `json:"company,omitempty"`
	// Tickers are the issuer's trading symbols, from a filing's cover.
	Tickers  []string `json:"tickers,omitempty"`
	FormType string   `json:"form_type,omitempty"` // 10-K, 10-Q, 8-K, earnings release, ...
	// Years are the fiscal or calendar years the document covers, most
	// specific first; Period is how the document puts it.
	Years  []int  `json:"years,omitempty"`
	Period string `json:"period,omitempty"`
	// Statements are the pages of the primary financial statements the
	// document holds, by kind ("balance_sheet", "income_statement",
	// "cash_flow_statement"), read from the pages' headings.
	Statements map[string][]int `json:"statements,omitempty"`
}

// Page is one page of a document's text (document_pages).
type Page struct {
	ID         string `json:"id"`
	DocumentID string `json:"document_id"`
	Number     int    `json:"page_number"` // 1-based
	Text       string `json:"text_content"`
	// OCRConfidence is set when the text came from OCR (0-1).
	OCRConfidence *float64 `json:"ocr_confidence,omitempty"`
}

// Chunk is a retrievable piece of a page (document_chunks).
type Chunk struct {
	ID         string `json:"id"`
	DocumentID string `json:"document_id"`
	PageID     string `json:"page_id"`
	PageNumber int    `json:"page_number"`
	Index      int    `json:"chunk_index"`
	// Text is the page's text from StartChar to EndChar (characters);
	// Context is text indexed with it but not part of the page there,
	// such as a table's header repeated for a continuation.
	Text       string `json:"text_content"`
	Context    string `json:"context,omitempty"`
	TokenCount int    `json:"token_count"`
	StartChar  int    `json:"start_char"`
	EndChar    int    `json:"end_char"`
	// Embedding is set when an embedder is configured, with the model
	// that made it.
	Embedding      []float32 `json:"-"`
	EmbeddingModel string    `json:"embedding_model,omitempty"`
}

// Limits of the specification.
const (
	MinChunkChars    = 50
	MaxChunkChars    = 3000
	MaxChunkTokens   = 1000
	MinQuestionChars = 5
	MaxQuestionChars = 2000
	MaxCommentChars  = 2000
	MaxPreviewChars  = 500
	PreviewChars     = 240
	// QueriesPerHour is the rate limit per user per room.
	QueriesPerHour = 60
	// QuotaRetention is how long rate-limit windows are kept.
	QuotaRetention = 2 * time.Hour
	// MaxCitations is the most citations an answer carries.
	MaxCitations = 5
	// MaxRetries is how many times a failing model is asked again for
	// one answer (FR-035; qa_queries.retry_count is at most 1).
	MaxRetries = 1
)

// Answer types (qa_queries.answer_type).
const (
	AnswerGrounded     = "grounded"
	AnswerInsufficient = "insufficient_evidence"
	AnswerError        = "error"
)

// Query is a question asked of a room and what came of it (qa_queries).
type Query struct {
	ID              string     `json:"query_id"`
	UserID          string     `json:"user_id"`
	RoomID          string     `json:"data_room_id"`
	Question        string     `json:"question"`
	Answer          string     `json:"answer"`
	AnswerType      string     `json:"answer_type"`
	ModelUsed       string     `json:"model_used,omitempty"`
	RetrievalMS     int        `json:"retrieval_time_ms"`
	LLMMS           int        `json:"llm_time_ms"`
	TotalMS         int        `json:"total_time_ms"`
	ChunksRetrieved int        `json:"chunks_retrieved"`
	TokensInput     int        `json:"tokens_input"`
	TokensOutput    int        `json:"tokens_output"`
	ErrorType       string     `json:"error_type,omitempty"`
	ErrorMessage    string     `json:"error_message,omitempty"`
	RetryCount      int        `json:"retry_count"`
	CreatedAt       time.Time  `json:"created_at"`
	CompletedAt     *time.Time `json:"completed_at,omitempty"`
	Citations       []Citation `json:"citations"`
	Feedback        *Feedback  `json:"feedback,omitempty"`
}

// Citation links an answer to the chunk it rests on (qa_citations).
type Citation struct {
	ID             string  `json:"id,omitempty"`
	ChunkID        string  `json:"chunk_id"`
	DocumentID     string  `json:"document_id"`
	DocumentName   string  `json:"document_name"`
	PageNumber     int     `json:"page_number"`
	RelevanceScore float64 `json:"relevance_score"`
	Rank           int     `json:"rank"`
	TextPreview    string  `json:"text_preview"`
	// Verified is false when a model's answer cites this chunk for a
	// number the chunk does not contain.
	Verified bool `json:"verified"`
}

// Feedback ratings.
const (
	RatingHelpful    = "helpful"
	RatingNotHelpful = "not_helpful"
)

// Feedback is a user's rating of an answer (qa_feedback), one per query.
type Feedback struct {
	QueryID   string    `json:"query_id"`
	UserID    string    `json:"user_id"`
	Rating    string    `json:"rating"`
	Comment   string    `json:"comment,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// LocalOwner is the name of the user of single-user mode, created on
// first start; records made without a user (the CLI, MCP) are theirs.
const LocalOwner = "owner"

// Owns reports whether u, signed in on a server with several users, may
// see an investigation or analysis owned by ownerID: a record is its
// owner's alone, and one without an owner (made before records had
// owners, or by the CLI or MCP over stdio, which act as the local owner)
// is LocalOwner's. The web server and the MCP tools both decide by it.
func Owns(u *User, ownerID string) bool {
	if ownerID == "" {
		return u.Name == LocalOwner
	}
	return ownerID == u.ID
}

package investigation

import (
	"time"
)

// MemoryDocument is everything an investigation learned, compiled once the
// run has finished so that chat can retrieve from it. Content is the whole
// document as Markdown (analysis/memory.md); Sections are the same text cut
// into retrievable pieces, each naming the artifact it came from
// (analysis/memory.json).
type MemoryDocument struct {
	DocumentID string          `json:"document_id"`
	SessionID  string          `json:"session_id"`
	Content    string          `json:"content"`
	Sections   []MemorySection `json:"sections"`
	CreatedAt  time.Time       `json:"created_at"`
}

// MemorySection is one retrievable piece of a memory document.
type MemorySection struct {
	// Ref is the artifact the text comes from, relative to the session
	// directory, with an optional #anchor: "analysis/iterations/iter_003.json",
	// "analysis/hypotheses/hyp_002.json", "results/explanations.json#1",
	// "report.md#explanations-ranked-by-likelihood".
	Ref   string `json:"ref"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// ChatRole is who wrote a chat message.
type ChatRole string

const (
	ChatUser      ChatRole = "user"
	ChatAssistant ChatRole = "assistant"
)

// ChatMessage is one message of the chat about a finished investigation,
// stored in chat/history.json.
type ChatMessage struct {
	MessageID           string    `json:"message_id"`
	SessionID           string    `json:"session_id"`
	Role                ChatRole  `json:"role"`
	Content             string    `json:"content"`
	Timestamp           time.Time `json:"timestamp"`
	ArtifactsReferenced []string  `json:"artifacts_referenced,omitempty"`
}

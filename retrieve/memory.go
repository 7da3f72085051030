package retrieve

import "github.com/quarry-dev/quarry/investigation"

// MemoryChunks turns an investigation's memory document into chunks scoped
// to its session: one chunk per section, keeping the section's Ref and
// Title, with sections longer than MaxChunkLen split at blank lines.
func MemoryChunks(doc investigation.MemoryDocument) []Chunk {
	var chunks []Chunk
	for _, s := range doc.Sections {
		chunks = append(chunks, splitText(doc.SessionID, s.Ref, s.Title, s.Text)...)
	}
	return chunks
}

package rooms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/internal/tokens"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// MaxUploadBytes is the largest document accepted.
const MaxUploadBytes = docparse.DefaultMaxBytes

// embedBatch is how many chunks go to the embedder at once.
const embedBatch = 64

// filePath is where a document's bytes are kept.
func (s *Service) filePath(d *room.Document) string {
	return filepath.Join(s.Dir, "rooms", d.RoomID, "documents", d.ID, filepath.Base(d.Name))
}

// FilePath returns where a document's bytes are, for userID.
func (s *Service) FilePath(ctx context.Context, userID, documentID string) (string, *room.Document, error) {
	ctx = act(ctx, userID)
	d, err := s.document(ctx, userID, documentID, room.RoleViewer)
	if err != nil {
		return "", nil, err
	}
	return s.filePath(d), d, nil
}

func (s *Service) removeFile(d *room.Document) error {
	err := os.RemoveAll(filepath.Dir(s.filePath(d)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Upload stores a document's bytes and records it as pending; Process (or
// the workers Start runs) turns it into pages and chunks. Editors and
// owners may upload. Errors: INVALID_FILE_TYPE for a type that is not
// accepted, EMPTY_FILE, FILE_TOO_LARGE; nothing is left behind on error.
func (s *Service) Upload(ctx context.Context, userID, roomID, name string, r io.Reader) (*room.Document, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleEditor); err != nil {
		return nil, err
	}
	name = filepath.Base(strings.TrimSpace(name))
	format, err := docparse.FormatOf(name)
	if err != nil {
		return nil, err
	}
	d := &room.Document{ID: quarry.NewID(), RoomID: roomID, Name: name, Format: format, Status: room.StatusPending,
		UploadedBy: userID, CreatedAt: s.now(), UpdatedAt: s.now()}
	path := s.filePath(d)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, quarry.StorageError(err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, quarry.StorageError(err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, MaxUploadBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	fail := func(err error) (*room.Document, error) {
		s.removeFile(d)
		return nil, err
	}
	switch {
	case err != nil:
		return fail(quarry.StorageError(err))
	case n == 0:
		return fail(quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", name))
	case n > MaxUploadBytes:
		return fail(quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than %d MB", name, MaxUploadBytes>>20))
	}
	d.SizeBytes, d.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	if err := s.Store.CreateDocument(ctx, d); err != nil {
		return fail(err)
	}
	s.enqueue(ctx, d.ID)
	return d, nil
}

func (s *Service) progress(p Progress) {
	s.events.publish(p)
	if s.Progress != nil {
		s.Progress(p)
	}
}

// Process turns a pending document into pages and chunks and marks it
// completed, or failed with the reason; a failure leaves no page or chunk
// of it behind. The error is returned as well as recorded.
func (s *Service) Process(ctx context.Context, documentID string) error {
	// Processing is the application's own work, whoever uploaded.
	ctx = act(ctx, room.System)
	d, err := s.Store.Document(ctx, documentID)
	if err != nil {
		return err
	}
	if err := s.Store.SetStatus(ctx, d.ID, room.StatusProcessing, "", ""); err != nil {
		return err
	}
	s.progress(Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "reading " + d.Name})
	err = s.process(ctx, d)
	if err != nil {
		code := quarry.ErrorCode(err)
		msg := err.Error()
		if qe := (*quarry.Error)(nil); errors.As(err, &qe) {
			// The hint says what to do about it ("upload it with the
			// right extension"), which a failed document's reader needs.
			msg = qe.Message
			if qe.Hint != "" {
				msg += " (" + qe.Hint + ")"
			}
		}
		// Record the failure even when ctx ended.
		if serr := s.Store.SetStatus(context.WithoutCancel(ctx), d.ID, room.StatusFailed, code, msg); serr != nil {
			s.log().Error("record a failed document", "document", d.ID, "err", serr)
		}
		s.progress(Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusFailed, Message: msg})
		return err
	}
	s.progress(Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusCompleted, Message: fmt.Sprintf("%s: %d pages, %d chunks", d.Name, d.PageCount, d.ChunkCount)})
	return nil
}

func (s *Service) process(ctx context.Context, d *room.Document) error {
	doc, err := docparse.Extract(ctx, s.filePath(d), d.Name, docparse.DefaultOptions())
	if err != nil {
		return err
	}
	d.Format, d.OCRAttempted, d.Notes = doc.Format, doc.OCRAttempted, doc.Notes
	pages := make([]room.Page, len(doc.Pages))
	texts := make([]string, len(doc.Pages))
	var chunks []room.Chunk
	tokensTotal := 0
	for i, p := range doc.Pages {
		pages[i] = room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: p.Number, Text: p.Text, OCRConfidence: p.OCRConfidence}
		texts[i] = p.Text
	}
	headings := retrieve.PageHeadings(texts)
	for i, p := range doc.Pages {
		for _, c := range retrieve.ChunkPage(p.Text, retrieve.ChunkOptions{Count: tokens.Count}) {
			context, n := withHeading(headings[i], c)
			chunks = append(chunks, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: pages[i].ID, PageNumber: p.Number,
				Index: len(chunks), Text: c.Text, Context: context, TokenCount: n, StartChar: c.Start, EndChar: c.End})
			tokensTotal += n
		}
		if (i+1)%50 == 0 {
			s.progress(Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "chunking", Done: i + 1, Of: len(doc.Pages)})
		}
	}
	if len(chunks) == 0 {
		return quarry.Errorf(quarry.ECodeEmptyFile, "%s has no passage of at least %d characters to search", d.Name, room.MinChunkChars)
	}
	d.PageCount, d.ChunkCount, d.AvgChunkSize = len(pages), len(chunks), tokensTotal/len(chunks)
	d.Meta = ask.Meta(d.Name, doc.Title, texts)
	d.Meta.Statements = ask.StatementPages(headings)
	if err := s.embed(ctx, d, chunks); err != nil {
		return err
	}
	return s.Store.Complete(ctx, d, pages, chunks)
}

// withHeading puts the page's heading before a chunk's own context, so
// that a passage deep in a note or a statement is found by the title it
// sits under; a chunk already at the token limit keeps its context alone.
// It returns the context and the chunk's token count with it.
func withHeading(heading string, c retrieve.PageChunk) (string, int) {
	if heading == "" {
		return c.Prefix, c.Tokens
	}
	context := heading + "\n" + c.Prefix
	n := tokens.Count(context + c.Text)
	if n > room.MaxChunkTokens {
		return c.Prefix, c.Tokens
	}
	return context, n
}

// embed gives chunks vectors when an embedder is configured. A failing
// embedder does not fail the document: it stays searchable by its words,
// and a note says so.
func (s *Service) embed(ctx context.Context, d *room.Document, chunks []room.Chunk) error {
	if s.Embedder == nil || s.EmbeddingModel == "" {
		return nil
	}
	for i := 0; i < len(chunks); i += embedBatch {
		batch := chunks[i:min(i+embedBatch, len(chunks))]
		texts := make([]string, len(batch))
		for j, c := range batch {
			texts[j] = strings.TrimSpace(c.Context + "\n" + c.Text)
		}
		vs, err := s.Embedder.Embed(ctx, texts)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for j := range chunks {
				chunks[j].Embedding, chunks[j].EmbeddingModel = nil, ""
			}
			d.Notes = append(d.Notes, fmt.Sprintf("embedding by %s failed (%v): the document is searched by its words only", s.EmbeddingModel, err))
			return nil
		}
		for j := range batch {
			batch[j].Embedding, batch[j].EmbeddingModel = vs[j], s.EmbeddingModel
		}
		s.progress(Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "embedding", Done: min(i+embedBatch, len(chunks)), Of: len(chunks)})
	}
	return nil
}

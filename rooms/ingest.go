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
	"sync"

	"github.com/gofrs/flock"

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

// MaxNameBytes is the longest file name a document may have, in bytes:
// the file systems' limit for a name, and the data model's 255 for an
// original file name.
const MaxNameBytes = 255

// The files of an upload in progress, in its document's folder: the
// bytes are written to uploadTemp and renamed to the document's name
// once whole and recorded, while this process holds uploadLock. A
// folder whose lock can be taken belongs to a process that died
// mid-upload, and CleanUploads removes what it left.
const (
	uploadTemp = ".upload.tmp"
	uploadLock = ".upload.lock"
)

// Upload stores a document's bytes and records it as pending; Process (or
// the workers Start runs) turns it into pages and chunks. Editors and
// owners may upload. The document records the embedding model it must be
// embedded with: this process's, or else the room's. Errors:
// INVALID_FILE_TYPE for a type that is not accepted, INVALID for a name
// longer than MaxNameBytes, EMPTY_FILE, FILE_TOO_LARGE; nothing is left
// behind on error. A document whose content the room has already is not
// stored again: CONFLICT, a *room.Duplicate naming the document there.
func (s *Service) Upload(ctx context.Context, userID, roomID, name string, r io.Reader) (*room.Document, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleEditor); err != nil {
		return nil, s.refused(roomID, userID, "upload", roomID, err)
	}
	name = filepath.Base(strings.TrimSpace(name))
	if len(name) > MaxNameBytes {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the file name is %d bytes long; a document's name may be at most %d", len(name), MaxNameBytes).
			WithHint("rename the file with a shorter name and upload it again")
	}
	format, err := docparse.FormatOf(name)
	if err != nil {
		return nil, err
	}
	model, err := s.roomModel(ctx, roomID)
	if err != nil {
		return nil, err
	}
	d := &room.Document{ID: quarry.NewID(), RoomID: roomID, Name: name, Format: format, Status: room.StatusPending,
		UploadedBy: userID, CreatedAt: s.now(), UpdatedAt: s.now(), EmbeddingModel: model}
	path := s.filePath(d)
	dir := filepath.Dir(path)
	fail := func(err error) (*room.Document, error) {
		s.removeFile(d)
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(s.storageError(err))
	}
	lock := flock.New(filepath.Join(dir, uploadLock))
	if _, err := lock.TryLock(); err != nil {
		return fail(s.storageError(err))
	}
	defer func() {
		os.Remove(filepath.Join(dir, uploadLock))
		lock.Close()
	}()
	temp := filepath.Join(dir, uploadTemp)
	f, err := os.Create(temp)
	if err != nil {
		return fail(s.storageError(err))
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, MaxUploadBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return fail(s.storageError(err))
	case n == 0:
		return fail(quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", name))
	case n > MaxUploadBytes:
		return fail(quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than %d MB", name, MaxUploadBytes>>20))
	}
	if err := os.Rename(temp, path); err != nil {
		return fail(s.storageError(err))
	}
	d.SizeBytes, d.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	unlock := s.lockRoom(roomID)
	defer unlock()
	if err := s.duplicate(ctx, userID, d); err != nil {
		return fail(err)
	}
	upload := map[string]any{"action": "upload", "room_id": roomID, "document_id": d.ID, "name": name, "size_bytes": n, "sha256": d.SHA256}
	if err := s.change(d.ID, userID, upload, func() error { return s.Store.CreateDocument(ctx, d) }); err != nil {
		return fail(err)
	}
	s.enqueue(ctx, d)
	return d, nil
}

// duplicate returns a *room.Duplicate (CONFLICT) when d's room has a
// document of d's content already, and records the refusal.
func (s *Service) duplicate(ctx context.Context, userID string, d *room.Document) error {
	docs, err := s.Store.ListDocuments(ctx, d.RoomID)
	if err != nil {
		return err
	}
	for _, old := range docs {
		if old.SHA256 != d.SHA256 {
			continue
		}
		s.record(d.RoomID, quarry.EventPolicyDecision, userID, map[string]any{"action": "upload", "room_id": d.RoomID, "user_id": userID,
			"decision": "refused", "reason": "duplicate", "name": d.Name, "sha256": d.SHA256, "document_id": old.ID})
		msg := fmt.Sprintf("%s is already in this room as %s (document %s)", d.Name, old.Name, old.ID)
		if old.Name == d.Name {
			msg = fmt.Sprintf("%s is already in this room (document %s)", d.Name, old.ID)
		}
		return &room.Duplicate{Existing: old, Err: quarry.Errorf(quarry.ECodeConflict, "%s", msg).
			WithHint("the same content is stored once per room; delete that document first to upload it again")}
	}
	return nil
}

// lockRoom holds roomID's upload lock until the returned func is called,
// so that two uploads of one content to one room in this process cannot
// both find no duplicate.
func (s *Service) lockRoom(roomID string) func() {
	s.mu.Lock()
	if s.roomLocks == nil {
		s.roomLocks = map[string]*roomLock{}
	}
	l := s.roomLocks[roomID]
	if l == nil {
		l = &roomLock{}
		s.roomLocks[roomID] = l
	}
	l.users++
	s.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		s.mu.Lock()
		if l.users--; l.users == 0 {
			delete(s.roomLocks, roomID)
		}
		s.mu.Unlock()
	}
}

// roomLock is a room's upload lock and how many hold or wait for it.
type roomLock struct {
	sync.Mutex
	users int
}

// storageError is err as a user may read it: a full disk says so, and
// anything else that is not a quarry.Error is logged here and answered
// INTERNAL, since it names the server's paths.
func (s *Service) storageError(err error) error {
	// The reader's own errors (a body over its limit) say what they are.
	if qe := (*quarry.Error)(nil); errors.As(err, &qe) {
		return err
	}
	if se := quarry.StorageError(err); quarry.ErrorCode(se) == quarry.ECodeStorageFull {
		return se
	}
	s.log().Error("store an upload", "err", err)
	return quarry.Errorf(quarry.ECodeInternal, "the upload could not be stored")
}

// roomModel is the embedding model a new document of roomID must be
// embedded with: this process's when it has one, else the one its
// room's newest embedded document names, so that a process without the
// embedder does not add documents without vectors to an embedded room.
func (s *Service) roomModel(ctx context.Context, roomID string) (string, error) {
	if s.Embedder != nil && s.EmbeddingModel != "" {
		return s.EmbeddingModel, nil
	}
	ds, err := s.Store.ListDocuments(act(ctx, room.System), roomID)
	if err != nil {
		return "", err
	}
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].EmbeddingModel != "" {
			return ds[i].EmbeddingModel, nil
		}
	}
	return "", nil
}

// CleanUploads removes what uploads cut short by a process's death left
// in the documents' folders, and returns how many it removed: a folder
// whose document was never recorded goes whole, one whose document was
// recorded keeps the document's file. An upload in progress in a live
// process holds its lock and is left alone.
func (s *Service) CleanUploads(ctx context.Context) (int, error) {
	locks, err := filepath.Glob(filepath.Join(s.Dir, "rooms", "*", "documents", "*", uploadLock))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range locks {
		lock := flock.New(l)
		ok, err := lock.TryLock()
		if err != nil || !ok {
			continue
		}
		dir := filepath.Dir(l)
		_, err = s.Store.Document(act(ctx, room.System), filepath.Base(dir))
		switch quarry.ErrorCode(err) {
		case "":
			os.Remove(filepath.Join(dir, uploadTemp))
			os.Remove(l)
		case quarry.ECodeNotFound:
			if err := os.RemoveAll(dir); err != nil {
				lock.Close()
				return n, err
			}
			s.log().Info("removed an upload cut short", "document", filepath.Base(dir))
			n++
		}
		lock.Close()
		if err != nil && quarry.ErrorCode(err) != quarry.ECodeNotFound {
			return n, err
		}
	}
	return n, nil
}

func (s *Service) progress(p room.Progress) {
	s.events.publish(p)
	if s.Progress != nil {
		s.Progress(p)
	}
}

// Process turns a pending document into pages and chunks and marks it
// completed, or failed with the reason; a failure leaves no page or chunk
// of it behind. The error is returned as well as recorded. It works
// under a lease on the document that it renews (so that a worker that
// dies leaves it to another, see Service.Rescue); when ctx is cancelled
// it hands the document back, pending, and returns ErrHandedBack. A
// document another worker holds, or that is completed or failed, is
// CONFLICT; one whose room needs an embedding model this process lacks
// is refused, left pending, and logged with the setting to change. Each
// tool it calls (docparse, ocr, chunk, embed) and how it ended are
// written to the audit log; a tool call the log cannot take fails the
// document.
func (s *Service) Process(ctx context.Context, documentID string) error {
	// Processing is the application's own work, whoever uploaded.
	ctx = act(ctx, room.System)
	d, err := s.Store.Document(ctx, documentID)
	if err != nil {
		return err
	}
	if err := s.embedderFor(d); err != nil {
		var qe *quarry.Error
		errors.As(err, &qe)
		s.log().Error("refused a document", "document", d.ID, "err", qe.Message, "hint", qe.Hint)
		return err
	}
	holder := quarry.NewID()
	if d, err = s.Store.ClaimDocument(ctx, documentID, holder, s.lease()); err != nil {
		return err
	}
	work, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopRenewing := s.renew(work, cancel, d.ID, holder)
	s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "reading " + d.Name})
	err = s.process(work, d)
	stopRenewing()
	switch {
	case err == nil:
		s.recordProcessed(d, room.StatusCompleted, nil)
		s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusCompleted, Message: fmt.Sprintf("%s: %d pages, %d chunks", d.Name, d.PageCount, d.ChunkCount)})
		return nil
	case errors.Is(context.Cause(work), errLeaseLost):
		s.recordProcessed(d, "lease_lost", nil)
		return errLeaseLost
	case errors.Is(ctx.Err(), context.Canceled):
		// The process is stopping: the document is not at fault.
		if _, rerr := s.Store.ReleaseDocument(context.WithoutCancel(ctx), d.ID, holder); rerr != nil {
			s.log().Error("hand back a document", "document", d.ID, "err", rerr)
		}
		s.recordProcessed(d, room.StatusPending, nil)
		s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusPending, Message: d.Name + ": handed back, processing stopped with its worker"})
		return fmt.Errorf("%w: %w", ErrHandedBack, ctx.Err())
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = quarry.Errorf(quarry.ECodeResourceLimit, "%s took longer to process than its time limit", d.Name).
			WithHint("split it into smaller documents")
	}
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
	s.recordProcessed(d, room.StatusFailed, err)
	s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusFailed, Message: msg})
	return err
}

func (s *Service) process(ctx context.Context, d *room.Document) error {
	doc, err := docparse.Extract(ctx, s.filePath(d), d.Name, docparse.DefaultOptions())
	if err := s.recordParse(d, doc, err); err != nil {
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
		h := heading{text: headings[i]}
		carried := ""
		if i > 0 {
			carried = ask.CarriedHeader(texts[i-1], p.Text) // a table the page break cut
		}
		for ci, c := range retrieve.ChunkPage(p.Text, retrieve.ChunkOptions{Count: tokens.Count}) {
			if ci == 0 && carried != "" && c.Prefix == "" {
				if n := tokens.Count(carried + "\n" + c.Text); n <= room.MaxChunkTokens {
					c.Prefix, c.Tokens = carried+"\n", n
				}
			}
			context, n := h.before(c)
			chunks = append(chunks, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: pages[i].ID, PageNumber: p.Number,
				Index: len(chunks), Text: c.Text, Context: context, TokenCount: n, StartChar: c.Start, EndChar: c.End})
			tokensTotal += n
		}
		if (i+1)%50 == 0 {
			s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "chunking", Done: i + 1, Of: len(doc.Pages)})
		}
	}
	if err := s.recordTool(d, "chunk", nil, map[string]any{"pages": len(pages), "chunks": len(chunks), "tokens": tokensTotal}); err != nil {
		return err
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

// heading is a page's heading, put before each of its chunks' own
// context so that a passage deep in a note or a statement is found by the
// title it sits under. Its tokens are counted once per page: a chunk's
// text begins with no white space, so the heading's line and the chunk
// count apart (tokens.Additive).
type heading struct {
	text   string
	tokens int // of text + "\n", once counted; 0 before
}

// before returns a chunk's context with the heading and the chunk's token
// count with it; a chunk the heading would take over the token limit
// keeps its context alone.
func (h *heading) before(c retrieve.PageChunk) (string, int) {
	if h.text == "" {
		return c.Prefix, c.Tokens
	}
	line := h.text + "\n"
	var n int
	if rest := c.Prefix + c.Text; tokens.Additive(line, rest) {
		if h.tokens == 0 {
			h.tokens = tokens.Count(line)
		}
		n = h.tokens + c.Tokens
	} else {
		n = tokens.Count(line + rest)
	}
	if n > room.MaxChunkTokens {
		return c.Prefix, c.Tokens
	}
	return line + c.Prefix, n
}

// embed gives chunks vectors when an embedder is configured. A failing
// embedder does not fail the document: it stays searchable by its words,
// and a note says so. The audit log gets one entry for all the batches.
func (s *Service) embed(ctx context.Context, d *room.Document, chunks []room.Chunk) error {
	if s.Embedder == nil || s.EmbeddingModel == "" {
		return nil
	}
	err := s.embedBatches(ctx, d, chunks)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if rerr := s.recordTool(d, "embed", err, map[string]any{"model": s.EmbeddingModel, "chunks": len(chunks),
		"batches": (len(chunks) + embedBatch - 1) / embedBatch}); rerr != nil {
		return rerr
	}
	if err != nil {
		for j := range chunks {
			chunks[j].Embedding, chunks[j].EmbeddingModel = nil, ""
		}
		d.Notes = append(d.Notes, fmt.Sprintf("embedding by %s failed (%v): the document is searched by its words only", s.EmbeddingModel, err))
	}
	return nil
}

// embedBatches embeds chunks embedBatch at a time, stopping at the first
// batch that fails.
func (s *Service) embedBatches(ctx context.Context, d *room.Document, chunks []room.Chunk) error {
	for i := 0; i < len(chunks); i += embedBatch {
		batch := chunks[i:min(i+embedBatch, len(chunks))]
		texts := make([]string, len(batch))
		for j, c := range batch {
			texts[j] = strings.TrimSpace(c.Context + "\n" + c.Text)
		}
		vs, err := s.Embedder.Embed(ctx, texts)
		if err != nil {
			return err
		}
		for j := range batch {
			batch[j].Embedding, batch[j].EmbeddingModel = vs[j], s.EmbeddingModel
		}
		s.progress(room.Progress{DocumentID: d.ID, RoomID: d.RoomID, Status: room.StatusProcessing, Message: "embedding", Done: min(i+embedBatch, len(chunks)), Of: len(chunks)})
	}
	return nil
}

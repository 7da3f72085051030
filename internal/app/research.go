package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
	research "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/internal/atomicfile"
	"github.com/quarry-dev/quarry/internal/tokens"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// A folder of documents (quarry research --corpus DIR) is indexed into
// the data dir's retrieval index (quarry.db, the same FTS5 index sessions
// use) under a scope of its own, "corpus:" and the folder's fingerprint:
// its files' paths, sizes and modification times. It is not a data room:
// a folder on the user's own disk has no members to check, and a room
// would show up in everyone's room list. The first research over a folder
// parses (docparse) and chunks (retrieve.ChunkPage, as rooms do) its
// documents and puts them in one transaction; a marker in db/corpora
// records the scope and the documents' metadata, and is written only
// after the index holds them, so an interrupted indexing is redone, never
// half-used. A changed folder gets a new scope and the old one is
// deleted.

// corpusMark is what db/corpora/{hash of the folder's path}.json holds.
type corpusMark struct {
	Dir         string                       `json:"dir"`
	Fingerprint string                       `json:"fingerprint"`
	Scope       string                       `json:"scope"`
	Docs        map[string]research.Document `json:"docs"`
	// Unread are the files that could not be read, with why.
	Unread []research.SourceFailure `json:"unread,omitempty"`
}

// CorpusProgress hears how indexing a folder goes.
type CorpusProgress func(format string, args ...any)

// OpenCorpus returns the folder dir as a research corpus over index,
// indexing it when it is new or changed. Errors: NOT_FOUND for a folder
// that does not exist, INVALID for a path that is not a folder,
// EMPTY_FILE for a folder without a document Quarry reads, and the
// document's own error (MALFORMED_DOCUMENT, FILE_TOO_LARGE, ...) for one
// that cannot be read; nothing is indexed then.
func OpenCorpus(ctx context.Context, dataDir, dir string, index retrieve.Index, progress CorpusProgress) (*research.IndexCorpus, error) {
	if progress == nil {
		progress = func(string, ...any) {}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "corpus folder %s does not exist", dir)
	}
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "corpus folder %s cannot be read: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s is not a folder", dir).WithHint("--corpus takes a folder of documents")
	}
	files, fingerprint, err := corpusFiles(abs)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "corpus folder %s holds no document Quarry can read", dir).
			WithHint("put PDF, DOCX, HTML, Markdown, text or CSV files in it")
	}
	pathHash := sha256.Sum256([]byte(abs))
	markPath := filepath.Join(dataDir, "db", "corpora", hex.EncodeToString(pathHash[:8])+".json")
	var old corpusMark
	if data, err := os.ReadFile(markPath); err == nil && json.Unmarshal(data, &old) == nil && old.Fingerprint == fingerprint {
		progress("corpus %s: %d documents, already indexed", dir, len(old.Docs))
		for _, f := range old.Unread {
			progress("%s", f.Message())
		}
		return &research.IndexCorpus{Index: index, Scope: old.Scope, Docs: old.Docs, Unread: old.Unread}, nil
	}
	mark := corpusMark{Dir: abs, Fingerprint: fingerprint, Scope: "corpus:" + fingerprint[:16], Docs: map[string]research.Document{}}
	var chunks []retrieve.Chunk
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading() // a return before the last file stops the rest
	read := readCorpus(readCtx, abs, files)
	for i, rel := range files {
		r := <-read[i]
		if err := ctx.Err(); err != nil {
			return nil, quarry.Errorf(quarry.ECodeUnavailable, "indexing stopped: %w", err)
		}
		if r.err != nil {
			// One unreadable file is left out and named in the report;
			// a folder of nothing but is an error.
			if len(mark.Unread) == len(files)-1 && len(mark.Docs) == 0 {
				return nil, r.err
			}
			f := research.SourceFailure{Source: rel, Reason: r.err.Error()}
			mark.Unread = append(mark.Unread, f)
			progress("%s", f.Message())
			continue
		}
		mark.Docs[rel] = r.doc
		chunks = append(chunks, r.chunks...)
		progress("indexing %s (%d of %d)", rel, i+1, len(files))
	}
	if len(chunks) == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "the documents in %s hold no passage to search", dir)
	}
	if err := index.Put(ctx, mark.Scope, chunks); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(mark, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(markPath), 0o755); err != nil {
		return nil, quarry.StorageError(err)
	}
	if err := atomicfile.Write(markPath, data); err != nil {
		return nil, quarry.StorageError(err)
	}
	if old.Scope != "" && old.Scope != mark.Scope {
		_ = index.Delete(ctx, old.Scope)
	}
	progress("corpus %s: %d documents, %d passages indexed", dir, len(mark.Docs), len(chunks))
	return &research.IndexCorpus{Index: index, Scope: mark.Scope, Docs: mark.Docs, Unread: mark.Unread}, nil
}

// corpusRead is one file of a corpus read: its description and chunks,
// or why it could not be read.
type corpusRead struct {
	doc    research.Document
	chunks []retrieve.Chunk
	err    error
}

// readCorpus reads, describes and chunks files on every core at once;
// the i-th channel gives the i-th file, so that the caller takes them in
// order. It stops reading when ctx ends.
func readCorpus(ctx context.Context, abs string, files []string) []chan corpusRead {
	out := make([]chan corpusRead, len(files))
	for i := range out {
		out[i] = make(chan corpusRead, 1)
	}
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range files {
			select {
			case next <- i:
			case <-ctx.Done():
				for ; i < len(files); i++ {
					out[i] <- corpusRead{err: ctx.Err()}
				}
				return
			}
		}
	}()
	for range max(1, runtime.GOMAXPROCS(0)) {
		go func() {
			for i := range next {
				out[i] <- readCorpusFile(ctx, abs, files[i])
			}
		}()
	}
	return out
}

// readCorpusFile reads one file of a corpus into a description and
// chunks.
func readCorpusFile(ctx context.Context, abs, rel string) corpusRead {
	doc, err := docparse.Extract(ctx, filepath.Join(abs, rel), rel, docparse.DefaultOptions())
	if err != nil {
		return corpusRead{err: err}
	}
	var text strings.Builder
	for _, p := range doc.Pages {
		text.WriteString(p.Text + "\n\n")
	}
	d := research.DescribeDocument(rel, doc.Title, text.String())
	d.URL = "file://" + filepath.ToSlash(filepath.Join(abs, rel))
	d.Domain = "corpus"
	if d.Title == "" {
		d.Title = rel
	}
	var chunks []retrieve.Chunk
	for _, p := range doc.Pages {
		for j, c := range retrieve.ChunkPage(p.Text, retrieve.ChunkOptions{Count: tokens.Count}) {
			chunks = append(chunks, retrieve.Chunk{Ref: fmt.Sprintf("%s#page=%d&chunk=%d", rel, p.Number, j+1), Title: d.Title, Text: c.Content()})
		}
	}
	return corpusRead{doc: d, chunks: chunks}
}

// corpusFiles lists the documents under dir (relative paths, sorted;
// hidden files and formats docparse does not read are left out) and
// their fingerprint.
func corpusFiles(dir string) ([]string, string, error) {
	var files []string
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "corpus folder cannot be read: %w", err)
		}
		if strings.HasPrefix(d.Name(), ".") && path != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if _, err := docparse.FormatOf(d.Name()); err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	sort.Strings(files)
	for _, rel := range files {
		fi, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			return nil, "", quarry.Errorf(quarry.ECodeInvalid, "cannot read %s: %w", rel, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", rel, fi.Size(), fi.ModTime().UnixNano())
	}
	return files, hex.EncodeToString(h.Sum(nil)), nil
}

// RoomCorpus is a data room as a research corpus: the room's retrieval
// (ask.Retrieve over its completed documents), reached only after the
// rooms service has checked that the user may read the room.
type RoomCorpus struct {
	svc    *rooms.Service
	userID string
	roomID string
	docs   []room.Document
	meta   map[string]research.Document
}

// OpenRoomCorpus checks that userID may read the room idOrName and
// returns it as a corpus. Errors: NOT_FOUND for a room that does not
// exist or that the user is not a member of (the same answer), EMPTY_FILE
// for a room without a processed document.
func OpenRoomCorpus(ctx context.Context, svc *rooms.Service, userID, idOrName string) (*RoomCorpus, error) {
	r, err := svc.Room(ctx, userID, idOrName)
	if err != nil {
		return nil, err
	}
	docs, err := svc.Documents(ctx, userID, r.ID)
	if err != nil {
		return nil, err
	}
	c := &RoomCorpus{svc: svc, userID: userID, roomID: r.ID, meta: map[string]research.Document{}}
	for _, d := range docs {
		if d.Status != room.StatusCompleted {
			continue
		}
		c.docs = append(c.docs, d)
		// The document's own first page says what it is and when.
		first := ""
		if p, err := svc.Page(ctx, userID, d.ID, 1); err == nil {
			first = p.Text
		}
		m := research.DescribeDocument(d.Name+" "+d.Meta.FormType, d.Meta.Title, first)
		m.URL = "room://" + r.ID + "/" + d.ID
		m.Domain = "room:" + r.Name
		m.Title = d.Name
		c.meta[d.ID] = m
	}
	if len(c.docs) == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "room %s has no processed document to research", r.Name).
			WithHint("quarry ingest --room " + r.Name + " FILE adds one")
	}
	return c, nil
}

// Search implements research.Corpus: the room's best pages for query,
// each page's matching chunks as one passage.
func (c *RoomCorpus) Search(ctx context.Context, query string, k int) ([]research.Passage, error) {
	// Membership is checked again on every search, so a user removed
	// from the room mid-research reads nothing more.
	if _, err := c.svc.Room(ctx, c.userID, c.roomID); err != nil {
		return nil, err
	}
	pages, err := ask.Retrieve(room.WithActor(ctx, c.userID), c.svc.Store, ask.Request{RoomID: c.roomID, Docs: c.docs, Question: query, K: k, Broad: true})
	if err != nil {
		return nil, err
	}
	out := make([]research.Passage, 0, len(pages))
	for _, p := range pages {
		var text []string
		for _, ch := range p.Chunks {
			text = append(text, ch.Text)
		}
		m := c.meta[p.DocumentID]
		out = append(out, research.Passage{URL: fmt.Sprintf("%s#page=%d", m.URL, p.PageNumber), Title: m.Title, Text: strings.Join(text, "\n\n"),
			Domain: m.Domain, Credibility: m.Credibility, Published: m.Published, Score: p.Score})
	}
	return out, nil
}

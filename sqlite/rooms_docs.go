package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// CreateDocument implements room.Documents.
func (s *Rooms) CreateDocument(ctx context.Context, d *room.Document) error {
	meta, _ := json.Marshal(d.Meta)
	notes, _ := json.Marshal(nonNil(d.Notes))
	_, err := s.write.ExecContext(ctx, `INSERT INTO documents (id, data_room_id, name, format, size_bytes, sha256, processing_status,
		error_code, error_message, ocr_attempted, page_count, chunk_count, avg_chunk_size, metadata, notes, uploaded_by, created_at, updated_at,
		embedding_model, round)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.RoomID, d.Name, d.Format, d.SizeBytes, d.SHA256, d.Status, d.ErrorCode, d.Error, d.OCRAttempted,
		d.PageCount, d.ChunkCount, d.AvgChunkSize, string(meta), string(notes), d.UploadedBy, formatTime(d.CreatedAt), formatTime(d.UpdatedAt),
		d.EmbeddingModel, d.Round)
	return checked(err, "document")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const documentColumns = `id, data_room_id, name, format, size_bytes, sha256, processing_status, error_code, error_message,
	ocr_attempted, page_count, chunk_count, avg_chunk_size, metadata, notes, uploaded_by, created_at, updated_at, embedding_model, round`

func scanDocument(row interface{ Scan(...any) error }) (*room.Document, error) {
	var d room.Document
	var meta, notes, created, updated string
	if err := row.Scan(&d.ID, &d.RoomID, &d.Name, &d.Format, &d.SizeBytes, &d.SHA256, &d.Status, &d.ErrorCode, &d.Error,
		&d.OCRAttempted, &d.PageCount, &d.ChunkCount, &d.AvgChunkSize, &meta, &notes, &d.UploadedBy, &created, &updated,
		&d.EmbeddingModel, &d.Round); err != nil {
		return nil, err
	}
	json.Unmarshal([]byte(meta), &d.Meta)
	json.Unmarshal([]byte(notes), &d.Notes)
	d.CreatedAt, d.UpdatedAt = parseTime(created), parseTime(updated)
	return &d, nil
}

// Document implements room.Documents.
func (s *Rooms) Document(ctx context.Context, id string) (*room.Document, error) {
	d, err := scanDocument(s.read.QueryRowContext(ctx, "SELECT "+documentColumns+" FROM documents WHERE id = ?", id))
	return d, notFound(err, "document", id)
}

func (s *Rooms) documents(ctx context.Context, where string, args ...any) ([]room.Document, error) {
	return queryAll(ctx, s.read, scanDocument, "SELECT "+documentColumns+" FROM documents "+where, args...)
}

// ListDocuments implements room.Documents: oldest first.
func (s *Rooms) ListDocuments(ctx context.Context, roomID string) ([]room.Document, error) {
	return s.documents(ctx, "WHERE data_room_id = ? ORDER BY created_at, name", roomID)
}

// Pending implements room.Documents.
func (s *Rooms) Pending(ctx context.Context) ([]room.Document, error) {
	return s.documents(ctx, "WHERE processing_status IN ('pending', 'processing') ORDER BY created_at")
}

// SetStatus implements room.Documents.
func (s *Rooms) SetStatus(ctx context.Context, id, status, code, message string) error {
	defer s.vectors.drop()
	res, err := s.write.ExecContext(ctx, "UPDATE documents SET processing_status = ?, error_code = ?, error_message = ?, updated_at = ?, lease_holder = '', lease_until = '' WHERE id = ?",
		status, code, message, formatTime(time.Now()), id)
	if err != nil {
		return checked(err, "document")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no document %s", id)
	}
	return nil
}

// Complete implements room.Documents.
func (s *Rooms) Complete(ctx context.Context, d *room.Document, pages []room.Page, chunks []room.Chunk) error {
	defer s.vectors.drop()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var roomID string
	if err := tx.QueryRowContext(ctx, "SELECT data_room_id FROM documents WHERE id = ?", d.ID).Scan(&roomID); err != nil {
		return notFound(err, "document", d.ID)
	}
	if err := createRoomIndex(ctx, tx, roomID); err != nil {
		return err
	}
	// A document processed again replaces what it had.
	if err := uncountDocument(ctx, tx, roomID, d.ID); err != nil {
		return err
	}
	if err := unindexDocument(ctx, tx, roomID, d.ID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM document_pages WHERE document_id = ?", d.ID); err != nil {
		return err
	}
	now := formatTime(time.Now())
	insPage, err := tx.PrepareContext(ctx, "INSERT INTO document_pages (id, document_id, page_number, text_content, ocr_confidence, created_at) VALUES (?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer insPage.Close()
	for _, p := range pages {
		if _, err := insPage.ExecContext(ctx, p.ID, d.ID, p.Number, p.Text, p.OCRConfidence, now); err != nil {
			return checked(err, fmt.Sprintf("page %d", p.Number))
		}
	}
	insChunk, err := tx.PrepareContext(ctx, `INSERT INTO document_chunks (id, document_id, page_id, chunk_index, text_content, context, token_count,
		start_char, end_char, embedding, embedding_model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insChunk.Close()
	insMap, err := tx.PrepareContext(ctx, "INSERT INTO chunk_search (chunk_id, document_id) VALUES (?, ?)")
	if err != nil {
		return err
	}
	defer insMap.Close()
	insFTS, err := tx.PrepareContext(ctx, "INSERT INTO "+roomIndex(roomID)+" (rowid, document, body) VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	defer insFTS.Close()
	bodies := make([]string, 0, len(chunks))
	for _, c := range chunks {
		var emb []byte
		if c.Embedding != nil {
			emb = analysis.EncodeVector(c.Embedding)
		}
		if _, err := insChunk.ExecContext(ctx, c.ID, d.ID, c.PageID, c.Index, c.Text, c.Context, c.TokenCount, c.StartChar, c.EndChar, emb, c.EmbeddingModel, now); err != nil {
			return checked(err, fmt.Sprintf("chunk %d (page %d)", c.Index, c.PageNumber))
		}
		res, err := insMap.ExecContext(ctx, c.ID, d.ID)
		if err != nil {
			return err
		}
		rowid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		body := searchBody(c.Context, c.Text)
		if _, err := insFTS.ExecContext(ctx, rowid, d.ID, body); err != nil {
			return err
		}
		bodies = append(bodies, body)
	}
	meta, _ := json.Marshal(d.Meta)
	notes, _ := json.Marshal(nonNil(d.Notes))
	res, err := tx.ExecContext(ctx, `UPDATE documents SET processing_status = 'completed', error_code = '', error_message = '', ocr_attempted = ?,
		page_count = ?, chunk_count = ?, avg_chunk_size = ?, metadata = ?, notes = ?, format = ?, updated_at = ?, lease_holder = '', lease_until = '' WHERE id = ?`,
		d.OCRAttempted, len(pages), len(chunks), d.AvgChunkSize, string(meta), string(notes), d.Format, now, d.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no document %s", d.ID)
	}
	if err := countInto(ctx, tx, roomID, bodies, 1); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.terms.drop(roomID)
	return nil
}

// DeleteDocument implements room.Documents.
func (s *Rooms) DeleteDocument(ctx context.Context, id string) error {
	defer s.vectors.drop()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var roomID string
	if err := tx.QueryRowContext(ctx, "SELECT data_room_id FROM documents WHERE id = ?", id).Scan(&roomID); err != nil {
		return notFound(err, "document", id)
	}
	if err := uncountDocument(ctx, tx, roomID, id); err != nil {
		return err
	}
	if err := unindexDocument(ctx, tx, roomID, id); err != nil && !isMissingTable(err) {
		return err
	}
	defer s.terms.drop(roomID)
	res, err := tx.ExecContext(ctx, "DELETE FROM documents WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no document %s", id)
	}
	return tx.Commit()
}

func scanPage(row interface{ Scan(...any) error }) (*room.Page, error) {
	var p room.Page
	var conf sql.NullFloat64
	if err := row.Scan(&p.ID, &p.DocumentID, &p.Number, &p.Text, &conf); err != nil {
		return nil, err
	}
	if conf.Valid {
		p.OCRConfidence = &conf.Float64
	}
	return &p, nil
}

// Pages implements room.Documents.
func (s *Rooms) Pages(ctx context.Context, documentID string) ([]room.Page, error) {
	return queryAll(ctx, s.read, scanPage, "SELECT id, document_id, page_number, text_content, ocr_confidence FROM document_pages WHERE document_id = ? ORDER BY page_number", documentID)
}

// Page implements room.Documents.
func (s *Rooms) Page(ctx context.Context, documentID string, number int) (*room.Page, error) {
	p, err := scanPage(s.read.QueryRowContext(ctx, "SELECT id, document_id, page_number, text_content, ocr_confidence FROM document_pages WHERE document_id = ? AND page_number = ?", documentID, number))
	return p, notFound(err, "page", fmt.Sprint(number))
}

const chunkColumns = `c.id, c.document_id, c.page_id, p.page_number, c.chunk_index, c.text_content, c.context, c.token_count,
	c.start_char, c.end_char, c.embedding_model`

func scanChunk(row interface{ Scan(...any) error }, extra ...any) (*room.Chunk, error) {
	var c room.Chunk
	if err := row.Scan(append([]any{&c.ID, &c.DocumentID, &c.PageID, &c.PageNumber, &c.Index, &c.Text, &c.Context, &c.TokenCount,
		&c.StartChar, &c.EndChar, &c.EmbeddingModel}, extra...)...); err != nil {
		return nil, err
	}
	return &c, nil
}

// Chunk implements room.Documents.
func (s *Rooms) Chunk(ctx context.Context, id string) (*room.Chunk, error) {
	c, err := scanChunk(s.read.QueryRowContext(ctx, "SELECT "+chunkColumns+" FROM document_chunks c JOIN document_pages p ON p.id = c.page_id WHERE c.id = ?", id))
	return c, notFound(err, "chunk", id)
}

// SearchChunks implements room.Search: BM25 over the chunks' text (and
// context) of one room, narrowed inside FTS5 to the room's rows and, with
// DocumentIDs, to theirs.
func (s *Rooms) SearchChunks(ctx context.Context, roomID string, q room.ChunkQuery) ([]room.ChunkHit, error) {
	if len(q.Terms) == 0 || q.Limit < 1 {
		return nil, nil
	}
	terms, scored, counts, err := s.searchTerms(ctx, roomID, q)
	if err != nil {
		return nil, err
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = quote(strings.ReplaceAll(t, "\x00", ""))
	}
	expr := "body : (" + strings.Join(quoted, " OR ") + ")"
	if len(q.DocumentIDs) > 0 {
		docs := make([]string, len(q.DocumentIDs))
		for i, id := range q.DocumentIDs {
			docs[i] = quote(id)
		}
		expr += " AND document : (" + strings.Join(docs, " OR ") + ")"
	}
	// FTS5 ranks and limits inside the room's index (ORDER BY rank)
	// before any join, and the joins follow from its rows (CROSS JOIN
	// keeps that order); the exact comparison drops a row whose document
	// id only shares tokens with the ones asked for.
	rows, err := s.read.QueryContext(ctx, `SELECT `+chunkColumns+`, d.name, f.score
		FROM (SELECT rowid, -rank AS score FROM `+roomIndex(roomID)+`
			WHERE `+roomIndex(roomID)+` MATCH ? AND rank MATCH 'bm25(0, 1)' ORDER BY rank LIMIT ?) f
		CROSS JOIN chunk_search m ON m.rowid = f.rowid
		CROSS JOIN document_chunks c ON c.id = m.chunk_id
		CROSS JOIN document_pages p ON p.id = c.page_id
		CROSS JOIN documents d ON d.id = c.document_id
		WHERE d.data_room_id = ?
		ORDER BY f.score DESC, c.document_id, c.chunk_index`, expr, q.Limit, roomID)
	if isMissingTable(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("search room %s: %w", roomID, err)
	}
	defer rows.Close()
	hits, err := scanHits(rows)
	if err != nil || len(scored) == 0 {
		return hits, err
	}
	rescore(hits, scored, counts)
	return hits, nil
}

// rescore adds to each hit's BM25 score what the terms the index was not
// asked about add, and sorts the hits again.
func rescore(hits []room.ChunkHit, terms []string, counts *retrieve.WordCounts) {
	bodies := make([]string, len(hits))
	for i, h := range hits {
		bodies[i] = searchBody(h.Context, h.Text)
	}
	for i, score := range counts.ScoreBM25(terms, bodies) {
		hits[i].Score += score
	}
	slices.SortStableFunc(hits, func(a, b room.ChunkHit) int { return cmp.Compare(b.Score, a.Score) })
}

// scanHits reads rows of chunkColumns, the document's name and a score.
func scanHits(rows *sql.Rows) ([]room.ChunkHit, error) {
	return scanAll(rows, func(row scanner) (*room.ChunkHit, error) {
		var h room.ChunkHit
		c, err := scanChunk(row, &h.DocumentName, &h.Score)
		if err != nil {
			return nil, err
		}
		h.Chunk = *c
		return &h, nil
	})
}

// addDocumentColumns adds the columns later versions gave documents to a
// store made before them.
func addDocumentColumns(db *sql.DB) error {
	for _, c := range [][2]string{
		{"embedding_model", "TEXT NOT NULL DEFAULT ''"},
		{"round", "INTEGER NOT NULL DEFAULT 0"},
		{"lease_holder", "TEXT NOT NULL DEFAULT ''"},
		{"lease_until", "TEXT NOT NULL DEFAULT ''"},
	} {
		if err := addColumn(db, "documents", c[0], c[1]); err != nil {
			return err
		}
	}
	return nil
}

// ClaimDocument implements room.Leases. Times are this process's clock:
// the processes sharing a SQLite file share a machine.
func (s *Rooms) ClaimDocument(ctx context.Context, id, holder string, d time.Duration) (*room.Document, error) {
	now := time.Now()
	doc, err := scanDocument(s.write.QueryRowContext(ctx, `UPDATE documents SET processing_status = 'processing', error_code = '', error_message = '',
		lease_holder = ?, lease_until = ?, updated_at = ?
		WHERE id = ? AND (processing_status = 'pending' OR processing_status = 'processing' AND lease_until < ?)
		RETURNING `+documentColumns, holder, formatTime(now.Add(d)), formatTime(now), id, formatTime(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, s.unclaimable(ctx, id)
	}
	return doc, err
}

// unclaimable says why document id could not be claimed: NOT_FOUND, or
// CONFLICT with its status.
func (s *Rooms) unclaimable(ctx context.Context, id string) error {
	d, err := s.Document(ctx, id)
	if err != nil {
		return err
	}
	if d.Status == room.StatusProcessing {
		return quarry.Errorf(quarry.ECodeConflict, "document %s is being processed by another worker", id)
	}
	return quarry.Errorf(quarry.ECodeConflict, "document %s is %s, not waiting to be processed", id, d.Status)
}

// RenewLease implements room.Leases.
func (s *Rooms) RenewLease(ctx context.Context, id, holder string, d time.Duration) error {
	res, err := s.write.ExecContext(ctx, "UPDATE documents SET lease_until = ? WHERE id = ? AND processing_status = 'processing' AND lease_holder = ?",
		formatTime(time.Now().Add(d)), id, holder)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Document(ctx, id); err != nil {
			return err
		}
		return quarry.Errorf(quarry.ECodeConflict, "the lease of document %s was lost", id)
	}
	return nil
}

// ReleaseDocument implements room.Leases.
func (s *Rooms) ReleaseDocument(ctx context.Context, id, holder string) (*room.Document, error) {
	defer s.vectors.drop()
	doc, err := scanDocument(s.write.QueryRowContext(ctx, `UPDATE documents SET processing_status = 'pending', round = round + 1,
		lease_holder = '', lease_until = '', updated_at = ?
		WHERE id = ? AND processing_status = 'processing' AND lease_holder = ? RETURNING `+documentColumns, formatTime(time.Now()), id, holder))
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.Document(ctx, id); err != nil {
			return nil, err
		}
		return nil, quarry.Errorf(quarry.ECodeConflict, "document %s is not processed under this lease", id)
	}
	return doc, err
}

// RescueExpired implements room.Leases.
func (s *Rooms) RescueExpired(ctx context.Context) ([]room.Document, error) {
	now := formatTime(time.Now())
	rows, err := s.write.QueryContext(ctx, `UPDATE documents SET processing_status = 'pending', round = round + 1,
		lease_holder = '', lease_until = '', updated_at = ?
		WHERE processing_status = 'processing' AND lease_until < ? RETURNING `+documentColumns, now, now)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := scanAll(rows, scanDocument)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b room.Document) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

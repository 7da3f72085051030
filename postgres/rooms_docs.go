package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// CreateDocument implements room.Documents. Errors: NOT_FOUND for an
// unknown room, INVALID for a status outside the data model.
func (s *Rooms) CreateDocument(ctx context.Context, d *room.Document) error {
	meta, _ := json.Marshal(d.Meta)
	notes, _ := json.Marshal(nonNil(d.Notes))
	_, err := s.exec(ctx, `INSERT INTO documents (id, data_room_id, name, format, size_bytes, sha256, processing_status,
		error_code, error_message, ocr_attempted, page_count, chunk_count, avg_chunk_size, metadata, notes, uploaded_by, created_at, updated_at,
		embedding_model, round)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
		d.ID, d.RoomID, d.Name, d.Format, d.SizeBytes, d.SHA256, d.Status, d.ErrorCode, d.Error, d.OCRAttempted,
		d.PageCount, d.ChunkCount, d.AvgChunkSize, meta, notes, d.UploadedBy, d.CreatedAt, d.UpdatedAt, d.EmbeddingModel, d.Round)
	return dbError(err, "document")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const documentColumns = `id, data_room_id, name, format, size_bytes, sha256, processing_status, error_code, error_message,
	ocr_attempted, page_count, chunk_count, avg_chunk_size, metadata, notes, uploaded_by, created_at, updated_at, embedding_model, round`

func scanDocument(row pgx.Row, d *room.Document) error {
	var meta, notes []byte
	if err := row.Scan(&d.ID, &d.RoomID, &d.Name, &d.Format, &d.SizeBytes, &d.SHA256, &d.Status, &d.ErrorCode, &d.Error,
		&d.OCRAttempted, &d.PageCount, &d.ChunkCount, &d.AvgChunkSize, &meta, &notes, &d.UploadedBy, &d.CreatedAt, &d.UpdatedAt,
		&d.EmbeddingModel, &d.Round); err != nil {
		return err
	}
	json.Unmarshal(meta, &d.Meta)
	json.Unmarshal(notes, &d.Notes)
	if len(d.Notes) == 0 {
		d.Notes = nil
	}
	return nil
}

// Document implements room.Documents.
func (s *Rooms) Document(ctx context.Context, id string) (*room.Document, error) {
	if !isID(id) {
		return nil, noSuch("document", id)
	}
	var d room.Document
	err := s.one(ctx, "document", id, func(r pgx.Row) error { return scanDocument(r, &d) }, "SELECT "+documentColumns+" FROM documents WHERE id = $1", id)
	return orNil(&d, err)
}

// ListDocuments implements room.Documents: oldest first.
func (s *Rooms) ListDocuments(ctx context.Context, roomID string) ([]room.Document, error) {
	if !isID(roomID) {
		return nil, nil
	}
	return list(s, ctx, scanDocument, "SELECT "+documentColumns+" FROM documents WHERE data_room_id = $1 ORDER BY created_at, name", roomID)
}

// Pending implements room.Documents.
func (s *Rooms) Pending(ctx context.Context) ([]room.Document, error) {
	return list(s, ctx, scanDocument, "SELECT "+documentColumns+" FROM documents WHERE processing_status IN ('pending', 'processing') ORDER BY created_at")
}

// SetStatus implements room.Documents.
func (s *Rooms) SetStatus(ctx context.Context, id, status, code, message string) error {
	if !isID(id) {
		return noSuch("document", id)
	}
	return s.execOne(ctx, "document", id, "UPDATE documents SET processing_status = $2, error_code = $3, error_message = $4, updated_at = now(), lease_holder = '', lease_until = NULL WHERE id = $1",
		id, status, code, message)
}

// Complete implements room.Documents in one transaction: the document's
// row is locked, its old pages go (and with them its chunks and their
// citations), the new pages and chunks go in with one statement each,
// and the document is marked completed. Errors: NOT_FOUND for an unknown
// document, INVALID for a page or chunk that breaks the data model's
// checks; either way nothing changes.
func (s *Rooms) Complete(ctx context.Context, d *room.Document, pages []room.Page, chunks []room.Chunk) error {
	if !isID(d.ID) {
		return noSuch("document", d.ID)
	}
	if err := s.ensureHNSW(ctx, chunks); err != nil {
		return err
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		var roomID string
		if err := tx.QueryRow(ctx, "SELECT data_room_id FROM documents WHERE id = $1 FOR UPDATE", d.ID).Scan(&roomID); err != nil {
			return notFound(err, "document", d.ID)
		}
		before, err := chunkBodies(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM document_pages WHERE document_id = $1", d.ID); err != nil {
			return err
		}
		var (
			pageIDs = make([]string, len(pages))
			numbers = make([]int32, len(pages))
			texts   = make([]string, len(pages))
			conf    = make([]*float64, len(pages))
		)
		for i, p := range pages {
			pageIDs[i], numbers[i], texts[i], conf[i] = p.ID, int32(p.Number), clean(p.Text), p.OCRConfidence
		}
		if _, err := tx.Exec(ctx, `INSERT INTO document_pages (id, document_id, page_number, text_content, ocr_confidence)
			SELECT p.id, $1, p.n, p.t, p.c FROM unnest($2::uuid[], $3::int[], $4::text[], $5::float8[]) AS p(id, n, t, c)`,
			d.ID, pageIDs, numbers, texts, conf); err != nil {
			return dbError(err, "page")
		}
		n := len(chunks)
		var (
			ids, pids, ctexts, contexts, models = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
			index, tokens, start, end           = make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
			vecs                                = make([]*pgvector.Vector, n)
			after                               = make([]string, n)
		)
		for i, c := range chunks {
			ids[i], pids[i], ctexts[i], contexts[i], models[i] = c.ID, c.PageID, clean(c.Text), clean(c.Context), c.EmbeddingModel
			after[i] = contexts[i] + " " + ctexts[i]
			index[i], tokens[i], start[i], end[i] = int32(c.Index), int32(c.TokenCount), int32(c.StartChar), int32(c.EndChar)
			if len(c.Embedding) > 0 {
				v := pgvector.NewVector(c.Embedding)
				vecs[i] = &v
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO document_chunks (id, document_id, data_room_id, page_id, chunk_index, text_content, context,
			token_count, start_char, end_char, embedding, embedding_model)
			SELECT c.id, $1, $2, c.page, c.i, c.t, c.x, c.tokens, c.s, c.e, c.v, c.m
			FROM unnest($3::uuid[], $4::uuid[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::vector[], $12::text[])
				AS c(id, page, i, t, x, tokens, s, e, v, m)`,
			d.ID, roomID, ids, pids, index, ctexts, contexts, tokens, start, end, vecs, models); err != nil {
			return dbError(err, "chunk")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO chunk_search (chunk_id, data_room_id, document_id, chunk_index, search)
			SELECT c.id, $2, $1, c.chunk_index, `+chunkVector+` FROM unnest($3::uuid[], $4::int[], $5::text[], $6::text[]) AS c(id, chunk_index, text_content, context)`,
			d.ID, roomID, ids, index, ctexts, contexts); err != nil {
			return dbError(err, "chunk")
		}
		meta, _ := json.Marshal(d.Meta)
		notes, _ := json.Marshal(nonNil(d.Notes))
		if _, err := tx.Exec(ctx, `UPDATE documents SET processing_status = 'completed', error_code = '', error_message = '', ocr_attempted = $2,
			page_count = $3, chunk_count = $4, avg_chunk_size = $5, metadata = $6, notes = $7, format = $8, updated_at = now(),
			lease_holder = '', lease_until = NULL WHERE id = $1`,
			d.ID, d.OCRAttempted, len(pages), len(chunks), d.AvgChunkSize, meta, notes, d.Format); err != nil {
			return dbError(err, "document")
		}
		// Last, so the room's word rows are locked only until the commit.
		return recount(ctx, tx, roomID, before, after)
	})
}

// clean drops NUL characters, which PostgreSQL's text cannot hold.
func clean(s string) string { return strings.ReplaceAll(s, "\x00", "") }

// DeleteDocument implements room.Documents: its pages, chunks and the
// citations of them go by the foreign keys' cascades, its words from its
// room's counts.
func (s *Rooms) DeleteDocument(ctx context.Context, id string) error {
	if !isID(id) {
		return noSuch("document", id)
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		// Locked first, so that a Complete of it cannot change the chunks
		// counted out.
		var roomID string
		if err := tx.QueryRow(ctx, "SELECT data_room_id FROM documents WHERE id = $1 FOR UPDATE", id).Scan(&roomID); err != nil {
			return notFound(err, "document", id)
		}
		before, err := chunkBodies(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM documents WHERE id = $1", id); err != nil {
			return dbError(err, "document")
		}
		return recount(ctx, tx, roomID, before, nil)
	})
}

func scanPage(row pgx.Row, p *room.Page) error {
	return row.Scan(&p.ID, &p.DocumentID, &p.Number, &p.Text, &p.OCRConfidence)
}

const pageColumns = "id, document_id, page_number, text_content, ocr_confidence::float8 FROM document_pages"

// Pages implements room.Documents.
func (s *Rooms) Pages(ctx context.Context, documentID string) ([]room.Page, error) {
	if !isID(documentID) {
		return nil, nil
	}
	return list(s, ctx, scanPage, "SELECT "+pageColumns+" WHERE document_id = $1 ORDER BY page_number", documentID)
}

// Page implements room.Documents.
func (s *Rooms) Page(ctx context.Context, documentID string, number int) (*room.Page, error) {
	if !isID(documentID) {
		return nil, noSuch("page", fmt.Sprint(number))
	}
	var p room.Page
	err := s.one(ctx, "page", fmt.Sprint(number), func(r pgx.Row) error { return scanPage(r, &p) },
		"SELECT "+pageColumns+" WHERE document_id = $1 AND page_number = $2", documentID, number)
	return orNil(&p, err)
}

const chunkColumns = `c.id, c.document_id, c.page_id, p.page_number, c.chunk_index, c.text_content, c.context, c.token_count,
	c.start_char, c.end_char, c.embedding_model`

func scanChunk(row pgx.Row, c *room.Chunk, extra ...any) error {
	return row.Scan(append([]any{&c.ID, &c.DocumentID, &c.PageID, &c.PageNumber, &c.Index, &c.Text, &c.Context, &c.TokenCount,
		&c.StartChar, &c.EndChar, &c.EmbeddingModel}, extra...)...)
}

// Chunk implements room.Documents.
func (s *Rooms) Chunk(ctx context.Context, id string) (*room.Chunk, error) {
	if !isID(id) {
		return nil, noSuch("chunk", id)
	}
	var c room.Chunk
	err := s.one(ctx, "chunk", id, func(r pgx.Row) error { return scanChunk(r, &c) },
		"SELECT "+chunkColumns+" FROM document_chunks c JOIN document_pages p ON p.id = c.page_id WHERE c.id = $1", id)
	return orNil(&c, err)
}

func scanHit(row pgx.Row, h *room.ChunkHit) error {
	return scanChunk(row, &h.Chunk, &h.DocumentName, &h.Score)
}

// docFilter is the optional restriction of a search to some documents.
func docFilter(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if isID(id) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return []string{"00000000-0000-0000-0000-000000000000"}
	}
	return out
}

// chunkVector is what full-text search matches of a chunk: its text and
// context, English stemming.
const chunkVector = "to_tsvector('english', context || ' ' || text_content)"

// SearchChunks implements room.Search: the chunks of one room whose text
// or context matches any of the terms (each term through
// plainto_tsquery, English stemming), or of the q.MaxTerms rarest,
// ranked by ts_rank with length normalisation, best first. When
// q.MaxPostings leaves the commonest of those out, the chunks found are
// ranked by BM25 for all of them instead (rankBM25).
//
// The query is made first and set as app.search, which chunk_search's
// policy matches through its GIN index (see rooms_schema.sql). Ranking
// is then the cost of a search that matches much of the room: it runs
// over chunk_search alone, and chunks, pages and documents are joined to
// the limit's rows only. ts_rank, not ts_rank_cd: for terms joined by OR
// the cover density only counts their occurrences, at ten times the
// cost.
func (s *Rooms) SearchChunks(ctx context.Context, roomID string, q room.ChunkQuery) ([]room.ChunkHit, error) {
	if len(q.Terms) == 0 || q.Limit < 1 || !isID(roomID) {
		return nil, nil
	}
	terms := make([]string, 0, len(q.Terms))
	for _, t := range q.Terms {
		if t = clean(t); strings.TrimSpace(t) != "" {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return nil, nil
	}
	var out []room.ChunkHit
	err := s.tx(ctx, func(tx pgx.Tx) error {
		terms, scored, counts, err := searchTerms(ctx, tx, roomID, terms, q.MaxTerms, q.MaxPostings)
		if err != nil {
			return err
		}
		var query *string
		if err := tx.QueryRow(ctx, `SELECT set_config('app.search', string_agg('(' || tq::text || ')', ' | '), true)
			FROM (SELECT plainto_tsquery('english', t) AS tq FROM unnest($1::text[]) t) x WHERE numnode(tq) > 0`, terms).Scan(&query); err != nil || query == nil || *query == "" {
			return err
		}
		// Without a condition that can be false, a search within some
		// documents reads their rows through their index.
		args, onlyDocs := []any{roomID, *query, q.Limit}, ""
		if docs := docFilter(q.DocumentIDs); docs != nil {
			args, onlyDocs = append(args, docs), " AND s.document_id = ANY ($4::uuid[])"
		}
		out, err = collect(ctx, tx, scanHit, `SELECT `+chunkColumns+`, d.name, h.score
			FROM (SELECT s.chunk_id, s.document_id, s.chunk_index, ts_rank(s.search, $2::tsquery, 1)::float8 AS score
				FROM chunk_search s
				WHERE s.data_room_id = $1`+onlyDocs+`
				ORDER BY score DESC, s.document_id, s.chunk_index
				LIMIT $3) h
			JOIN document_chunks c ON c.id = h.chunk_id
			JOIN document_pages p ON p.id = c.page_id
			JOIN documents d ON d.id = c.document_id
			ORDER BY h.score DESC, h.document_id, h.chunk_index`, args...)
		if err == nil && len(scored) > 0 {
			rankBM25(out, append(terms, scored...), counts)
		}
		return err
	})
	return out, err
}

// maxHNSWDims is the most dimensions pgvector's HNSW index takes for
// vector; larger vectors are searched exactly.
const maxHNSWDims = 2000

// SearchVectors implements room.Search: the room's chunks embedded by
// q.Model with q.Vector's dimensions, by cosine distance through the
// HNSW index of that dimension (iterative scans, so the room and model
// filters still fill the limit), best first.
func (s *Rooms) SearchVectors(ctx context.Context, roomID string, q room.VectorQuery) ([]room.ChunkHit, error) {
	if len(q.Vector) == 0 || q.Model == "" || q.Limit < 1 || !isID(roomID) {
		return nil, nil
	}
	dims := len(q.Vector)
	// The dimension is written into the statement, so that the planner
	// matches the partial index of that dimension.
	ordered := fmt.Sprintf("(c.embedding::vector(%d)) <=> $2::vector(%d)", dims, dims)
	if dims > maxHNSWDims {
		ordered = "c.embedding <=> $2"
	}
	var out []room.ChunkHit
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET LOCAL hnsw.iterative_scan = strict_order"); err != nil {
			return err
		}
		var err error
		out, err = collect(ctx, tx, scanHit, fmt.Sprintf(`SELECT `+chunkColumns+`, d.name, 1 - (%s) AS score
			FROM document_chunks c
			JOIN document_pages p ON p.id = c.page_id
			JOIN documents d ON d.id = c.document_id
			WHERE c.data_room_id = $1 AND c.embedding_model = $3 AND vector_dims(c.embedding) = %d
				AND d.processing_status = 'completed' AND ($4::uuid[] IS NULL OR c.document_id = ANY ($4))
			ORDER BY %s
			LIMIT $5`, ordered, dims, ordered), roomID, pgvector.NewVector(q.Vector), q.Model, docFilter(q.DocumentIDs), q.Limit)
		return err
	})
	return out, err
}

// ensureHNSW makes the HNSW cosine index (the specification's m = 16,
// ef_construction = 64) for each dimension of chunks' vectors that has
// none yet: pgvector indexes only vectors of one fixed dimension, and
// embedders differ.
func (s *Rooms) ensureHNSW(ctx context.Context, chunks []room.Chunk) error {
	var dims []int
	for _, c := range chunks {
		n := len(c.Embedding)
		if n == 0 || n > maxHNSWDims || slices.Contains(dims, n) {
			continue
		}
		if _, ok := s.hnsw.Load(n); !ok {
			dims = append(dims, n)
		}
	}
	for _, n := range dims {
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('quarry rooms hnsw'))"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, fmt.Sprintf(`CREATE INDEX IF NOT EXISTS idx_chunks_embedding_%d ON document_chunks
				USING hnsw ((embedding::vector(%d)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
				WHERE vector_dims(embedding) = %d`, n, n, n))
			return err
		})
		if err != nil {
			return quarry.Errorf(quarry.ECodeUnavailable, "the vector index for %d dimensions: %s", n, pgMessage(err))
		}
		s.hnsw.Store(n, true)
	}
	return nil
}

// ClaimDocument implements room.Leases on the database's clock, which
// every worker shares whatever machine it runs on.
func (s *Rooms) ClaimDocument(ctx context.Context, id, holder string, d time.Duration) (*room.Document, error) {
	if !isID(id) {
		return nil, noSuch("document", id)
	}
	var doc room.Document
	err := s.tx(ctx, func(tx pgx.Tx) error {
		return scanDocument(tx.QueryRow(ctx, `UPDATE documents SET processing_status = 'processing', error_code = '', error_message = '',
			lease_holder = $2, lease_until = now() + $3 * interval '1 millisecond', updated_at = now()
			WHERE id = $1 AND (processing_status = 'pending' OR processing_status = 'processing' AND (lease_until IS NULL OR lease_until < now()))
			RETURNING `+documentColumns, id, holder, d.Milliseconds()), &doc)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, s.unclaimable(ctx, id)
	}
	if err != nil {
		return nil, dbError(err, "document")
	}
	return &doc, nil
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
	if !isID(id) {
		return noSuch("document", id)
	}
	n, err := s.exec(ctx, "UPDATE documents SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND processing_status = 'processing' AND lease_holder = $2",
		id, holder, d.Milliseconds())
	if err != nil {
		return dbError(err, "document")
	}
	if n == 0 {
		if _, err := s.Document(ctx, id); err != nil {
			return err
		}
		return quarry.Errorf(quarry.ECodeConflict, "the lease of document %s was lost", id)
	}
	return nil
}

// ReleaseDocument implements room.Leases.
func (s *Rooms) ReleaseDocument(ctx context.Context, id, holder string) (*room.Document, error) {
	if !isID(id) {
		return nil, noSuch("document", id)
	}
	var doc room.Document
	err := s.tx(ctx, func(tx pgx.Tx) error {
		return scanDocument(tx.QueryRow(ctx, `UPDATE documents SET processing_status = 'pending', round = round + 1,
			lease_holder = '', lease_until = NULL, updated_at = now()
			WHERE id = $1 AND processing_status = 'processing' AND lease_holder = $2 RETURNING `+documentColumns, id, holder), &doc)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		if _, err := s.Document(ctx, id); err != nil {
			return nil, err
		}
		return nil, quarry.Errorf(quarry.ECodeConflict, "document %s is not processed under this lease", id)
	}
	if err != nil {
		return nil, dbError(err, "document")
	}
	return &doc, nil
}

// RescueExpired implements room.Leases. Rescuers in several processes may
// run at once: the row locks of the update give each document to one.
func (s *Rooms) RescueExpired(ctx context.Context) ([]room.Document, error) {
	out, err := list(s, ctx, scanDocument, `UPDATE documents SET processing_status = 'pending', round = round + 1,
		lease_holder = '', lease_until = NULL, updated_at = now()
		WHERE processing_status = 'processing' AND (lease_until IS NULL OR lease_until < now()) RETURNING `+documentColumns)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b room.Document) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

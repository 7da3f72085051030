package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// SaveQuery implements room.Queries: the query and its citations at once.
// Errors: INVALID for a question, answer type, retry count or citation
// that breaks the data model's checks.
func (s *Rooms) SaveQuery(ctx context.Context, q *room.Query) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO qa_queries (id, user_id, data_room_id, question, answer, answer_type, model_used,
			retrieval_time_ms, llm_time_ms, total_time_ms, chunks_retrieved, tokens_input, tokens_output, error_type, error_message,
			retry_count, created_at, completed_at) VALUES ($1, $2, $3, $4, nullif($5, ''), nullif($6, ''), $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
			q.ID, q.UserID, q.RoomID, clean(q.Question), clean(q.Answer), q.AnswerType, q.ModelUsed, q.RetrievalMS, q.LLMMS, q.TotalMS,
			q.ChunksRetrieved, q.TokensInput, q.TokensOutput, q.ErrorType, clean(q.ErrorMessage), q.RetryCount, q.CreatedAt, q.CompletedAt)
		if err != nil {
			return dbError(err, "query")
		}
		for i := range q.Citations {
			c := &q.Citations[i]
			if c.ID == "" {
				c.ID = quarry.NewID()
			}
			if _, err := tx.Exec(ctx, `INSERT INTO qa_citations (id, query_id, chunk_id, document_id, page_number, relevance_score,
				rank, text_preview, verified, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				c.ID, q.ID, c.ChunkID, c.DocumentID, c.PageNumber, c.RelevanceScore, c.Rank, clean(c.TextPreview), c.Verified, q.CreatedAt); err != nil {
				return dbError(err, fmt.Sprintf("citation %d", c.Rank))
			}
		}
		return nil
	})
}

const queryColumns = `q.id, q.user_id, q.data_room_id, q.question, coalesce(q.answer, ''), coalesce(q.answer_type, ''), q.model_used,
	coalesce(q.retrieval_time_ms, 0), coalesce(q.llm_time_ms, 0), coalesce(q.total_time_ms, 0), coalesce(q.chunks_retrieved, 0),
	coalesce(q.tokens_input, 0), coalesce(q.tokens_output, 0), q.error_type, q.error_message, q.retry_count, q.created_at, q.completed_at`

func scanQuery(row pgx.Row, q *room.Query) error {
	q.Citations = []room.Citation{}
	return row.Scan(&q.ID, &q.UserID, &q.RoomID, &q.Question, &q.Answer, &q.AnswerType, &q.ModelUsed, &q.RetrievalMS, &q.LLMMS,
		&q.TotalMS, &q.ChunksRetrieved, &q.TokensInput, &q.TokensOutput, &q.ErrorType, &q.ErrorMessage, &q.RetryCount, &q.CreatedAt, &q.CompletedAt)
}

// Query implements room.Queries.
func (s *Rooms) Query(ctx context.Context, id string) (*room.Query, error) {
	if !isID(id) {
		return nil, noSuch("query", id)
	}
	var qs []room.Query
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		if qs, err = collect(ctx, tx, scanQuery, "SELECT "+queryColumns+" FROM qa_queries q WHERE q.id = $1", id); err != nil {
			return err
		}
		return attach(ctx, tx, qs)
	})
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, noSuch("query", id)
	}
	return &qs[0], nil
}

// attach fills in the citations and feedback of queries, two statements
// for all of them.
func attach(ctx context.Context, tx pgx.Tx, qs []room.Query) error {
	if len(qs) == 0 {
		return nil
	}
	ids := make([]string, len(qs))
	at := make(map[string]*room.Query, len(qs))
	for i := range qs {
		ids[i], at[qs[i].ID] = qs[i].ID, &qs[i]
	}
	type cited struct {
		query string
		room.Citation
	}
	cs, err := collect(ctx, tx, func(r pgx.Row, c *cited) error {
		return r.Scan(&c.query, &c.ID, &c.ChunkID, &c.DocumentID, &c.DocumentName, &c.PageNumber, &c.RelevanceScore, &c.Rank, &c.TextPreview, &c.Verified)
	}, `SELECT c.query_id, c.id, c.chunk_id, c.document_id, d.name, c.page_number, c.relevance_score::float8, c.rank, c.text_preview, c.verified
		FROM qa_citations c JOIN documents d ON d.id = c.document_id WHERE c.query_id = ANY ($1) ORDER BY c.query_id, c.rank`, ids)
	if err != nil {
		return err
	}
	for _, c := range cs {
		q := at[c.query]
		q.Citations = append(q.Citations, c.Citation)
	}
	fs, err := collect(ctx, tx, func(r pgx.Row, f *room.Feedback) error {
		return r.Scan(&f.QueryID, &f.UserID, &f.Rating, &f.Comment, &f.CreatedAt, &f.UpdatedAt)
	}, "SELECT query_id, user_id, rating, comment, created_at, updated_at FROM qa_feedback WHERE query_id = ANY ($1)", ids)
	if err != nil {
		return err
	}
	for _, f := range fs {
		at[f.QueryID].Feedback = &f
	}
	return nil
}

// History implements room.Queries.
func (s *Rooms) History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]room.Query, error) {
	if !isID(userID) || !isID(roomID) {
		return nil, nil
	}
	if before.IsZero() {
		before = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var qs []room.Query
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		qs, err = collect(ctx, tx, scanQuery, "SELECT "+queryColumns+` FROM qa_queries q
			WHERE q.user_id = $1 AND q.data_room_id = $2 AND q.created_at < $3 ORDER BY q.created_at DESC LIMIT $4`, userID, roomID, before, limit)
		if err != nil {
			return err
		}
		return attach(ctx, tx, qs)
	})
	return qs, err
}

// DeleteHistory implements room.Queries.
func (s *Rooms) DeleteHistory(ctx context.Context, userID, roomID string) (int, error) {
	if !isID(userID) || !isID(roomID) {
		return 0, nil
	}
	n, err := s.exec(ctx, "DELETE FROM qa_queries WHERE user_id = $1 AND data_room_id = $2", userID, roomID)
	return int(n), err
}

// PutFeedback implements room.Queries. Errors: INVALID for a rating or
// comment outside the data model, NOT_FOUND for an unknown query.
func (s *Rooms) PutFeedback(ctx context.Context, f room.Feedback) error {
	_, err := s.exec(ctx, `INSERT INTO qa_feedback (query_id, user_id, rating, comment, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (query_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, updated_at = excluded.updated_at`,
		f.QueryID, f.UserID, f.Rating, clean(f.Comment), f.CreatedAt, f.UpdatedAt)
	return dbError(err, "feedback")
}

// TakeQuota implements room.Queries with one statement: the window's row
// is made or counted up only while under the limit, and PostgreSQL's row
// lock makes callers at once wait for each other's count.
func (s *Rooms) TakeQuota(ctx context.Context, userID, roomID string, window time.Time, limit int) (bool, int, error) {
	var count int
	taken := true
	err := s.tx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO qa_rate_limits (user_id, data_room_id, window_start, query_count, last_query_at)
			VALUES ($1, $2, $3, 1, now())
			ON CONFLICT (user_id, data_room_id, window_start) DO UPDATE
				SET query_count = qa_rate_limits.query_count + 1, last_query_at = now(), updated_at = now()
				WHERE qa_rate_limits.query_count < $4
			RETURNING query_count`, userID, roomID, window, limit).Scan(&count)
		if errors.Is(err, pgx.ErrNoRows) {
			taken = false
			err = tx.QueryRow(ctx, "SELECT query_count FROM qa_rate_limits WHERE user_id = $1 AND data_room_id = $2 AND window_start = $3",
				userID, roomID, window).Scan(&count)
		}
		return dbError(err, "rate limit")
	})
	if err != nil {
		return false, 0, err
	}
	return taken, count, nil
}

// CleanQuotas implements room.Queries.
func (s *Rooms) CleanQuotas(ctx context.Context, before time.Time) (int, error) {
	n, err := s.exec(ctx, "DELETE FROM qa_rate_limits WHERE window_start < $1", before)
	return int(n), err
}

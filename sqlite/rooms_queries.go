package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// SaveQuery implements room.Queries.
func (s *Rooms) SaveQuery(ctx context.Context, q *room.Query) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var completed any
	if q.CompletedAt != nil {
		completed = formatTime(*q.CompletedAt)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO qa_queries (id, user_id, data_room_id, question, answer, answer_type, model_used,
		retrieval_time_ms, llm_time_ms, total_time_ms, chunks_retrieved, tokens_input, tokens_output, error_type, error_message,
		retry_count, created_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		q.ID, q.UserID, q.RoomID, q.Question, nullIfEmpty(q.Answer), nullIfEmpty(q.AnswerType), q.ModelUsed, q.RetrievalMS, q.LLMMS, q.TotalMS,
		q.ChunksRetrieved, q.TokensInput, q.TokensOutput, q.ErrorType, q.ErrorMessage, q.RetryCount, formatTime(q.CreatedAt), completed)
	if err != nil {
		return checked(err, "query")
	}
	for i := range q.Citations {
		c := &q.Citations[i]
		if c.ID == "" {
			c.ID = quarry.NewID()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO qa_citations (id, query_id, chunk_id, document_id, page_number, relevance_score,
			rank, text_preview, verified, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, q.ID, c.ChunkID, c.DocumentID, c.PageNumber, c.RelevanceScore, c.Rank, c.TextPreview, c.Verified, formatTime(q.CreatedAt)); err != nil {
			return checked(err, fmt.Sprintf("citation %d", c.Rank))
		}
	}
	return tx.Commit()
}

const queryColumns = `q.id, q.user_id, q.data_room_id, q.question, coalesce(q.answer, ''), coalesce(q.answer_type, ''), q.model_used,
	coalesce(q.retrieval_time_ms, 0), coalesce(q.llm_time_ms, 0), coalesce(q.total_time_ms, 0), coalesce(q.chunks_retrieved, 0),
	coalesce(q.tokens_input, 0), coalesce(q.tokens_output, 0), q.error_type, q.error_message, q.retry_count, q.created_at, q.completed_at`

func scanQuery(row interface{ Scan(...any) error }) (*room.Query, error) {
	var q room.Query
	var created string
	var completed sql.NullString
	if err := row.Scan(&q.ID, &q.UserID, &q.RoomID, &q.Question, &q.Answer, &q.AnswerType, &q.ModelUsed, &q.RetrievalMS, &q.LLMMS,
		&q.TotalMS, &q.ChunksRetrieved, &q.TokensInput, &q.TokensOutput, &q.ErrorType, &q.ErrorMessage, &q.RetryCount, &created, &completed); err != nil {
		return nil, err
	}
	q.CreatedAt = parseTime(created)
	if completed.Valid {
		t := parseTime(completed.String)
		q.CompletedAt = &t
	}
	q.Citations = []room.Citation{}
	return &q, nil
}

// Query implements room.Queries.
func (s *Rooms) Query(ctx context.Context, id string) (*room.Query, error) {
	q, err := scanQuery(s.read.QueryRowContext(ctx, "SELECT "+queryColumns+" FROM qa_queries q WHERE q.id = ?", id))
	if err != nil {
		return nil, notFound(err, "query", id)
	}
	qs := []room.Query{*q}
	if err := s.attach(ctx, qs); err != nil {
		return nil, err
	}
	return &qs[0], nil
}

// attach fills in the citations and feedback of queries.
func (s *Rooms) attach(ctx context.Context, qs []room.Query) error {
	for i := range qs {
		q := &qs[i]
		rows, err := s.read.QueryContext(ctx, `SELECT c.id, c.chunk_id, c.document_id, d.name, c.page_number, c.relevance_score, c.rank,
			c.text_preview, c.verified FROM qa_citations c JOIN documents d ON d.id = c.document_id WHERE c.query_id = ? ORDER BY c.rank`, q.ID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c room.Citation
			if err := rows.Scan(&c.ID, &c.ChunkID, &c.DocumentID, &c.DocumentName, &c.PageNumber, &c.RelevanceScore, &c.Rank, &c.TextPreview, &c.Verified); err != nil {
				rows.Close()
				return err
			}
			q.Citations = append(q.Citations, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var f room.Feedback
		var created, updated string
		err = s.read.QueryRowContext(ctx, "SELECT query_id, user_id, rating, comment, created_at, updated_at FROM qa_feedback WHERE query_id = ?", q.ID).
			Scan(&f.QueryID, &f.UserID, &f.Rating, &f.Comment, &created, &updated)
		switch {
		case err == nil:
			f.CreatedAt, f.UpdatedAt = parseTime(created), parseTime(updated)
			q.Feedback = &f
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
	}
	return nil
}

// History implements room.Queries.
func (s *Rooms) History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]room.Query, error) {
	if before.IsZero() {
		before = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	out, err := queryAll(ctx, s.read, scanQuery, "SELECT "+queryColumns+` FROM qa_queries q WHERE q.user_id = ? AND q.data_room_id = ? AND q.created_at < ?
		ORDER BY q.created_at DESC LIMIT ?`, userID, roomID, formatTime(before), limit)
	if err != nil {
		return nil, err
	}
	return out, s.attach(ctx, out)
}

// DeleteHistory implements room.Queries.
func (s *Rooms) DeleteHistory(ctx context.Context, userID, roomID string) (int, error) {
	res, err := s.write.ExecContext(ctx, "DELETE FROM qa_queries WHERE user_id = ? AND data_room_id = ?", userID, roomID)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// PutFeedback implements room.Queries.
func (s *Rooms) PutFeedback(ctx context.Context, f room.Feedback) error {
	now := formatTime(f.UpdatedAt)
	_, err := s.write.ExecContext(ctx, `INSERT INTO qa_feedback (id, query_id, user_id, rating, comment, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (query_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, updated_at = excluded.updated_at`,
		quarry.NewID(), f.QueryID, f.UserID, f.Rating, f.Comment, formatTime(f.CreatedAt), now)
	return checked(err, "feedback")
}

// TakeQuota implements room.Queries: one statement counts the query when
// the window has room, so two requests at once cannot both take the
// last place.
func (s *Rooms) TakeQuota(ctx context.Context, userID, roomID string, window time.Time, limit int) (bool, int, error) {
	now := formatTime(time.Now())
	w := formatTime(window)
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return false, 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO qa_rate_limits (id, user_id, data_room_id, window_start, query_count, created_at, updated_at)
		VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (user_id, data_room_id, window_start) DO NOTHING`, quarry.NewID(), userID, roomID, w, now, now); err != nil {
		return false, 0, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE qa_rate_limits SET query_count = query_count + 1, last_query_at = ?, updated_at = ?
		WHERE user_id = ? AND data_room_id = ? AND window_start = ? AND query_count < ?`, now, now, userID, roomID, w, limit)
	if err != nil {
		return false, 0, err
	}
	var count int
	if err := tx.QueryRowContext(ctx, "SELECT query_count FROM qa_rate_limits WHERE user_id = ? AND data_room_id = ? AND window_start = ?", userID, roomID, w).Scan(&count); err != nil {
		return false, 0, err
	}
	n, _ := res.RowsAffected()
	return n == 1, count, tx.Commit()
}

// CleanQuotas implements room.Queries.
func (s *Rooms) CleanQuotas(ctx context.Context, before time.Time) (int, error) {
	res, err := s.write.ExecContext(ctx, "DELETE FROM qa_rate_limits WHERE window_start < ?", formatTime(before))
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// nullIfEmpty stores an empty string as NULL, for columns whose checks
// allow no empty value (an answer type before there is an answer).
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

package postgres

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
)

// Research keeps research results (research.Store) in PostgreSQL, in the
// data model's tables (research_schema.sql), for several processes at
// once: the same contract as sqlite.Research. A save replaces the
// request's earlier one in one transaction, saves of one request taking
// turns; a read sees one snapshot. The store does not check who reads:
// the research service keeps each research to its author.
type Research struct {
	pool *pgxpool.Pool
}

var _ research.Store = (*Research)(nil)

//go:embed research_schema.sql
var researchSchema string

// OpenResearch connects to the database of dsn, creates or updates the
// research tables, and returns the store. Any role that owns its tables
// will do (the rooms' role among them). Errors: INVALID for a connection
// string that cannot be read, UNAVAILABLE for a server that cannot be
// reached or tables that cannot be created.
func OpenResearch(ctx context.Context, dsn string) (*Research, error) {
	cfg, err := openPool(ctx, dsn, func(ctx context.Context, conn *pgx.Conn) error {
		if err := migrateResearch(ctx, conn); err != nil {
			return quarry.Errorf(quarry.ECodeUnavailable, "the research tables in %s: %s", Mask(dsn), scrub(pgMessage(err), dsn))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &Research{pool: pool}, nil
}

// Close closes the store's connections.
func (s *Research) Close() error {
	s.pool.Close()
	return nil
}

// migrateResearch applies the schema when it differs from the one
// recorded in quarry_schema.
func migrateResearch(ctx context.Context, conn *pgx.Conn) error {
	return applySchema(ctx, conn, "research", researchSchema, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, researchSchema)
		return err
	})
}

// Save implements research.Store: the request's rows are deleted (their
// cascades take everything the earlier save wrote) and the result is
// written, in one transaction and one round trip.
func (s *Research) Save(ctx context.Context, r *research.Result) error {
	if err := r.Validate(); err != nil {
		return err
	}
	b := saveBatch(r)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("save research %s: %w", r.Request.ID, saveError(err))
	}
	return nil
}

// saveBatch is every statement of a save, in order: parents before the
// rows that refer to them.
func saveBatch(r *research.Result) *pgx.Batch {
	q := r.Request
	b := &pgx.Batch{}
	// Saves of one request take turns, so the second's DELETE sees the
	// first's rows rather than inserting beside them.
	b.Queue("SELECT pg_advisory_xact_lock(hashtext('quarry research'), hashtext($1))", q.ID)
	b.Queue("DELETE FROM research_requests WHERE id = $1", q.ID)
	b.Queue(`INSERT INTO research_requests (id, query, depth_level, user_id, created_at, status, completion_time_seconds, error, ambiguities, answer)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		q.ID, q.Query, q.Depth, q.UserID, q.CreatedAt, q.Status, q.CompletionTimeSeconds, q.Error, orEmpty(r.Ambiguities), r.Answer)
	if p := r.Plan; p != nil {
		b.Queue("INSERT INTO research_plans (id, request_id, created_at, estimated_time_seconds) VALUES ($1, $2, $3, $4)",
			p.ID, q.ID, p.CreatedAt, p.EstimatedTimeSeconds)
		// Parents first, so that the self-reference holds on insert.
		for depth := 0; depth <= research.MaxDepth; depth++ {
			for i, sq := range p.SubQuestions {
				if sq.Depth != depth {
					continue
				}
				b.Queue(`INSERT INTO sub_questions (id, plan_id, text, priority, parent_question_id, depth, status, aspect, position)
					VALUES ($1, $2, $3, $4, NULLIF($5, ''), $6, $7, $8, $9)`,
					sq.ID, p.ID, sq.Text, sq.Priority, sq.ParentID, sq.Depth, sq.Status, sq.Aspect, i)
			}
		}
	}
	for i, sr := range r.Sources {
		b.Queue(`INSERT INTO search_results (id, request_id, sub_question_id, url, title, content, domain, access_timestamp, credibility_score, published, extracted_facts, position)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			sr.ID, q.ID, sr.SubQuestionID, sr.URL, sr.Title, sr.Content, sr.Domain, sr.AccessTimestamp, sr.CredibilityScore,
			optionalTime(sr.Published), orEmpty(sr.ExtractedFacts), i)
	}
	for i, d := range r.Discrepancies {
		b.Queue(`INSERT INTO discrepancies (id, request_id, topic, sides, strategy, preferred, resolution, resolution_confidence, created_at, position)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			d.ID, q.ID, d.Topic, orEmpty(d.Sides), d.Strategy, d.Preferred, d.Resolution, d.ResolutionConfidence, d.CreatedAt, i)
	}
	for i, f := range r.Facts {
		b.Queue(`INSERT INTO facts (id, request_id, text, source_url, source_id, source_title, confidence, section, extraction_timestamp,
			verified, discrepancy_id, sub_question_id, subject, entity, attribute, value, passage, position)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULLIF($11, ''), $12, $13, $14, $15, $16, $17, $18)`,
			f.ID, q.ID, f.Text, f.SourceURL, f.SourceID, f.SourceTitle, f.Confidence, f.Section, f.ExtractionTimestamp,
			f.Verified, f.DiscrepancyID, f.SubQuestionID, f.Subject, f.Entity, f.Attribute, f.Value, f.Passage, i)
	}
	for _, d := range r.Discrepancies {
		for i, id := range d.FactIDs {
			b.Queue("INSERT INTO fact_discrepancies (fact_id, discrepancy_id, position) VALUES ($1, $2, $3)", id, d.ID, i)
		}
	}
	if rep := r.Report; rep != nil {
		b.Queue(`INSERT INTO narrative_reports (id, request_id, executive_summary, total_word_count, total_sources, generated_at, quality_score, limitations)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			rep.ID, q.ID, rep.ExecutiveSummary, rep.TotalWordCount, rep.TotalSources, rep.GeneratedAt, rep.QualityScore, orEmpty(rep.Limitations))
		for _, sec := range rep.Sections {
			b.Queue(`INSERT INTO report_sections (id, report_id, title, content, "order") VALUES ($1, $2, $3, $4, $5)`,
				sec.ID, rep.ID, sec.Title, sec.Content, sec.Order)
			for i, id := range sec.FactIDs {
				b.Queue("INSERT INTO section_facts (section_id, fact_id, citation_order) VALUES ($1, $2, $3)", sec.ID, id, i)
			}
		}
	}
	return b
}

// saveError gives a refused save its code: CONFLICT for an id another
// research's rows hold, STORAGE_FULL for a server out of disk, and the
// data model's other violations as dbError does.
func saveError(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	switch pgErr.Code {
	case "23505":
		return quarry.Errorf(quarry.ECodeConflict, "an id of the result is another research's (%s)", pgErr.ConstraintName)
	case "53100":
		return quarry.Errorf(quarry.ECodeStorageFull, "the PostgreSQL server has no disk space left").
			WithHint("free space on the database server, then start again")
	}
	return dbError(err, "research")
}

// orEmpty returns s, or an empty slice for nil, so that jsonb holds [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// optionalTime is NULL for the zero time.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// List implements research.Store.
func (s *Research) List(ctx context.Context, userID string) ([]research.Request, error) {
	query, args := "SELECT "+requestColumns+" FROM research_requests ORDER BY created_at DESC, id", []any(nil)
	if userID != "" {
		query, args = "SELECT "+requestColumns+" FROM research_requests WHERE user_id = $1 ORDER BY created_at DESC, id", []any{userID}
	}
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list research: %w", err)
	}
	out := []research.Request{}
	for rows.Next() {
		q, err := scanRequest(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("list research: %w", err)
		}
		out = append(out, *q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list research: %w", err)
	}
	return out, nil
}

// Delete implements research.Store.
func (s *Research) Delete(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM research_requests WHERE id = $1", id)
	if err != nil {
		return fmt.Errorf("delete research %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return noResearch(id)
	}
	return nil
}

func noResearch(id string) error { return quarry.Errorf(quarry.ECodeNotFound, "no research %s", id) }

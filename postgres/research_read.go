package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
)

// requestColumns are a research request's own columns, as scanRequest
// reads them.
const requestColumns = "id, query, depth_level, user_id, created_at, status, completion_time_seconds, error"

func scanRequest(row pgx.Row) (*research.Request, error) {
	var q research.Request
	if err := row.Scan(&q.ID, &q.Query, &q.Depth, &q.UserID, &q.CreatedAt, &q.Status, &q.CompletionTimeSeconds, &q.Error); err != nil {
		return nil, err
	}
	q.CreatedAt = q.CreatedAt.UTC()
	return &q, nil
}

// Get implements research.Store: the request, then the rest of its
// result in one round trip, all from one snapshot.
func (s *Research) Get(ctx context.Context, id string) (*research.Result, error) {
	var r *research.Result
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		r = &research.Result{}
		row := tx.QueryRow(ctx, "SELECT "+requestColumns+", ambiguities, answer FROM research_requests WHERE id = $1", id)
		var q research.Request
		err := row.Scan(&q.ID, &q.Query, &q.Depth, &q.UserID, &q.CreatedAt, &q.Status, &q.CompletionTimeSeconds, &q.Error, &r.Ambiguities, &r.Answer)
		if errors.Is(err, pgx.ErrNoRows) {
			return noResearch(id)
		}
		if err != nil {
			return err
		}
		q.CreatedAt = q.CreatedAt.UTC()
		r.Request = &q
		return loadResult(ctx, tx, r)
	})
	if err != nil {
		if quarry.ErrorCode(err) == quarry.ECodeNotFound {
			return nil, err
		}
		return nil, fmt.Errorf("get research %s: %w", id, err)
	}
	return r, nil
}

// loadResult reads everything r.Request produced into r.
func loadResult(ctx context.Context, tx pgx.Tx, r *research.Result) error {
	id := r.Request.ID
	var (
		plan     *research.Plan
		subs     []research.SubQuestion
		discFact = map[string][]string{}
		report   *research.Report
		sections []research.Section
		secFact  = map[string][]string{}
	)
	b := &pgx.Batch{}
	b.Queue("SELECT id, created_at, estimated_time_seconds FROM research_plans WHERE request_id = $1", id).QueryRow(func(row pgx.Row) error {
		p := research.Plan{RequestID: id}
		err := row.Scan(&p.ID, &p.CreatedAt, &p.EstimatedTimeSeconds)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		p.CreatedAt = p.CreatedAt.UTC()
		plan = &p
		return err
	})
	b.Queue(`SELECT sq.id, sq.plan_id, sq.text, sq.priority, COALESCE(sq.parent_question_id, ''), sq.depth, sq.status, sq.aspect
		FROM sub_questions sq JOIN research_plans p ON p.id = sq.plan_id WHERE p.request_id = $1 ORDER BY sq.position`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			sq := research.SubQuestion{SearchResults: []research.SearchResult{}}
			err := rows.Scan(&sq.ID, &sq.PlanID, &sq.Text, &sq.Priority, &sq.ParentID, &sq.Depth, &sq.Status, &sq.Aspect)
			subs = append(subs, sq)
			return err
		})
	})
	b.Queue(`SELECT id, sub_question_id, url, title, content, domain, access_timestamp, credibility_score, published, extracted_facts
		FROM search_results WHERE request_id = $1 ORDER BY position`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			var sr research.SearchResult
			var published *time.Time
			if err := rows.Scan(&sr.ID, &sr.SubQuestionID, &sr.URL, &sr.Title, &sr.Content, &sr.Domain, &sr.AccessTimestamp, &sr.CredibilityScore, &published, &sr.ExtractedFacts); err != nil {
				return err
			}
			sr.AccessTimestamp = sr.AccessTimestamp.UTC()
			if published != nil {
				sr.Published = published.UTC()
			}
			r.Sources = append(r.Sources, sr)
			return nil
		})
	})
	b.Queue(`SELECT id, topic, sides, strategy, preferred, resolution, resolution_confidence, created_at
		FROM discrepancies WHERE request_id = $1 ORDER BY position`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			var d research.Discrepancy
			if err := rows.Scan(&d.ID, &d.Topic, &d.Sides, &d.Strategy, &d.Preferred, &d.Resolution, &d.ResolutionConfidence, &d.CreatedAt); err != nil {
				return err
			}
			d.CreatedAt = d.CreatedAt.UTC()
			r.Discrepancies = append(r.Discrepancies, d)
			return nil
		})
	})
	b.Queue(`SELECT fd.discrepancy_id, fd.fact_id FROM fact_discrepancies fd JOIN discrepancies d ON d.id = fd.discrepancy_id
		WHERE d.request_id = $1 ORDER BY d.position, fd.position`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			var d, f string
			err := rows.Scan(&d, &f)
			discFact[d] = append(discFact[d], f)
			return err
		})
	})
	b.Queue(`SELECT id, text, source_url, source_id, source_title, confidence, section, extraction_timestamp, verified, COALESCE(discrepancy_id, ''),
		sub_question_id, subject, entity, attribute, value, passage FROM facts WHERE request_id = $1 ORDER BY position`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			var f research.Fact
			if err := rows.Scan(&f.ID, &f.Text, &f.SourceURL, &f.SourceID, &f.SourceTitle, &f.Confidence, &f.Section, &f.ExtractionTimestamp, &f.Verified, &f.DiscrepancyID,
				&f.SubQuestionID, &f.Subject, &f.Entity, &f.Attribute, &f.Value, &f.Passage); err != nil {
				return err
			}
			f.ExtractionTimestamp = f.ExtractionTimestamp.UTC()
			r.Facts = append(r.Facts, f)
			return nil
		})
	})
	b.Queue(`SELECT id, executive_summary, total_word_count, total_sources, generated_at, quality_score, limitations
		FROM narrative_reports WHERE request_id = $1`, id).QueryRow(func(row pgx.Row) error {
		rep := research.Report{RequestID: id}
		err := row.Scan(&rep.ID, &rep.ExecutiveSummary, &rep.TotalWordCount, &rep.TotalSources, &rep.GeneratedAt, &rep.QualityScore, &rep.Limitations)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		rep.GeneratedAt = rep.GeneratedAt.UTC()
		report = &rep
		return err
	})
	b.Queue(`SELECT s.id, s.report_id, s.title, s.content, s."order" FROM report_sections s JOIN narrative_reports n ON n.id = s.report_id
		WHERE n.request_id = $1 ORDER BY s."order", s.id`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			sec := research.Section{FactIDs: []string{}}
			err := rows.Scan(&sec.ID, &sec.ReportID, &sec.Title, &sec.Content, &sec.Order)
			sections = append(sections, sec)
			return err
		})
	})
	b.Queue(`SELECT sf.section_id, sf.fact_id FROM section_facts sf JOIN report_sections s ON s.id = sf.section_id
		JOIN narrative_reports n ON n.id = s.report_id WHERE n.request_id = $1 ORDER BY sf.section_id, sf.citation_order`, id).Query(func(rows pgx.Rows) error {
		return each(rows, func() error {
			var sec, f string
			err := rows.Scan(&sec, &f)
			secFact[sec] = append(secFact[sec], f)
			return err
		})
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}

	if plan != nil {
		plan.SubQuestions = subs
		at := make(map[string]int, len(subs))
		for i, sq := range subs {
			at[sq.ID] = i
		}
		for _, sr := range r.Sources {
			if i, ok := at[sr.SubQuestionID]; ok {
				subs[i].SearchResults = append(subs[i].SearchResults, sr)
			}
		}
		r.Plan = plan
	}
	for i := range r.Discrepancies {
		r.Discrepancies[i].FactIDs = discFact[r.Discrepancies[i].ID]
	}
	if report != nil {
		for i := range sections {
			sections[i].FactIDs = append(sections[i].FactIDs, secFact[sections[i].ID]...)
		}
		report.Sections = sections
		r.Report = report
	}
	return nil
}

// each calls scan for every row of rows.
func each(rows pgx.Rows, scan func() error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(); err != nil {
			return err
		}
	}
	return rows.Err()
}

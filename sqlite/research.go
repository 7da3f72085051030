package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/research"
)

// Research keeps research results (research.Store) in their own SQLite
// file, db/research.db under the data dir, in the data model's tables:
// requests, plans, sub-questions, search results, facts, discrepancies,
// reports and sections, with the junction tables fact_discrepancies and
// section_facts. Deleting a request cascades to everything it produced.
type Research struct{ write, read *sql.DB }

var _ research.Store = (*Research)(nil)

const researchSchema = `
CREATE TABLE IF NOT EXISTS research_requests (
    id TEXT PRIMARY KEY,
    query TEXT NOT NULL CHECK (length(query) BETWEEN 10 AND 500),
    depth_level TEXT NOT NULL CHECK (depth_level IN ('quick', 'standard', 'comprehensive')),
    user_id TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('planning', 'executing', 'verifying', 'synthesizing', 'completed', 'failed')),
    completion_time_seconds REAL,
    error TEXT NOT NULL DEFAULT '',
    ambiguities TEXT NOT NULL DEFAULT '[]',
    answer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_research_requests_user ON research_requests(user_id, created_at);
CREATE TABLE IF NOT EXISTS research_plans (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL UNIQUE REFERENCES research_requests(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    estimated_time_seconds INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sub_questions (
    id TEXT PRIMARY KEY,
    plan_id TEXT NOT NULL REFERENCES research_plans(id) ON DELETE CASCADE,
    text TEXT NOT NULL CHECK (length(text) BETWEEN 10 AND 200),
    priority INTEGER NOT NULL CHECK (priority BETWEEN 1 AND 10),
    parent_question_id TEXT REFERENCES sub_questions(id) ON DELETE CASCADE,
    depth INTEGER NOT NULL CHECK (depth BETWEEN 0 AND 3),
    status TEXT NOT NULL CHECK (status IN ('pending', 'searching', 'completed', 'failed')),
    aspect TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL,
    UNIQUE (plan_id, priority)
);
CREATE INDEX IF NOT EXISTS idx_sub_questions_parent ON sub_questions(parent_question_id);
CREATE TABLE IF NOT EXISTS search_results (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    sub_question_id TEXT NOT NULL REFERENCES sub_questions(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    content TEXT NOT NULL CHECK (length(content) <= 10000),
    domain TEXT NOT NULL,
    access_timestamp TEXT NOT NULL,
    credibility_score REAL CHECK (credibility_score BETWEEN 0 AND 1),
    published TEXT NOT NULL DEFAULT '',
    extracted_facts TEXT NOT NULL DEFAULT '[]',
    position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_search_results_domain ON search_results(domain);
CREATE INDEX IF NOT EXISTS idx_search_results_request ON search_results(request_id);
CREATE TABLE IF NOT EXISTS discrepancies (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    topic TEXT NOT NULL,
    sides TEXT NOT NULL,
    strategy TEXT NOT NULL CHECK (strategy IN ('recency', 'credibility', 'consensus', 'uncertainty')),
    preferred TEXT NOT NULL DEFAULT '',
    resolution TEXT NOT NULL DEFAULT '',
    resolution_confidence REAL CHECK (resolution_confidence BETWEEN 0 AND 1),
    created_at TEXT NOT NULL,
    position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS facts (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    text TEXT NOT NULL CHECK (length(text) BETWEEN 10 AND 500),
    source_url TEXT NOT NULL,
    source_id TEXT NOT NULL REFERENCES search_results(id) ON DELETE CASCADE,
    source_title TEXT NOT NULL DEFAULT '',
    confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    section TEXT NOT NULL DEFAULT '',
    extraction_timestamp TEXT NOT NULL,
    verified INTEGER NOT NULL DEFAULT 0,
    discrepancy_id TEXT REFERENCES discrepancies(id) ON DELETE SET NULL,
    sub_question_id TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL DEFAULT '',
    entity TEXT NOT NULL DEFAULT '',
    attribute TEXT NOT NULL DEFAULT '',
    value TEXT NOT NULL DEFAULT '',
    passage TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_facts_source ON facts(source_url);
CREATE INDEX IF NOT EXISTS idx_facts_request ON facts(request_id);
CREATE TABLE IF NOT EXISTS fact_discrepancies (
    fact_id TEXT NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    discrepancy_id TEXT NOT NULL REFERENCES discrepancies(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (fact_id, discrepancy_id)
);
CREATE TABLE IF NOT EXISTS narrative_reports (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL UNIQUE REFERENCES research_requests(id) ON DELETE CASCADE,
    executive_summary TEXT NOT NULL,
    total_word_count INTEGER NOT NULL,
    total_sources INTEGER NOT NULL,
    generated_at TEXT NOT NULL,
    quality_score REAL CHECK (quality_score BETWEEN 0 AND 1),
    limitations TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS report_sections (
    id TEXT PRIMARY KEY,
    report_id TEXT NOT NULL REFERENCES narrative_reports(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    "order" INTEGER NOT NULL CHECK ("order" BETWEEN 1 AND 10)
);
CREATE TABLE IF NOT EXISTS section_facts (
    section_id TEXT NOT NULL REFERENCES report_sections(id) ON DELETE CASCADE,
    fact_id TEXT NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    citation_order INTEGER NOT NULL,
    PRIMARY KEY (section_id, fact_id)
);
`

// OpenResearch opens (creating) the research store at path; ":memory:"
// opens a private one for tests.
func OpenResearch(path string) (*Research, error) {
	setup := func(db *sql.DB) error {
		if _, err := db.Exec(researchSchema); err != nil {
			return err
		}
		return fixTimes(db)
	}
	if path == ":memory:" {
		db, err := sql.Open("sqlite", ":memory:?_pragma=foreign_keys(1)")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetConnMaxIdleTime(0)
		db.SetConnMaxLifetime(0)
		if err := setup(db); err != nil {
			db.Close()
			return nil, err
		}
		return &Research{write: db, read: db}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	write, read, err := openFile(path, setup)
	if err != nil {
		return nil, err
	}
	return &Research{write: write, read: read}, nil
}

// Close closes the store.
func (s *Research) Close() error { return closePair(s.write, s.read) }

// timeLayout is how times are written: in UTC with all nine fractional
// digits, so that their text order is their time order and List can
// sort on created_at. (RFC3339Nano drops trailing zeros, and
// "12:00:00Z" sorts after "12:00:00.5Z".)
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// timeWidth is the length of every time written in timeLayout.
const timeWidth = len("2006-01-02T15:04:05.000000000Z")

func ts(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

// parseTS reads a time in timeLayout, or in RFC3339Nano as rows written
// before it have them.
func parseTS(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// fixedTimes is the user_version of a research.db whose requests'
// created_at are all in timeLayout.
const fixedTimes = 1

// fixTimes rewrites, once, the requests' created_at that an older Quarry
// wrote in RFC3339Nano into timeLayout, so that they sort among the new
// ones. The other times are only read back, never sorted on.
func fixTimes(db *sql.DB) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version >= fixedTimes {
		return nil
	}
	type row struct{ id, created string }
	var old []row
	err = queryEach(context.Background(), tx, "SELECT id, created_at FROM research_requests WHERE created_at <> '' AND length(created_at) <> ?", []any{timeWidth},
		func(rows *sql.Rows) error {
			var r row
			if err := rows.Scan(&r.id, &r.created); err != nil {
				return err
			}
			old = append(old, r)
			return nil
		})
	if err != nil {
		return err
	}
	for _, r := range old {
		t, err := time.Parse(time.RFC3339Nano, r.created)
		if err != nil {
			continue // read back as the zero time, as before
		}
		if _, err := tx.Exec("UPDATE research_requests SET created_at = ? WHERE id = ?", ts(t), r.id); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", fixedTimes)); err != nil {
		return err
	}
	return tx.Commit()
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs and slices always marshal
	}
	return string(b)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Save implements research.Store.
func (s *Research) Save(ctx context.Context, r *research.Result) error {
	if err := r.Validate(); err != nil {
		return err
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save research %s: %w", r.Request.ID, err)
	}
	defer tx.Rollback()
	if err := saveResult(ctx, tx, r); err != nil {
		return fmt.Errorf("save research %s: %w", r.Request.ID, quarry.StorageError(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save research %s: %w", r.Request.ID, quarry.StorageError(err))
	}
	return nil
}

func saveResult(ctx context.Context, tx *sql.Tx, r *research.Result) error {
	q := r.Request
	if _, err := tx.ExecContext(ctx, "DELETE FROM research_requests WHERE id = ?", q.ID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO research_requests (id, query, depth_level, user_id, created_at, status, completion_time_seconds, error, ambiguities, answer)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, q.ID, q.Query, q.Depth, q.UserID, ts(q.CreatedAt), q.Status, q.CompletionTimeSeconds, q.Error, jsonText(orEmpty(r.Ambiguities)), r.Answer); err != nil {
		return err
	}
	if p := r.Plan; p != nil {
		if _, err := tx.ExecContext(ctx, "INSERT INTO research_plans (id, request_id, created_at, estimated_time_seconds) VALUES (?, ?, ?, ?)",
			p.ID, q.ID, ts(p.CreatedAt), p.EstimatedTimeSeconds); err != nil {
			return err
		}
		// Parents first, so that the self-reference holds on insert.
		for depth := 0; depth <= research.MaxDepth; depth++ {
			for i, sq := range p.SubQuestions {
				if sq.Depth != depth {
					continue
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO sub_questions (id, plan_id, text, priority, parent_question_id, depth, status, aspect, position)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, sq.ID, p.ID, sq.Text, sq.Priority, nullable(sq.ParentID), sq.Depth, sq.Status, sq.Aspect, i); err != nil {
					return err
				}
			}
		}
	}
	for i, sr := range r.Sources {
		if _, err := tx.ExecContext(ctx, `INSERT INTO search_results (id, request_id, sub_question_id, url, title, content, domain, access_timestamp, credibility_score, published, extracted_facts, position)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, sr.ID, q.ID, sr.SubQuestionID, sr.URL, sr.Title, sr.Content, sr.Domain, ts(sr.AccessTimestamp),
			sr.CredibilityScore, ts(sr.Published), jsonText(orEmpty(sr.ExtractedFacts)), i); err != nil {
			return err
		}
	}
	for i, d := range r.Discrepancies {
		if _, err := tx.ExecContext(ctx, `INSERT INTO discrepancies (id, request_id, topic, sides, strategy, preferred, resolution, resolution_confidence, created_at, position)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.ID, q.ID, d.Topic, jsonText(orEmpty(d.Sides)), d.Strategy, d.Preferred, d.Resolution, d.ResolutionConfidence, ts(d.CreatedAt), i); err != nil {
			return err
		}
	}
	for i, f := range r.Facts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO facts (id, request_id, text, source_url, source_id, source_title, confidence, section, extraction_timestamp,
			verified, discrepancy_id, sub_question_id, subject, entity, attribute, value, passage, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			f.ID, q.ID, f.Text, f.SourceURL, f.SourceID, f.SourceTitle, f.Confidence, f.Section, ts(f.ExtractionTimestamp), f.Verified, nullable(f.DiscrepancyID),
			f.SubQuestionID, f.Subject, f.Entity, f.Attribute, f.Value, f.Passage, i); err != nil {
			return err
		}
	}
	for _, d := range r.Discrepancies {
		for i, id := range d.FactIDs {
			if _, err := tx.ExecContext(ctx, "INSERT INTO fact_discrepancies (fact_id, discrepancy_id, position) VALUES (?, ?, ?)", id, d.ID, i); err != nil {
				return err
			}
		}
	}
	if rep := r.Report; rep != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO narrative_reports (id, request_id, executive_summary, total_word_count, total_sources, generated_at, quality_score, limitations)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, rep.ID, q.ID, rep.ExecutiveSummary, rep.TotalWordCount, rep.TotalSources, ts(rep.GeneratedAt), rep.QualityScore, jsonText(orEmpty(rep.Limitations))); err != nil {
			return err
		}
		for _, sec := range rep.Sections {
			if _, err := tx.ExecContext(ctx, `INSERT INTO report_sections (id, report_id, title, content, "order") VALUES (?, ?, ?, ?, ?)`,
				sec.ID, rep.ID, sec.Title, sec.Content, sec.Order); err != nil {
				return err
			}
			for i, id := range sec.FactIDs {
				if _, err := tx.ExecContext(ctx, "INSERT INTO section_facts (section_id, fact_id, citation_order) VALUES (?, ?, ?)", sec.ID, id, i); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// orEmpty returns s, or an empty slice for nil, so that JSON holds [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

const requestColumns = "id, query, depth_level, user_id, created_at, status, completion_time_seconds, error, ambiguities, answer"

func scanRequest(row interface{ Scan(...any) error }) (*research.Request, []research.Ambiguity, string, error) {
	var q research.Request
	var created, amb, answer string
	var secs sql.NullFloat64
	if err := row.Scan(&q.ID, &q.Query, &q.Depth, &q.UserID, &created, &q.Status, &secs, &q.Error, &amb, &answer); err != nil {
		return nil, nil, "", err
	}
	q.CreatedAt = parseTS(created)
	if secs.Valid {
		q.CompletionTimeSeconds = &secs.Float64
	}
	var ambiguities []research.Ambiguity
	if err := json.Unmarshal([]byte(amb), &ambiguities); err != nil {
		return nil, nil, "", err
	}
	return &q, ambiguities, answer, nil
}

// Get implements research.Store.
func (s *Research) Get(ctx context.Context, id string) (*research.Result, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	q, amb, answer, err := scanRequest(tx.QueryRowContext(ctx, "SELECT "+requestColumns+" FROM research_requests WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no research %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get research %s: %w", id, err)
	}
	r := &research.Result{Request: q, Ambiguities: amb, Answer: answer}
	if err := loadResult(ctx, tx, r); err != nil {
		return nil, fmt.Errorf("get research %s: %w", id, err)
	}
	return r, nil
}

// queryEach runs query and calls scan for every row.
func queryEach(ctx context.Context, tx *sql.Tx, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func loadResult(ctx context.Context, tx *sql.Tx, r *research.Result) error {
	id := []any{r.Request.ID}
	var p research.Plan
	var created string
	err := tx.QueryRowContext(ctx, "SELECT id, created_at, estimated_time_seconds FROM research_plans WHERE request_id = ?", id...).Scan(&p.ID, &created, &p.EstimatedTimeSeconds)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		p.RequestID, p.CreatedAt = r.Request.ID, parseTS(created)
		err := queryEach(ctx, tx, `SELECT id, text, priority, COALESCE(parent_question_id, ''), depth, status, aspect FROM sub_questions WHERE plan_id = ? ORDER BY position`,
			[]any{p.ID}, func(rows *sql.Rows) error {
				sq := research.SubQuestion{PlanID: p.ID, SearchResults: []research.SearchResult{}}
				if err := rows.Scan(&sq.ID, &sq.Text, &sq.Priority, &sq.ParentID, &sq.Depth, &sq.Status, &sq.Aspect); err != nil {
					return err
				}
				p.SubQuestions = append(p.SubQuestions, sq)
				return nil
			})
		if err != nil {
			return err
		}
		r.Plan = &p
	}
	err = queryEach(ctx, tx, `SELECT id, sub_question_id, url, title, content, domain, access_timestamp, credibility_score, published, extracted_facts
		FROM search_results WHERE request_id = ? ORDER BY position`, id, func(rows *sql.Rows) error {
		var sr research.SearchResult
		var access, published, facts string
		if err := rows.Scan(&sr.ID, &sr.SubQuestionID, &sr.URL, &sr.Title, &sr.Content, &sr.Domain, &access, &sr.CredibilityScore, &published, &facts); err != nil {
			return err
		}
		sr.AccessTimestamp, sr.Published = parseTS(access), parseTS(published)
		if err := json.Unmarshal([]byte(facts), &sr.ExtractedFacts); err != nil {
			return err
		}
		r.Sources = append(r.Sources, sr)
		return nil
	})
	if err != nil {
		return err
	}
	if r.Plan != nil {
		at := map[string]int{}
		for i, sq := range r.Plan.SubQuestions {
			at[sq.ID] = i
		}
		for _, sr := range r.Sources {
			if i, ok := at[sr.SubQuestionID]; ok {
				r.Plan.SubQuestions[i].SearchResults = append(r.Plan.SubQuestions[i].SearchResults, sr)
			}
		}
	}
	err = queryEach(ctx, tx, `SELECT id, topic, sides, strategy, preferred, resolution, resolution_confidence, created_at FROM discrepancies WHERE request_id = ? ORDER BY position`,
		id, func(rows *sql.Rows) error {
			var d research.Discrepancy
			var sides, created string
			if err := rows.Scan(&d.ID, &d.Topic, &sides, &d.Strategy, &d.Preferred, &d.Resolution, &d.ResolutionConfidence, &created); err != nil {
				return err
			}
			d.CreatedAt = parseTS(created)
			if err := json.Unmarshal([]byte(sides), &d.Sides); err != nil {
				return err
			}
			r.Discrepancies = append(r.Discrepancies, d)
			return nil
		})
	if err != nil {
		return err
	}
	for i := range r.Discrepancies {
		d := &r.Discrepancies[i]
		err := queryEach(ctx, tx, "SELECT fact_id FROM fact_discrepancies WHERE discrepancy_id = ? ORDER BY position", []any{d.ID}, func(rows *sql.Rows) error {
			var f string
			err := rows.Scan(&f)
			d.FactIDs = append(d.FactIDs, f)
			return err
		})
		if err != nil {
			return err
		}
	}
	err = queryEach(ctx, tx, `SELECT id, text, source_url, source_id, source_title, confidence, section, extraction_timestamp, verified, COALESCE(discrepancy_id, ''),
		sub_question_id, subject, entity, attribute, value, passage FROM facts WHERE request_id = ? ORDER BY position`, id, func(rows *sql.Rows) error {
		var f research.Fact
		var extracted string
		if err := rows.Scan(&f.ID, &f.Text, &f.SourceURL, &f.SourceID, &f.SourceTitle, &f.Confidence, &f.Section, &extracted, &f.Verified, &f.DiscrepancyID,
			&f.SubQuestionID, &f.Subject, &f.Entity, &f.Attribute, &f.Value, &f.Passage); err != nil {
			return err
		}
		f.ExtractionTimestamp = parseTS(extracted)
		r.Facts = append(r.Facts, f)
		return nil
	})
	if err != nil {
		return err
	}
	return loadReport(ctx, tx, r)
}

func loadReport(ctx context.Context, tx *sql.Tx, r *research.Result) error {
	var rep research.Report
	var generated, limitations string
	err := tx.QueryRowContext(ctx, `SELECT id, executive_summary, total_word_count, total_sources, generated_at, quality_score, limitations FROM narrative_reports WHERE request_id = ?`,
		r.Request.ID).Scan(&rep.ID, &rep.ExecutiveSummary, &rep.TotalWordCount, &rep.TotalSources, &generated, &rep.QualityScore, &limitations)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rep.RequestID, rep.GeneratedAt = r.Request.ID, parseTS(generated)
	if err := json.Unmarshal([]byte(limitations), &rep.Limitations); err != nil {
		return err
	}
	err = queryEach(ctx, tx, `SELECT id, title, content, "order" FROM report_sections WHERE report_id = ? ORDER BY "order"`, []any{rep.ID}, func(rows *sql.Rows) error {
		sec := research.Section{ReportID: rep.ID}
		err := rows.Scan(&sec.ID, &sec.Title, &sec.Content, &sec.Order)
		rep.Sections = append(rep.Sections, sec)
		return err
	})
	if err != nil {
		return err
	}
	for i := range rep.Sections {
		sec := &rep.Sections[i]
		sec.FactIDs = []string{}
		err := queryEach(ctx, tx, "SELECT fact_id FROM section_facts WHERE section_id = ? ORDER BY citation_order", []any{sec.ID}, func(rows *sql.Rows) error {
			var f string
			err := rows.Scan(&f)
			sec.FactIDs = append(sec.FactIDs, f)
			return err
		})
		if err != nil {
			return err
		}
	}
	r.Report = &rep
	return nil
}

// List implements research.Store.
func (s *Research) List(ctx context.Context, userID string) ([]research.Request, error) {
	rows, err := s.read.QueryContext(ctx, "SELECT "+requestColumns+" FROM research_requests WHERE ? = '' OR user_id = ? ORDER BY created_at DESC, id", userID, userID)
	if err != nil {
		return nil, fmt.Errorf("list research: %w", err)
	}
	defer rows.Close()
	out := []research.Request{}
	for rows.Next() {
		q, _, _, err := scanRequest(rows)
		if err != nil {
			return nil, fmt.Errorf("list research: %w", err)
		}
		out = append(out, *q)
	}
	return out, rows.Err()
}

// Delete implements research.Store.
func (s *Research) Delete(ctx context.Context, id string) error {
	res, err := s.write.ExecContext(ctx, "DELETE FROM research_requests WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete research %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no research %s", id)
	}
	return nil
}

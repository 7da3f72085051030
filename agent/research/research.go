// Package research is the research agent: a question becomes a plan of
// sub-questions, passages found in a corpus, facts read sentence by
// sentence, discrepancies resolved by the data model's strategies, and a
// narrative report whose every claim cites its fact.
//
// Offline it is deterministic: the plan comes from the question's
// entities and the aspects a briefing covers, narrowed to what the corpus
// holds; facts are sentences that state a value (a date, an amount, a
// count, a name, a term) for a sub-question's target; verification groups
// facts by entity, attribute and period, tells different entities that
// share a name (an ambiguity) from sources that disagree about one entity
// (a conflict), and resolves conflicts by correction and recency,
// consensus, credibility, or says it cannot.
//
// With a model (Researcher.Model) the plan, the facts and the report's
// prose may be the model's, each checked by the same rules and replaced
// by the offline step's when the model fails or a check does; see
// model.go.
package research

import (
	"context"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// Passage is a piece of a source that a search returned.
type Passage struct {
	// URL names the source (file://..., room://room/document#page=3).
	URL    string
	Title  string
	Text   string
	Domain string
	// Credibility is 0-1 (see Credibility).
	Credibility float64
	// Published is the source's own date, zero when it states none.
	Published time.Time
	Score     float64
}

// Corpus is where passages come from: a data room (through its
// membership checks), an indexed folder, the web, or several of them
// (Sources).
type Corpus interface {
	// Search returns at most k passages for query, best first.
	Search(ctx context.Context, query string, k int) ([]Passage, error)
}

// Researcher runs research requests over a corpus.
type Researcher struct {
	Corpus Corpus
	// Now and NewID default to time.Now and quarry.NewID.
	Now   func() time.Time
	NewID func() string
	// Progress, when set, hears each stage as it starts and ends.
	Progress func(rs.Stage)
	// PassagesPerQuestion is how many passages each sub-question reads;
	// default research.MaxResults.
	PassagesPerQuestion int
	// Model, when set, writes the plan, extracts facts and writes the
	// report's prose, each checked as the offline step's output is and
	// replaced by it when the model fails or a check does (model.go).
	// Nil is offline.
	Model llm.Model
}

func (r *Researcher) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Researcher) id() string {
	if r.NewID != nil {
		return r.NewID()
	}
	return quarry.NewID()
}

func (r *Researcher) report(status rs.Status, format string, args ...any) {
	if r.Progress != nil {
		r.Progress(rs.Stage{Status: status, Message: fmt.Sprintf(format, args...)})
	}
}

// Run researches req, which must be in status planning, and returns the
// completed result. A failure in a stage moves the request to failed and
// returns the error with the result so far; a result is returned whole
// and valid (research.Result.Validate) or not at all.
func (r *Researcher) Run(ctx context.Context, req *rs.Request) (*rs.Result, error) {
	start := r.now()
	res := &rs.Result{Request: req, Sources: []rs.SearchResult{}, Facts: []rs.Fact{}, Discrepancies: []rs.Discrepancy{}, Ambiguities: []rs.Ambiguity{}}
	fail := func(err error) (*rs.Result, error) {
		req.Error = quarry.ErrorMessage(err)
		_ = req.Move(rs.StatusFailed)
		r.report(rs.StatusFailed, "%s", req.Error)
		return res, err
	}
	if err := req.Validate(); err != nil {
		return fail(err)
	}
	r.watchSources(req)
	r.report(rs.StatusPlanning, "planning %s research", req.Depth)
	q := parseQuestion(req.Query)
	ai := r.assist()
	plan, err := ai.plan(ctx, req, q)
	if err != nil {
		return fail(err)
	}
	res.Plan = plan
	r.report(rs.StatusPlanning, "%d sub-questions", len(plan.SubQuestions))

	if err := req.Move(rs.StatusExecuting); err != nil {
		return fail(err)
	}
	claims, err := r.execute(ctx, res, q, ai)
	if err != nil {
		return fail(err)
	}
	ai.factsDone(rs.StatusExecuting)
	r.report(rs.StatusExecuting, "%d sources read, %d facts extracted", len(res.Sources), len(res.Facts))

	if err := req.Move(rs.StatusVerifying); err != nil {
		return fail(err)
	}
	if q.Target.Broad {
		q.ents = resolveEntities(res, q)
	}
	verify(res, claims, q.ents, r.now().UTC(), r.id)
	r.report(rs.StatusVerifying, "%d discrepancies, %d ambiguous names", len(res.Discrepancies), len(res.Ambiguities))

	if err := req.Move(rs.StatusSynthesizing); err != nil {
		return fail(err)
	}
	res.Report = ai.synthesize(ctx, res, q)
	noteFailures(res.Report, r.Corpus)
	ai.summary(rs.StatusSynthesizing)
	r.report(rs.StatusSynthesizing, "%d sections, %d words, quality %.2f", len(res.Report.Sections), res.Report.TotalWordCount, res.Report.QualityScore)

	if err := ctx.Err(); err != nil {
		return fail(quarry.Errorf(quarry.ECodeUnavailable, "research stopped: %w", err))
	}
	if err := res.Validate(); err != nil {
		return fail(fmt.Errorf("research produced an invalid result: %w", err))
	}
	if err := req.Move(rs.StatusCompleted); err != nil {
		return fail(err)
	}
	secs := r.now().Sub(start).Seconds()
	req.CompletionTimeSeconds = &secs
	r.report(rs.StatusCompleted, "completed in %.1fs", secs)
	return res, nil
}

package rooms

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
)

// retrievalDepth is how many pages an answer is built from.
const retrievalDepth = 20

// Ask answers a question over a room userID is in, records it with its
// citations, and counts it against the hourly limit. Errors: INVALID for
// a question outside 5-2000 characters, RATE_LIMITED (with the seconds
// until the window ends in the hint) past room.QueriesPerHour, NOT_FOUND
// for a room the user is not in. A failure after the question was
// accepted is recorded as an answer of type error and returned with it.
// The question, its retrieval, the model's call and the evidence decision
// are written to the audit log (AuditLog): a question the log cannot take
// is refused with the log's error, and an answer whose entries cannot be
// written is withheld, an answer of type error.
//
// The answer is worked out from the question as asked, and returned so;
// what is stored (the query, its citations' previews, the audit log's
// entries) has e-mail addresses, phone numbers and the like masked
// (MaskPII), so that history and export show them [redacted].
func (s *Service) Ask(ctx context.Context, userID, roomID, question string) (*room.Query, error) {
	ctx = act(ctx, userID)
	question = strings.TrimSpace(question)
	if n := utf8.RuneCountInString(question); n < room.MinQuestionChars || n > room.MaxQuestionChars {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the question is %d characters; it must be %d to %d", n, room.MinQuestionChars, room.MaxQuestionChars)
	}
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return nil, err
	}
	start := s.now()
	if err := s.takeQuota(ctx, userID, roomID, start); err != nil {
		return nil, err
	}
	q := &room.Query{ID: quarry.NewID(), UserID: userID, RoomID: roomID, Question: question, CreatedAt: start, Citations: []room.Citation{}}
	if err := s.recordQuestion(q); err != nil {
		return nil, err
	}
	docs, err := s.Store.ListDocuments(ctx, roomID)
	var pages []ask.PageHit
	var vectorModel string
	if err == nil {
		req := ask.Request{RoomID: roomID, Docs: docs, Question: question, K: retrievalDepth}
		req.Vector, req.Model = s.embedQuestion(ctx, question)
		vectorModel = req.Model
		pages, err = ask.Retrieve(ctx, s.Store, req)
	}
	q.RetrievalMS = int(s.now().Sub(start).Milliseconds())
	if err != nil {
		q.AnswerType, q.ErrorType, q.ErrorMessage = room.AnswerError, quarry.ErrorCode(err), quarry.ErrorMessage(err)
		q.Answer = "The room could not be searched: " + q.ErrorMessage
	} else {
		s.answer(ctx, q, docs, pages)
		if q.Citations == nil {
			q.Citations = []room.Citation{}
		}
		for _, p := range pages {
			q.ChunksRetrieved += len(p.Chunks)
		}
	}
	if aerr := s.recordAnswer(q, pages, vectorModel, err); aerr != nil {
		withhold(q, aerr)
	}
	done := s.now()
	q.CompletedAt = &done
	q.TotalMS = int(done.Sub(start).Milliseconds())
	if err := s.Store.SaveQuery(context.WithoutCancel(ctx), redacted(q)); err != nil {
		return nil, err
	}
	return q, nil
}

// embedQuestion is the question's vector when an embedder is configured;
// a failing embedder leaves the question to its words.
func (s *Service) embedQuestion(ctx context.Context, question string) ([]float32, string) {
	if s.Embedder == nil || s.EmbeddingModel == "" {
		return nil, ""
	}
	vs, err := s.Embedder.Embed(ctx, []string{question})
	if err != nil || len(vs) != 1 {
		s.log().Warn("embedding the question failed; searching by its words only", "model", s.EmbeddingModel, "err", err)
		return nil, ""
	}
	return vs[0], s.EmbeddingModel
}

// answer writes the answer to q from the pages found: by the model when
// one is configured and there is evidence to give it, checked number by
// number against its citations; otherwise, or when the model fails, by
// the offline analyst's extract, which quotes the passages.
func (s *Service) answer(ctx context.Context, q *room.Query, docs []room.Document, pages []ask.PageHit) {
	completed := 0
	for _, d := range docs {
		if d.Status == room.StatusCompleted {
			completed++
		}
	}
	a := ask.Extract(q.Question, pages, completed, ask.RarityOf(ctx, s.Store, q.RoomID, q.Question))
	if s.Model != nil && len(pages) > 0 {
		// The model reads the passages whatever the extract decided: it
		// may answer what the extract refused, or refuse what it quoted;
		// its numbers are checked against what it cites either way.
		t0 := s.now()
		g, err := ask.Generate(ctx, s.Model, s.Store, q.Question, pages)
		q.LLMMS = int(s.now().Sub(t0).Milliseconds())
		q.ModelUsed = s.Model.Name()
		if err == nil {
			q.Answer, q.AnswerType, q.Citations = g.Text, g.Type, g.Citations
			q.TokensInput, q.TokensOutput = g.Usage.InputTokens, g.Usage.OutputTokens
			q.RetryCount = retries(g.Attempts)
			return
		}
		// The model failed, after the one retry the specification allows
		// when its failure was one a retry may mend: the extract stands,
		// and the query says why the model did not answer and how many
		// times it was asked again.
		q.RetryCount = retries(llm.Attempts(err))
		q.ErrorType, q.ErrorMessage = "model_error", err.Error()
		s.log().Warn("the model did not answer; the extract stands", "model", q.ModelUsed, "err", err)
	}
	q.Answer, q.AnswerType, q.Citations = a.Text, a.Type, a.Citations
}

// retries is retry_count for a model asked attempts times, within the
// specification's bound.
func retries(attempts int) int {
	return min(max(attempts-1, 0), room.MaxRetries)
}

// query returns a query of userID's own. Errors: NOT_FOUND for another
// user's query, whatever the room.
func (s *Service) query(ctx context.Context, userID, queryID string) (*room.Query, error) {
	ctx = act(ctx, userID)
	q, err := s.Store.Query(ctx, queryID)
	if err != nil {
		return nil, err
	}
	if q.UserID != userID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no query %s", queryID)
	}
	if _, err := s.access(ctx, userID, q.RoomID, room.RoleViewer); err != nil {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no query %s", queryID)
	}
	return q, nil
}

// Query returns one of userID's queries with its citations and feedback.
func (s *Service) Query(ctx context.Context, userID, queryID string) (*room.Query, error) {
	return s.query(ctx, userID, queryID)
}

// Feedback rates one of userID's answers, replacing an earlier rating.
// Errors: INVALID for another rating or a comment over 2000 characters.
func (s *Service) Feedback(ctx context.Context, userID, queryID, rating, comment string) (*room.Feedback, error) {
	ctx = act(ctx, userID)
	if rating != room.RatingHelpful && rating != room.RatingNotHelpful {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "rating %q: want helpful or not_helpful", rating)
	}
	if n := utf8.RuneCountInString(comment); n > room.MaxCommentChars {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the comment is %d characters; at most %d", n, room.MaxCommentChars)
	}
	q, err := s.query(ctx, userID, queryID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	f := room.Feedback{QueryID: q.ID, UserID: userID, Rating: rating, Comment: cut(MaskPII(comment), room.MaxCommentChars), CreatedAt: now, UpdatedAt: now}
	if q.Feedback != nil {
		f.CreatedAt = q.Feedback.CreatedAt
	}
	return &f, s.Store.PutFeedback(ctx, f)
}

// History lists userID's questions in a room, newest first, limit at a
// time (default 20), before a time for the next page.
func (s *Service) History(ctx context.Context, userID, roomID string, before time.Time, limit int) ([]room.Query, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 20
	}
	return s.Store.History(ctx, userID, roomID, before, min(limit, room.MaxHistoryPage))
}

// DeleteHistory removes userID's questions in a room.
func (s *Service) DeleteHistory(ctx context.Context, userID, roomID string) (int, error) {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return 0, err
	}
	return s.Store.DeleteHistory(ctx, userID, roomID)
}

// ExportHistory returns all of userID's questions in a room with their
// answers, citations and feedback, personal data masked (the right of
// access), as they are stored.
func (s *Service) ExportHistory(ctx context.Context, userID, roomID string) (*room.Export, error) {
	ctx = act(ctx, userID)
	m, err := s.access(ctx, userID, roomID, room.RoleViewer)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.Room(ctx, roomID)
	if err != nil {
		return nil, err
	}
	e := &room.Export{Room: r.Name, User: m.UserName, ExportedAt: s.now().UTC(), Queries: []room.Query{}}
	var before time.Time
	for {
		page, err := s.Store.History(ctx, userID, roomID, before, room.MaxHistoryPage)
		if err != nil {
			return nil, err
		}
		for _, q := range page {
			// Stored queries are redacted already; those stored before
			// redaction was are redacted here.
			e.Queries = append(e.Queries, *redacted(&q))
		}
		if len(page) < room.MaxHistoryPage {
			return e, nil
		}
		before = page[len(page)-1].CreatedAt
	}
}

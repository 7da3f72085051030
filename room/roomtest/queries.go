package roomtest

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// query saves a grounded answer of u in r citing chunks, ranked in order.
func (f *fixture) query(t *testing.T, u *room.User, r *room.Room, cited ...room.Chunk) *room.Query {
	t.Helper()
	q := f.newQuery(u, r, cited...)
	Must(t, f.s.SaveQuery(f.ctx, q))
	return q
}

func (f *fixture) newQuery(u *room.User, r *room.Room, cited ...room.Chunk) *room.Query {
	at := f.next()
	done := at.Add(120 * time.Millisecond)
	q := &room.Query{ID: quarry.NewID(), UserID: u.ID, RoomID: r.ID, Question: "what did the report say?", Answer: "It said so.",
		AnswerType: room.AnswerGrounded, ModelUsed: "offline", RetrievalMS: 20, LLMMS: 0, TotalMS: 120, ChunksRetrieved: 7,
		TokensInput: 11, TokensOutput: 3, RetryCount: 1, CreatedAt: at, CompletedAt: &done, Citations: []room.Citation{}}
	for i, c := range cited {
		q.Citations = append(q.Citations, room.Citation{ChunkID: c.ID, DocumentID: c.DocumentID, PageNumber: c.PageNumber,
			RelevanceScore: 0.9 - 0.1*float64(i), Rank: i + 1, TextPreview: c.Text[:20], Verified: i == 0})
	}
	return q
}

func testQueries(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d, _, cs := f.doc(t, f.a, "cited.txt", []spec{{text: text("one")}}, []spec{{text: text("two")}})
	q := f.query(t, f.alice, f.a, cs[1], cs[0])
	got, err := s.Query(ctx, q.ID)
	Must(t, err)
	if got.UserID != f.alice.ID || got.RoomID != f.a.ID || got.Question != q.Question || got.Answer != q.Answer || got.AnswerType != room.AnswerGrounded ||
		got.ModelUsed != "offline" || got.RetrievalMS != 20 || got.TotalMS != 120 || got.ChunksRetrieved != 7 || got.TokensInput != 11 ||
		got.TokensOutput != 3 || got.RetryCount != 1 || !sameTime(got.CreatedAt, q.CreatedAt) || got.CompletedAt == nil ||
		!sameTime(*got.CompletedAt, *q.CompletedAt) || got.Feedback != nil {
		t.Errorf("Query = %+v; want %+v", got, q)
	}
	if len(got.Citations) != 2 {
		t.Fatalf("citations = %+v; want 2", got.Citations)
	}
	for i, c := range got.Citations {
		w := q.Citations[i]
		if c.Rank != i+1 || c.ChunkID != w.ChunkID || c.DocumentID != d.ID || c.DocumentName != "cited.txt" || c.PageNumber != w.PageNumber ||
			c.TextPreview != w.TextPreview || c.Verified != w.Verified || c.RelevanceScore < w.RelevanceScore-1e-4 || c.RelevanceScore > w.RelevanceScore+1e-4 || c.ID == "" {
			t.Errorf("citation %d = %+v; want %+v with its document's name", i, c, w)
		}
	}
	_, err = s.Query(ctx, quarry.NewID())
	WantCode(t, "Query(unknown)", err, quarry.ECodeNotFound)
	_, err = s.Query(ctx, "42")
	WantCode(t, "Query(not-an-id)", err, quarry.ECodeNotFound)

	pending := f.newQuery(f.alice, f.a)
	pending.Answer, pending.AnswerType, pending.CompletedAt = "", "", nil
	Must(t, s.SaveQuery(ctx, pending))
	if got, err := s.Query(ctx, pending.ID); err != nil || got.CompletedAt != nil || got.AnswerType != "" || len(got.Citations) != 0 {
		t.Errorf("Query(unanswered) = %+v, %v; want no answer type, no completion, no citations", got, err)
	}
}

func testQueryChecks(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	_, _, cs := f.doc(t, f.a, "cited.txt", []spec{{text: text("one")}})
	cases := map[string]func(q *room.Query){
		"a 4-character question":  func(q *room.Query) { q.Question = "why?" },
		"retry_count 2":           func(q *room.Query) { q.RetryCount = 2 },
		"answer type maybe":       func(q *room.Query) { q.AnswerType = "maybe" },
		"relevance 1.5":           func(q *room.Query) { q.Citations[0].RelevanceScore = 1.5 },
		"rank 0":                  func(q *room.Query) { q.Citations[0].Rank = 0 },
		"a 501-character preview": func(q *room.Query) { q.Citations[0].TextPreview = strings.Repeat("p", 501) },
	}
	for name, change := range cases {
		q := f.newQuery(f.alice, f.a, cs[0])
		change(q)
		WantCode(t, "SaveQuery with "+name, s.SaveQuery(ctx, q), quarry.ECodeInvalid)
		if _, err := s.Query(ctx, q.ID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
			t.Errorf("SaveQuery with %s stored the query: %v", name, err)
		}
	}
}

func testHistory(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	_, _, cs := f.doc(t, f.a, "cited.txt", []spec{{text: text("one")}})
	Must(t, s.PutMember(ctx, room.Member{RoomID: f.a.ID, UserID: f.bob.ID, Role: room.RoleViewer, AddedAt: f.next()}))
	var want []string
	for i := range 25 {
		q := f.query(t, f.alice, f.a, cs[0])
		want = append(want, q.ID)
		if i%5 == 0 {
			f.query(t, f.bob, f.a, cs[0])
			f.query(t, f.bob, f.b)
		}
	}
	slices.Reverse(want)
	var got []string
	var before time.Time
	for page := 0; ; page++ {
		qs, err := s.History(ctx, f.alice.ID, f.a.ID, before, 10)
		Must(t, err)
		if page == 0 && (len(qs) == 0 || len(qs[0].Citations) != 1 || qs[0].Citations[0].DocumentName != "cited.txt") {
			t.Errorf("History's first query = %+v; want it with its citation", qs)
		}
		got = append(got, ids(qs, func(q room.Query) string { return q.ID })...)
		if len(qs) < 10 {
			break
		}
		if page > 3 {
			t.Fatal("History does not end")
		}
		before = qs[len(qs)-1].CreatedAt
	}
	if !slices.Equal(got, want) {
		t.Errorf("History pages = %v\nwant alice's 25 in room A, newest first: %v", got, want)
	}
	n, err := s.DeleteHistory(ctx, f.alice.ID, f.a.ID)
	if err != nil || n != 25 {
		t.Errorf("DeleteHistory = %d, %v; want 25", n, err)
	}
	if qs, err := s.History(ctx, f.alice.ID, f.a.ID, time.Time{}, 10); err != nil || len(qs) != 0 {
		t.Errorf("History after DeleteHistory = %d, %v; want none", len(qs), err)
	}
	if qs, err := s.History(ctx, f.bob.ID, f.a.ID, time.Time{}, 10); err != nil || len(qs) != 5 {
		t.Errorf("History(bob, room A) after alice's DeleteHistory = %d, %v; want his 5", len(qs), err)
	}
	if n, err := s.DeleteHistory(ctx, f.alice.ID, f.a.ID); err != nil || n != 0 {
		t.Errorf("DeleteHistory(again) = %d, %v; want 0", n, err)
	}
}

func testFeedback(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	q := f.query(t, f.alice, f.a)
	first := f.next()
	Must(t, s.PutFeedback(ctx, room.Feedback{QueryID: q.ID, UserID: f.alice.ID, Rating: room.RatingHelpful, Comment: "good", CreatedAt: first, UpdatedAt: first}))
	got, err := s.Query(ctx, q.ID)
	if err != nil || got.Feedback == nil || got.Feedback.Rating != room.RatingHelpful || got.Feedback.Comment != "good" || got.Feedback.UserID != f.alice.ID {
		t.Fatalf("feedback = %+v, %v; want helpful, good", got.Feedback, err)
	}
	later := f.next()
	Must(t, s.PutFeedback(ctx, room.Feedback{QueryID: q.ID, UserID: f.alice.ID, Rating: room.RatingNotHelpful, Comment: "wrong page", CreatedAt: first, UpdatedAt: later}))
	got, err = s.Query(ctx, q.ID)
	if err != nil || got.Feedback == nil || got.Feedback.Rating != room.RatingNotHelpful || got.Feedback.Comment != "wrong page" ||
		!sameTime(got.Feedback.UpdatedAt, later) || !sameTime(got.Feedback.CreatedAt, first) {
		t.Errorf("feedback after a change = %+v, %v; want not_helpful, wrong page, created %v, updated %v", got.Feedback, err, first, later)
	}
	qs, err := s.History(ctx, f.alice.ID, f.a.ID, time.Time{}, 10)
	if err != nil || len(qs) != 1 || qs[0].Feedback == nil || qs[0].Feedback.Rating != room.RatingNotHelpful {
		t.Errorf("History = %+v, %v; want the query with its one, changed feedback", qs, err)
	}
	WantCode(t, "PutFeedback(rating meh)", s.PutFeedback(ctx, room.Feedback{QueryID: q.ID, UserID: f.alice.ID, Rating: "meh", CreatedAt: later, UpdatedAt: later}), quarry.ECodeInvalid)
	long := strings.Repeat("c", 2001)
	WantCode(t, "PutFeedback(2001-character comment)", s.PutFeedback(ctx, room.Feedback{QueryID: q.ID, UserID: f.alice.ID, Rating: room.RatingHelpful, Comment: long, CreatedAt: later, UpdatedAt: later}), quarry.ECodeInvalid)
}

func testTakeQuota(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	w := f.t0.Truncate(time.Hour)
	for i := 1; i <= 4; i++ {
		ok, n, err := s.TakeQuota(ctx, f.alice.ID, f.a.ID, w, 3)
		Must(t, err)
		if wantOK, wantN := i <= 3, min(i, 3); ok != wantOK || n != wantN {
			t.Errorf("TakeQuota #%d (limit 3) = %v, %d; want %v, %d", i, ok, n, wantOK, wantN)
		}
	}
	if ok, n, err := s.TakeQuota(ctx, f.alice.ID, f.a.ID, w.Add(time.Hour), 3); err != nil || !ok || n != 1 {
		t.Errorf("TakeQuota(next hour) = %v, %d, %v; want a fresh window", ok, n, err)
	}
	if ok, n, err := s.TakeQuota(ctx, f.alice.ID, f.b.ID, w, 3); err != nil || !ok || n != 1 {
		t.Errorf("TakeQuota(another room) = %v, %d, %v; want its own window", ok, n, err)
	}
	if ok, n, err := s.TakeQuota(ctx, f.bob.ID, f.a.ID, w, 3); err != nil || !ok || n != 1 {
		t.Errorf("TakeQuota(another user) = %v, %d, %v; want their own window", ok, n, err)
	}
}

func testTakeQuotaConcurrent(t *testing.T, f *fixture) {
	w := f.t0.Truncate(time.Hour)
	const callers, limit = 20, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken, errs := 0, []error{}
	for range callers {
		wg.Go(func() {
			ok, _, err := f.s.TakeQuota(f.ctx, f.alice.ID, f.a.ID, w, limit)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if ok {
				taken++
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 || taken != limit {
		t.Errorf("%d TakeQuota at once with limit %d counted %d (errors %v); want exactly %d", callers, limit, taken, errs, limit)
	}
	if ok, n, err := f.s.TakeQuota(f.ctx, f.alice.ID, f.a.ID, w, limit); err != nil || ok || n != limit {
		t.Errorf("TakeQuota after = %v, %d, %v; want refused at %d", ok, n, err, limit)
	}
}

func testCleanQuotas(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	w := f.t0.Truncate(time.Hour)
	for h := range 4 {
		if _, _, err := s.TakeQuota(ctx, f.alice.ID, f.a.ID, w.Add(time.Duration(h)*time.Hour), 60); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.CleanQuotas(ctx, w.Add(2*time.Hour)); err != nil || n != 2 {
		t.Errorf("CleanQuotas(before hour 2) = %d, %v; want the 2 windows that started before", n, err)
	}
	if ok, n, err := s.TakeQuota(ctx, f.alice.ID, f.a.ID, w.Add(2*time.Hour), 60); err != nil || !ok || n != 2 {
		t.Errorf("TakeQuota(hour 2) after CleanQuotas = %v, %d, %v; want its window kept (count 2)", ok, n, err)
	}
	if ok, n, err := s.TakeQuota(ctx, f.alice.ID, f.a.ID, w, 60); err != nil || !ok || n != 1 {
		t.Errorf("TakeQuota(hour 0) after CleanQuotas = %v, %d, %v; want a fresh window", ok, n, err)
	}
	if n, err := s.CleanQuotas(ctx, w); err != nil || n != 0 {
		t.Errorf("CleanQuotas(before hour 0) = %d, %v; want 0", n, err)
	}
}

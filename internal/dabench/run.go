package dabench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Options configures Run.
type Options struct {
	Dir      string    // benchmark directory (questions, labels, tables)
	Workers  int       // questions answered in parallel (default 2)
	Progress io.Writer // one line per finished question when non-nil
	Only     []int     // question ids, answered in this order; empty = all
}

// Run answers every question with answer, concurrently with opt.Workers,
// and returns the results in question order. A question whose answer
// returns an error, or panics, scores 0 with Err set. When ctx ends
// before every question is answered, the questions not started score 0
// with ctx's error as theirs, and Run returns all results and that error.
func Run(ctx context.Context, opt Options, answer func(ctx context.Context, q Question) (string, error)) ([]Result, error) {
	qs, err := Load(opt.Dir)
	if err != nil {
		return nil, err
	}
	if len(opt.Only) > 0 {
		byID := make(map[int]Question, len(qs))
		for _, q := range qs {
			byID[q.ID] = q
		}
		var sel []Question
		seen := map[int]bool{}
		for _, id := range opt.Only {
			q, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("dabench: no question with id %d", id)
			}
			if !seen[id] {
				seen[id] = true
				sel = append(sel, q)
			}
		}
		qs = sel
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = 2
	}
	if workers > len(qs) {
		workers = len(qs)
	}
	results := make([]Result, len(qs))
	ran := make([]bool, len(qs))
	var mu sync.Mutex // guards Progress and done
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				start := time.Now()
				r := answerOne(ctx, qs[i], answer)
				results[i], ran[i] = r, true
				mu.Lock()
				done++
				if opt.Progress != nil {
					fmt.Fprintln(opt.Progress, progressLine(done, len(qs), r, time.Since(start)))
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range qs {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	err = nil
	for i, q := range qs {
		if !ran[i] {
			err = ctx.Err()
			r := ScoreOne(q, "")
			r.Correct, r.Err = 0, "not run: "+err.Error()
			results[i] = r
		}
	}
	return results, err
}

// answerOne asks for one answer and scores it, turning an error or a
// panic into the result's Err.
func answerOne(ctx context.Context, q Question, answer func(context.Context, Question) (string, error)) (r Result) {
	var resp string
	defer func() {
		if p := recover(); p != nil {
			r = ScoreOne(q, "")
			r.Response = resp
			r.Correct, r.Err = 0, fmt.Sprintf("panic: %v", p)
		}
	}()
	resp, err := answer(ctx, q)
	r = ScoreOne(q, resp)
	if err != nil {
		r.Correct, r.Err = 0, err.Error()
	}
	return r
}

func progressLine(done, total int, r Result, took time.Duration) string {
	status := fmt.Sprintf("%d/%d correct", r.Correct, r.Total)
	if r.Err != "" {
		status = "error: " + strings.Join(strings.Fields(r.Err), " ")
	}
	return fmt.Sprintf("[%*d/%d] id %d (%s): %s in %.1fs", len(fmt.Sprint(total)), done, total, r.ID, r.Level, status, took.Seconds())
}

package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
)

// BenchmarkLoad runs 10 investigations at once over HTTP while chat
// questions about a finished one keep arriving, and reports the chat
// latency (p50, p95) and the wall time of the batch. Every investigation
// must complete and every chat request must succeed.
//
//	go test ./web -run '^$' -bench Load -benchtime 1x
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		loadOnce(b)
	}
}

func loadOnce(b *testing.B) {
	e := newEnvWith(b, app.Options{MaxRunning: 10})
	defer e.stop()
	chatID := e.withFiles()
	if r := e.jsonReq(http.MethodPost, "/api/sessions/"+chatID+"/investigate", revenueDrop()); r.status != http.StatusAccepted {
		b.Fatalf("investigate: %d %s", r.status, r.body)
	}
	e.waitDone(chatID)

	const runs = 10
	ids := make([]string, runs)
	for i := range ids {
		ids[i] = e.withFiles()
	}
	start := time.Now()
	for _, id := range ids {
		if r := e.jsonReq(http.MethodPost, "/api/sessions/"+id+"/investigate", revenueDrop()); r.status != http.StatusAccepted {
			b.Fatalf("investigate: %d %s", r.status, r.body)
		}
	}

	questions := []string{"How did you calculate the contribution?", "Which hypotheses were ruled out and why?",
		"What about enterprise customers?", "What about Germany?", "Was the change significant?"}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  []string
	)
	stop := make(chan struct{})
	var chatters sync.WaitGroup
	for c := range 4 {
		chatters.Add(1)
		go func() {
			defer chatters.Done()
			for i := c; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				r := e.jsonReq(http.MethodPost, "/api/sessions/"+chatID+"/chat", map[string]string{"message": questions[i%len(questions)]})
				d := time.Since(t0)
				mu.Lock()
				latencies = append(latencies, d)
				if r.status != http.StatusOK {
					failures = append(failures, fmt.Sprintf("chat %d: %s", r.status, r.body))
				}
				mu.Unlock()
			}
		}()
	}
	var runsWG sync.WaitGroup
	outcomes := make([]string, runs)
	for i, id := range ids {
		runsWG.Add(1)
		go func() {
			defer runsWG.Done()
			_, end := e.waitDone(id)
			outcomes[i], _ = end["status"].(string)
		}()
	}
	runsWG.Wait()
	elapsed := time.Since(start)
	close(stop)
	chatters.Wait()

	for i, o := range outcomes {
		if o != "completed" {
			failures = append(failures, fmt.Sprintf("investigation %d ended %q", i, o))
		}
	}
	if len(failures) > 0 {
		b.Fatalf("%d failures under load, first: %s", len(failures), failures[0])
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	b.ReportMetric(float64(pct(0.50).Microseconds())/1000, "chat-p50-ms")
	b.ReportMetric(float64(pct(0.95).Microseconds())/1000, "chat-p95-ms")
	b.ReportMetric(float64(len(latencies)), "chats")
	b.ReportMetric(elapsed.Seconds(), "s/10-investigations")
}

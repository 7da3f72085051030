package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestServeShowsFinishedSample is the README's first command: the server
// starts on an empty data dir with the sample investigation, which
// completes and can be chatted with; cancelling shuts it down cleanly.
func TestServeShowsFinishedSample(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr, done := startServe(t, ctx)
	sample := regexp.MustCompile(`Sample investigation \(revenue_drop\): (http://\S+)/sessions/(\S+)`)
	var base, id string
	waitFor(t, done, "the sample's URL", func() bool {
		m := sample.FindStringSubmatch(stdout.String())
		if m != nil {
			base, id = m[1], m[2]
		}
		return m != nil
	})
	waitFor(t, done, "the sample to complete", func() bool {
		res, err := http.Get(base + "/api/sessions/" + id)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var s struct{ Status string }
		json.NewDecoder(res.Body).Decode(&s)
		if s.Status == "failed" {
			t.Fatalf("the sample investigation failed; log:\n%s", stderr.String())
		}
		return s.Status == "completed"
	})
	res, err := http.Post(base+"/api/sessions/"+id+"/chat", "application/json", bytes.NewReader([]byte(`{"message":"why did revenue fall?"}`)))
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Response            string
		ArtifactsReferenced []string `json:"artifacts_referenced"`
	}
	json.NewDecoder(res.Body).Decode(&reply)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || len(reply.ArtifactsReferenced) == 0 {
		t.Fatalf("chat about the sample: %d %+v", res.StatusCode, reply)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop after its context was cancelled")
	}
}

// waitFor polls cond until it holds, failing if the server stops first or
// nothing happens for a minute.
func waitFor(t *testing.T, done <-chan error, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		select {
		case err := <-done:
			t.Fatalf("serve stopped (%v) while waiting for %s", err, what)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

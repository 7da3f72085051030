// Package apitest is a scripted HTTP server for provider client tests: it
// answers each request with the next scripted reply, records what the
// client sent, and compares JSON bodies with hand-written expectations in
// testdata.
package apitest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	Status int // 0 means 200
	Header map[string]string
	Body   string
}

// OK is a 200 reply with a JSON body.
func OK(body string) Reply {
	return Reply{Status: http.StatusOK, Header: map[string]string{"Content-Type": "application/json"}, Body: body}
}

// File is a 200 reply whose JSON body is the file at path.
func File(t testing.TB, path string) Reply {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return OK(string(b))
}

// Request is one request the server received.
type Request struct {
	Method string
	Host   string
	Path   string
	Header http.Header
	Body   []byte
}

// Server answers requests with a script of replies.
type Server struct {
	URL string

	addr     string
	t        testing.TB
	mu       sync.Mutex
	replies  []Reply
	requests []Request
}

// New starts a server that answers the i-th request with replies[i]; a
// request past the end of the script fails the test. The server closes
// when the test ends.
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{t: t, replies: replies}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	s.addr = ts.Listener.Addr().String()
	return s
}

// Client returns an HTTP client that sends every request to the server,
// whatever its URL says, keeping the original Host: it lets a test check a
// client's default endpoint.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Host = r.URL.Host
		r.URL.Scheme, r.URL.Host = "http", s.addr
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("reading request body: %v", err)
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Host: r.Host, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	if n >= len(s.replies) {
		s.t.Errorf("request %d (%s %s) is past the end of the script of %d replies", n+1, r.Method, r.URL.Path, len(s.replies))
		http.Error(w, "script ended", http.StatusTeapot)
		return
	}
	reply := s.replies[n]
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, reply.Body)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Last returns the last request received; it fails the test if there was
// none.
func (s *Server) Last() Request {
	s.t.Helper()
	r := s.Requests()
	if len(r) == 0 {
		s.t.Fatal("no request was sent")
	}
	return r[len(r)-1]
}

// EqualJSON fails the test unless got and the JSON file at path hold the
// same value (key order and spacing aside).
func EqualJSON(t testing.TB, got []byte, path string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !reflect.DeepEqual(g, w) {
		pretty, _ := json.MarshalIndent(g, "", "  ")
		t.Errorf("request body differs from %s; got:\n%s", path, pretty)
	}
}

// Sleeps records the waits of a retry policy instead of sleeping: use its
// Sleep as llm.RetryPolicy.Sleep.
type Sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep records d and returns at once, or returns ctx's error when ctx has
// ended.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

// Waits returns the recorded waits in order.
func (s *Sleeps) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

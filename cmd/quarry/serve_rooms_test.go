package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// startServe runs quarry serve on a fresh data dir and a free port until
// ctx ends; done gets what it returned.
func startServe(t *testing.T, ctx context.Context) (stdout, stderr *syncBuffer, done chan error) {
	return startServeIn(ctx, t.TempDir())
}

// startServeIn runs quarry serve on data dir dir with the extra flags,
// until ctx ends.
func startServeIn(ctx context.Context, dir string, flags ...string) (stdout, stderr *syncBuffer, done chan error) {
	stdout, stderr, done = &syncBuffer{}, &syncBuffer{}, make(chan error, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir}, flags...)
	go func() {
		done <- run(ctx, args, func(string) string { return "" }, nil, stdout, stderr)
	}()
	return stdout, stderr, done
}

// serverURL waits until quarry serve says where it serves, and returns
// that address.
func serverURL(t *testing.T, done chan error, stdout *syncBuffer) string {
	t.Helper()
	return waitForURL(t, done, stdout, serving, "the server's address")
}

// waitForURL waits until a server's output matches re, and returns the
// address re captures.
func waitForURL(t *testing.T, done chan error, stdout *syncBuffer, re *regexp.Regexp, what string) string {
	t.Helper()
	var url string
	waitFor(t, done, what, func() bool {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		}
		return url != ""
	})
	return url
}

// TestServeShowsTheSampleRoom: quarry serve on a fresh data dir has the
// sample room in its pages and API for the local owner, and answers a
// question over it with a citation of a page.
func TestServeShowsTheSampleRoom(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr, done := startServe(t, ctx)
	base := serverURL(t, done, stdout)
	res, err := http.Get(base + "/api/rooms")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Rooms []struct {
			ID        string
			Name      string
			Documents int
		}
	}
	json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	if len(list.Rooms) != 2 || list.Rooms[0].Documents == 0 {
		t.Fatalf("rooms %+v; want the sample room with its documents; log:\n%s", list.Rooms, stderr.String())
	}
	res, err = http.Post(base+"/api/rooms/"+list.Rooms[0].ID+"/ask", "application/json",
		strings.NewReader(`{"question":"What were Northwind's capital expenditures in 2023?"}`))
	if err != nil {
		t.Fatal(err)
	}
	var q struct {
		AnswerType string `json:"answer_type"`
		Citations  []struct {
			PageNumber int `json:"page_number"`
		}
	}
	json.NewDecoder(res.Body).Decode(&q)
	res.Body.Close()
	if q.AnswerType != "grounded" || len(q.Citations) == 0 || q.Citations[0].PageNumber == 0 {
		t.Errorf("the sample room's answer %+v; want grounded with a cited page", q)
	}
	res, err = http.Get(base + "/rooms/" + list.Rooms[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), `<a href="/rooms">Data rooms</a>`) || !strings.Contains(string(page), "northwind") {
		t.Errorf("the sample room's page: %d\n%.1000s", res.StatusCode, page)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

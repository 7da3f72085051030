package web_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/fakeclock"
	"github.com/quarry-dev/quarry/web"
)

// TestBodyPace: uploads trickling 5 bytes every 100 ms are cut off with
// 400 and their connections closed once they fall behind the minimum
// rate (scaled down here: 1 s of grace, then 1,000 bytes a second), while
// an upload at a usable speed, with pauses under the idle limit, is
// stored.
func TestBodyPace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, err := app.Open(ctx, app.Options{DataDir: dir, MaxUploadBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h := web.New(a.Investigations, web.Options{MaxUploadBytes: 4 << 20, BodyIdle: time.Second, MinBodyRate: 1000})
	e := &env{t: t, dir: dir, clock: fakeclock.New(time.Now()), app: a, srv: httptest.NewServer(h)}
	defer e.srv.Close()
	id := e.newSession()

	const tricklers = 20
	var wg sync.WaitGroup
	results := make(chan string, tricklers)
	for range tricklers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- trickle(t, e.srv.Listener.Addr().String(), "/api/sessions/"+id+"/files")
		}()
	}
	wg.Wait()
	close(results)
	for r := range results {
		if r != "" {
			t.Error(r)
		}
	}

	// A usable upload, pausing under the idle limit, is stored.
	orders := sampleFile(t, "revenue_drop", "orders.csv")
	if r := e.upload(id, "orders.csv", &pausing{data: orders, every: len(orders) / 3, pause: 100 * time.Millisecond}, "orders"); r.status != http.StatusCreated {
		t.Errorf("an upload with short pauses: %d %s; want 201", r.status, r.body)
	}
}

// trickle sends a multipart upload's start, then 5 bytes every 100 ms of
// a body announced as 100,000 bytes, and returns what went wrong, or ""
// when the server answered 400 and closed the connection.
func trickle(t *testing.T, addr, path string) string {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err.Error()
	}
	defer conn.Close()
	// A hang guard: the server must close the connection long before.
	conn.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: 100000\r\n\r\n", path)
	fmt.Fprintf(conn, "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.csv\"\r\n\r\na,b\r\n")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte("1,2\r\n")); err != nil {
				return
			}
		}
	}()
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return "a trickling upload got no answer: " + err.Error()
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "too slowly") {
		return fmt.Sprintf("a trickling upload: %d %s; want 400 saying it was too slow", res.StatusCode, body)
	}
	// Closed: an end, or a reset when the trickle's bytes reached a
	// socket closed with unread ones.
	if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF && !errors.Is(err, syscall.ECONNRESET) {
		return fmt.Sprintf("after the answer to a trickling upload, the connection read %d bytes, %v; want it closed", n, err)
	}
	return ""
}

// pausing reads data, pausing every so many bytes.
type pausing struct {
	data  []byte
	at    int
	every int
	pause time.Duration
}

func (p *pausing) Read(b []byte) (int, error) {
	if p.at >= len(p.data) {
		return 0, io.EOF
	}
	if p.at > 0 && p.at%p.every == 0 {
		time.Sleep(p.pause)
	}
	n := copy(b, p.data[p.at:min(len(p.data), p.at+p.every-p.at%p.every)])
	p.at += n
	return n, nil
}

package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/web"
)

// TestSignInStorm fires 100 sign-ins with made-up names at once, each
// from an address of its own (behind a trusted proxy, so that no
// client's budget of failures stops them: only the bound on password
// checks does), at a real server with password sign-in. Each check is
// argon2id's 19 MiB; unbounded, 100 of them took a server from 100 MB to
// 3.8 GB. The process's peak resident memory must stay under 500 MB,
// every sign-in must be refused with 401, or 429 and a Retry-After, and
// a signed-in request sent during the storm must answer 200.
//
//	go test ./web -run SignInStorm -v   (logs the peak and the latencies)
func TestSignInStorm(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the resident memory from /proc/self/status")
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory alone is most of the 500 MB")
	}
	ctx := context.Background()
	dir := t.TempDir()
	a, err := app.Open(ctx, app.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	svc, _, closeRooms, err := app.OpenRooms(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRooms()
	ann, err := svc.AddUser(ctx, "ann", annPassword)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateRoom(ctx, ann.ID, "deal-a", ""); err != nil {
		t.Fatal(err)
	}
	token, err := svc.CreateToken(ctx, ann.ID, "storm")
	if err != nil {
		t.Fatal(err)
	}
	key, err := web.LoadSessionKey(filepath.Join(dir, "secrets", "session.key"))
	if err != nil {
		t.Fatal(err)
	}
	auth, err := web.NewPasswordAuth(svc, key, web.PasswordAuthOptions{TrustForwardedFor: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(a.Investigations, web.Options{Rooms: svc, Auth: auth}))
	defer srv.Close()
	client := &http.Client{
		Timeout:       time.Minute, // a hang guard
		Transport:     &http.Transport{MaxIdleConnsPerHost: 200},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	signedIn := func() (int, time.Duration, error) {
		req, _ := http.NewRequest("GET", srv.URL+"/api/rooms", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, 0, err
		}
		res.Body.Close()
		return res.StatusCode, time.Since(start), nil
	}
	if status, _, err := signedIn(); err != nil || status != http.StatusOK {
		t.Fatalf("the signed-in request before the storm: %d, %v", status, err)
	}

	runtime.GC()
	before := residentMB(t, "VmRSS")
	resetPeak(t)
	var peakSampled atomic.Int64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			peakSampled.Store(max(peakSampled.Load(), int64(residentMB(t, "VmRSS"))))
			select {
			case <-stopSampling:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	const storm = 100
	var (
		mu         sync.Mutex
		statuses   = map[int]int{}
		noRetry    int
		errs       []error
		stormDone  atomic.Int64
		start      = make(chan struct{})
		wg         sync.WaitGroup
		stormStart time.Time
	)
	for i := range storm {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer stormDone.Add(1)
			form := url.Values{"name": {fmt.Sprintf("ghost-%d", i)}, "password": {fmt.Sprintf("guess number %d", i)}}
			req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i))
			<-start
			res, err := client.Do(req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			res.Body.Close()
			statuses[res.StatusCode]++
			if res.StatusCode == http.StatusTooManyRequests {
				if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 {
					noRetry++
				}
			}
		}()
	}
	stormStart = time.Now()
	close(start)

	// Signed-in requests keep being sent while the storm lasts.
	var latencies []time.Duration
	var during int
	for stormDone.Load() < storm {
		status, took, err := signedIn()
		if err != nil || status != http.StatusOK {
			t.Fatalf("a signed-in request during the storm: %d, %v; want 200", status, err)
		}
		latencies = append(latencies, took)
		during++
	}
	wg.Wait()
	stormTook := time.Since(stormStart)
	close(stopSampling)
	<-sampled
	peak := residentMB(t, "VmHWM")

	for _, err := range errs {
		t.Errorf("a sign-in of the storm: %v", err)
	}
	if statuses[http.StatusUnauthorized]+statuses[http.StatusTooManyRequests] != storm {
		t.Errorf("the storm's answers: %v; want only 401 and 429", statuses)
	}
	if statuses[http.StatusUnauthorized] == 0 {
		t.Errorf("the storm's answers: %v; want some sign-ins checked (401)", statuses)
	}
	if noRetry > 0 {
		t.Errorf("%d answers 429 without a Retry-After", noRetry)
	}
	if during == 0 {
		t.Errorf("no signed-in request was sent during the storm")
	}
	const limitMB = 500
	if peak >= limitMB || int(peakSampled.Load()) >= limitMB {
		t.Errorf("peak resident memory during the storm: %d MB (sampled %d MB); want under %d MB", peak, peakSampled.Load(), limitMB)
	}
	slices.Sort(latencies)
	t.Logf("100 bogus sign-ins in %v: %v; resident memory %d MB before, peak %d MB (sampled %d MB); "+
		"%d signed-in requests during the storm, all 200: p50 %v, max %v",
		stormTook.Round(time.Millisecond), statuses, before, peak, peakSampled.Load(),
		len(latencies), latencies[len(latencies)/2].Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
}

// residentMB reads a memory field of /proc/self/status (VmRSS, the
// resident memory now; VmHWM, its peak since resetPeak) in MB.
func residentMB(t *testing.T, field string) int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Error(err)
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Error(err)
			}
			return kb / 1024
		}
	}
	t.Errorf("no %s in /proc/self/status", field)
	return 0
}

// resetPeak sets VmHWM to the resident memory now (Linux 4.0 and later),
// so that it says the peak of the storm, not of the tests before it.
func resetPeak(t *testing.T) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("cannot reset the peak resident memory (%v); VmHWM is the process's", err)
	}
}

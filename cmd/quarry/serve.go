package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
)

// runServe serves the JSON API and the pages until ctx is done. On a data
// dir without a finished investigation it first starts the sample one, so
// a newcomer sees a real report and a working chat right away.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "address to listen on (\":8080\" for every interface)")
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where sessions and the index are stored (env QUARRY_DATA_DIR)")
	sample := fs.String("sample", "revenue_drop", "sample scenario to investigate when no finished investigation exists (\"\" for none)")
	maxRunning := fs.Int("max-running", 2, "investigations running at once; more wait their turn")
	maxMB := fs.Int64("max-file-mb", 50, "largest accepted upload in MB")
	var mf modelFlags
	mf.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	model, dial, err := mf.open(getenv)
	if err != nil {
		return err
	}
	timeout, err := sessionTimeout(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	a, err := app.Open(ctx, app.Options{DataDir: *dataDir, SessionTimeout: timeout, MaxUploadBytes: *maxMB << 20,
		MaxRunning: *maxRunning, Log: log, Model: model, DialCode: dial})
	if err != nil {
		return err
	}
	defer a.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + displayAddr(ln.Addr())
	fmt.Fprintf(stdout, "Quarry is serving on %s (data in %s)\n", base, *dataDir)
	if *sample != "" {
		done, err := a.HasCompleted(ctx)
		if err != nil {
			return err
		}
		if !done {
			id, err := a.SeedSample(ctx, *sample)
			if err != nil {
				return fmt.Errorf("sample investigation: %w", err)
			}
			fmt.Fprintf(stdout, "Sample investigation (%s): %s/sessions/%s\n", *sample, base, id)
		}
	}

	sweepCtx, stopSweep := context.WithCancel(ctx)
	defer stopSweep()
	go a.Manager.SweepEvery(sweepCtx, sweepInterval(timeout))

	srv := &http.Server{Handler: a.Handler, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// sessionTimeout reads SESSION_TIMEOUT_HOURS (default 24).
func sessionTimeout(getenv func(string) string) (time.Duration, error) {
	v := getenv("SESSION_TIMEOUT_HOURS")
	if v == "" {
		return 24 * time.Hour, nil
	}
	h, err := strconv.ParseFloat(v, 64)
	if err != nil || h <= 0 {
		return 0, &usageError{fmt.Sprintf("SESSION_TIMEOUT_HOURS=%q is not a positive number of hours", v)}
	}
	return time.Duration(h * float64(time.Hour)), nil
}

// sweepInterval checks for expired sessions often enough that none
// outlives its timeout by more than a tenth of it (at most every 5 min).
func sweepInterval(timeout time.Duration) time.Duration {
	return min(max(timeout/10, time.Second), 5*time.Minute)
}

// displayAddr turns a listener address into one a browser can open.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

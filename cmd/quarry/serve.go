package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/internal/runner"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/web"
)

// runServe serves the JSON API and the pages until ctx is done. On a data
// dir without a finished investigation it first starts the sample one, so
// a newcomer sees a real report and a working chat right away.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "address to listen on (\":8080\" for every interface)")
	sample := fs.String("sample", "revenue_drop", "sample scenario to investigate when no finished investigation exists (\"\" for none)")
	db := fs.String("db", getenv("QUARRY_DB"), "postgres://... keeps the data rooms and research results in PostgreSQL and works the rooms' queue beside any quarry worker (env QUARRY_DB)")
	authMode := fs.String("auth", authLocal, "who uses the server: local (every request is the local owner) or password (every job needs a sign-in, and each user sees only their own investigations, analyses, rooms and researches: people sign in at /login, programs send Authorization: Bearer TOKEN; see quarry user and quarry token)")
	var af appFlags
	af.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	w, err := af.model.open(getenv)
	if err != nil {
		return err
	}
	wc, err := af.model.webConfig(getenv)
	if err != nil {
		return err
	}
	lease, err := parseLease(getenv(envLease))
	if err != nil {
		return err
	}
	rs, owner, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: af.dataDir, DB: *db, Workers: af.maxRunning,
		Embedder: w.embedder, EmbeddingModel: w.embedModel, Model: w.model, Lease: lease})
	if err != nil {
		return err
	}
	defer closeRooms()
	if *db != "" {
		fmt.Fprintf(stdout, "Data rooms and research in PostgreSQL %s, files in %s\n", postgres.Mask(*db), af.dataDir)
	}
	if *sample != "" {
		if _, err := app.SeedSampleRoom(ctx, rs, owner, af.dataDir); err != nil {
			return fmt.Errorf("sample room: %w", err)
		}
	}
	if *db == "" {
		// On SQLite this process's workers process the uploads.
		work, stop := context.WithCancel(ctx)
		defer func() { stop(); rs.Wait() }()
		if err := rs.Start(work, af.maxRunning); err != nil {
			return err
		}
	}
	af.rooms = rs
	store, err := app.OpenResearchStore(ctx, af.dataDir, *db)
	if err != nil {
		return err
	}
	// One bound on background work for investigations, analyses and
	// researches alike.
	af.runner = runner.New(af.maxRunning)
	research := app.NewResearches(store, rs, af.runner, nil)
	defer research.Close()
	af.research = research
	if af.auth, err = webAuth(*authMode, af.dataDir, rs, owner, getenv); err != nil {
		return err
	}
	a, closeApp, err := af.open(ctx, getenv, stderr)
	if err != nil {
		return err
	}
	defer closeApp()
	research.SetLog(a.Log)
	if err := useWeb(research, wc, a.Log); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + displayAddr(ln.Addr())
	fmt.Fprintf(stdout, "Quarry is serving on %s (data in %s)\n", base, af.dataDir)
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

	srv := web.NewHTTPServer(a.Handler, a.Log)
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

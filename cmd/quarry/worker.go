package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// runWorker implements "quarry worker --db postgres://... [--data-dir DIR]
// [--workers 2] [--lease 20s]": it processes the data rooms' uploaded documents from
// the job queue in PostgreSQL until interrupted. Any number of workers
// may run against one database, on machines that share --data-dir; each
// document is processed by one of them. At start it removes uploads cut
// short by a crash and queues the documents left pending, so an upload
// whose job was lost is not forgotten; while it runs, it queues again
// the documents of workers that died (their lease ran out). Stopped
// (SIGTERM, Ctrl-C), it hands the documents it was processing back,
// pending, for another worker; a worker whose embedding model is not
// the one a document's room needs refuses it and says why.
func runWorker(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where the uploaded files are, shared with quarry serve (env QUARRY_DATA_DIR)")
	db := fs.String("db", getenv("QUARRY_DB"), "the rooms' PostgreSQL database, postgres://USER:PASSWORD@HOST/DB (env QUARRY_DB)")
	workers := fs.Int("workers", 2, "documents processed at once")
	lease := fs.String("lease", getenv(envLease), "how long a worker's claim on a document lasts unless renewed, e.g. 20s: a killed worker's documents are processed again about this long after (env "+envLease+", default "+rooms.DefaultLease.String()+")")
	// The embedder must be the one serve uses, so that questions and
	// chunks are vectors of one model.
	var mf modelFlags
	mf.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *db == "" {
		return &usageError{"worker needs --db postgres://... (or QUARRY_DB): the embedded store has no queue to share"}
	}
	if *workers < 1 {
		return &usageError{"--workers must be at least 1"}
	}
	leaseFor, err := parseLease(*lease)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	w, err := mf.open(getenv)
	if err != nil {
		return err
	}
	svc, _, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: *dataDir, DB: *db, Workers: *workers,
		Embedder: w.embedder, EmbeddingModel: w.embedModel, Lease: leaseFor})
	if err != nil {
		return err
	}
	defer closeRooms()
	svc.Log = log
	svc.Progress = func(p room.Progress) {
		if p.Status != room.StatusProcessing || p.Of == 0 {
			log.Info("document", "id", p.DocumentID, "status", p.Status, "message", p.Message)
		}
	}
	n, err := svc.EnqueuePending(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "quarry worker: processing documents from the queue with %d workers (%d left pending queued again); files in %s\n", *workers, n, *dataDir)
	<-ctx.Done()
	fmt.Fprintln(stdout, "quarry worker: stopping; documents in progress are handed back, pending, to the next worker")
	return nil
}

// envLease sets the documents' lease (quarry worker --lease; quarry
// serve reads it too).
const envLease = "QUARRY_DOCUMENT_LEASE"

// parseLease reads a lease such as "20s"; "" is rooms.DefaultLease.
func parseLease(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 100*time.Millisecond {
		return 0, &usageError{fmt.Sprintf("the document lease %q is not a duration of at least 100ms, such as 20s", v)}
	}
	return d, nil
}

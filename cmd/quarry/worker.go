package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// runWorker implements "quarry worker --db postgres://... [--data-dir DIR]
// [--workers 2]": it processes the data rooms' uploaded documents from
// the job queue in PostgreSQL until interrupted. Any number of workers
// may run against one database, on machines that share --data-dir; each
// document is processed by one of them. At start it queues the documents
// left pending, so an upload whose job was lost is not forgotten.
func runWorker(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where the uploaded files are, shared with quarry serve (env QUARRY_DATA_DIR)")
	db := fs.String("db", getenv("QUARRY_DB"), "the rooms' PostgreSQL database, postgres://USER:PASSWORD@HOST/DB (env QUARRY_DB)")
	workers := fs.Int("workers", 2, "documents processed at once")
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
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	w, err := mf.open(getenv)
	if err != nil {
		return err
	}
	svc, _, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: *dataDir, DB: *db, Workers: *workers,
		Embedder: w.embedder, EmbeddingModel: w.embedModel})
	if err != nil {
		return err
	}
	defer closeRooms()
	svc.Log = log
	svc.Progress = func(p rooms.Progress) {
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
	fmt.Fprintln(stdout, "quarry worker: stopping; a document cut short is processed again by the next worker")
	return nil
}

package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/quarry-dev/quarry"
)

// Queue is the data rooms' job queue (rooms.Queue) on River in the same
// PostgreSQL database: an uploaded document becomes a job, and every
// process with workers (quarry worker, quarry serve --db) takes jobs as
// they come, each job by one of them. A document has at most one job a
// round (unique by its id and round while the job waits, runs or is
// done), so queueing it again, as EnqueuePending at a worker's start does
// for documents left pending, never processes it twice.
//
// River does not see whether a running job's process is alive (its
// rescuer acts after an hour), so the documents carry their own leases
// (room.Leases): the rescuer every worker process runs hands back the
// document of a worker that died within seconds and queues it in its
// next round, which the dead worker's job, still "running", does not
// hold back. A stopping worker hands its document back and snoozes the
// job, which another worker then takes at once.
type Queue struct {
	pool    *pgxpool.Pool
	client  *river.Client[pgx.Tx]
	started bool
}

// processDocument is the job: process one document in one round.
type processDocument struct {
	DocumentID string `json:"document_id"`
	Round      int    `json:"round,omitempty"`
}

func (processDocument) Kind() string { return "quarry_process_document" }

// documentWorker runs a processDocument job with the function it was
// given (rooms.Service.ProcessQueued).
type documentWorker struct {
	river.WorkerDefaults[processDocument]
	process func(ctx context.Context, documentID string) error
}

// Work processes the document. An error that asks for the job to run
// again later (rooms.Retry: a document handed back or refused) snoozes
// it, which counts no attempt.
func (w *documentWorker) Work(ctx context.Context, job *river.Job[processDocument]) error {
	err := w.process(ctx, job.Args.DocumentID)
	var retry interface{ RetryAfter() time.Duration }
	if errors.As(err, &retry) {
		return river.JobSnooze(retry.RetryAfter())
	}
	return err
}

// JobTimeout bounds one document's processing (a 5,000-page PDF with
// OCR is slow, but not this slow).
const JobTimeout = 30 * time.Minute

// OpenQueue connects to the database of dsn, brings River's tables up to
// date, and returns the queue. With workers > 0, Start runs that many
// jobs at once in this process, each through process; with 0 the queue
// only takes jobs in. Errors as OpenRooms's.
func OpenQueue(ctx context.Context, dsn string, workers int, process func(ctx context.Context, documentID string) error) (*Queue, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the PostgreSQL connection string %s is not valid: %s", Mask(dsn), scrub(parseDetail(err), dsn))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Queue, error) {
		pool.Close()
		return nil, err
	}
	driver := riverpgxv5.New(pool)
	migrator, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fail(err)
	}
	// Processes starting at once (serve beside its workers) apply River's
	// migrations one after the other, the later finding nothing to do.
	// (River's migrations cannot share one transaction, so the lock is
	// held by a connection of its own while they run.)
	err = migrateLocked(ctx, pool, func() error {
		_, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
		return err
	})
	if err != nil {
		return fail(quarry.Errorf(quarry.ECodeUnavailable, "the job queue's tables in %s: %s", Mask(dsn), scrub(err.Error(), dsn)))
	}
	rc := &river.Config{JobTimeout: JobTimeout, MaxAttempts: 5}
	if workers > 0 {
		rc.Workers = river.NewWorkers()
		river.AddWorker(rc.Workers, &documentWorker{process: process})
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: workers}}
	}
	client, err := river.NewClient(driver, rc)
	if err != nil {
		return fail(err)
	}
	return &Queue{pool: pool, client: client}, nil
}

// Enqueue implements rooms.Queue.
func (q *Queue) Enqueue(ctx context.Context, documentID string, round int) error {
	_, err := q.client.Insert(ctx, processDocument{DocumentID: documentID, Round: round}, &river.InsertOpts{
		UniqueOpts: river.UniqueOpts{ByArgs: true},
	})
	if err != nil {
		return fmt.Errorf("queue document %s: %w", documentID, err)
	}
	return nil
}

// Start runs the workers until Stop or ctx's end.
func (q *Queue) Start(ctx context.Context) error {
	q.started = true
	return q.client.Start(ctx)
}

// Close stops the workers and closes the connections. A running job's
// context is cancelled at once: its worker hands the document back and
// the job is snoozed for another worker, rather than making the stop
// wait for a long document. ctx bounds the wait for that.
func (q *Queue) Close(ctx context.Context) error {
	var err error
	if q.started {
		err = q.client.StopAndCancel(ctx)
	}
	q.pool.Close()
	if err != nil && ctx.Err() != nil {
		return nil
	}
	return err
}

// migrateLocked runs migrate while holding a session advisory lock on one
// of pool's connections.
func migrateLocked(ctx context.Context, pool *pgxpool.Pool, migrate func() error) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	const lock = "SELECT pg_advisory_lock(hashtext('quarry river migrations'))"
	if _, err := conn.Exec(ctx, lock); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(hashtext('quarry river migrations'))")
	return migrate()
}

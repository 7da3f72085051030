package postgres

import (
	"context"
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
// they come, each job by one of them. A document has at most one job
// (unique by its id while the job waits, runs or is done), so queueing it
// again, as EnqueueDocuments at a worker's start does for documents left
// pending, never processes it twice.
type Queue struct {
	pool    *pgxpool.Pool
	client  *river.Client[pgx.Tx]
	started bool
}

// processDocument is the job: process one document.
type processDocument struct {
	DocumentID string `json:"document_id"`
}

func (processDocument) Kind() string { return "quarry_process_document" }

// documentWorker runs a processDocument job with the function it was
// given (rooms.Service.ProcessQueued).
type documentWorker struct {
	river.WorkerDefaults[processDocument]
	process func(ctx context.Context, documentID string) error
}

func (w *documentWorker) Work(ctx context.Context, job *river.Job[processDocument]) error {
	return w.process(ctx, job.Args.DocumentID)
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
func (q *Queue) Enqueue(ctx context.Context, documentID string) error {
	_, err := q.client.Insert(ctx, processDocument{DocumentID: documentID}, &river.InsertOpts{
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

// Close stops the workers, letting running jobs finish within ctx (a
// job cut short is retried by another worker), and closes the
// connections.
func (q *Queue) Close(ctx context.Context) error {
	var err error
	if q.started {
		err = q.client.Stop(ctx)
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

package rooms

import (
	"context"
	"errors"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Queue hands uploaded documents to the workers that process them. Left
// nil, the Service keeps its own queue in memory for the workers Start
// runs in this process; postgres.Queue is a job queue in PostgreSQL that
// any number of quarry worker processes drain.
type Queue interface {
	// Enqueue asks for the document to be processed once, soon, in its
	// round: a document is queued once a round, and a new round starts
	// each time its processing is handed back (room.Document.Round).
	Enqueue(ctx context.Context, documentID string, round int) error
}

// queueSize bounds the documents waiting in memory; more stay pending in
// the store and are picked up by the next Start.
const queueSize = 1024

// DefaultLease is how long a worker's claim on a document lasts unless
// renewed. The worker renews it every third of that, so a live worker
// keeps even a document that takes an hour; the documents of a worker
// killed mid-way are processed again about this long after, by the
// rescuer every worker process runs.
const DefaultLease = 20 * time.Second

// RefusedRetry is how long a queued document this process refused (its
// room needs an embedding model this process lacks) waits before a
// worker tries it again, so that one configured for it can take it.
const RefusedRetry = 30 * time.Second

func (s *Service) lease() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLease
}

// ErrHandedBack is the error of processing stopped with its process: the
// document is pending again for another worker or the next start, never
// failed for it.
var ErrHandedBack = errors.New("processing stopped with its worker; the document is pending again")

// errLeaseLost ends processing whose lease another worker took (this one
// could not renew it in time): that worker processes the document.
var errLeaseLost = errors.New("the document's lease was lost to another worker")

// Retry is an error that asks a job queue to run the job again after
// After, without counting an attempt: a document handed back by a
// stopping worker (at once), or one this process refused (RefusedRetry).
type Retry struct {
	After time.Duration
	Err   error
}

func (r *Retry) Error() string { return r.Err.Error() }
func (r *Retry) Unwrap() error { return r.Err }

// RetryAfter is what a queue reads, through an interface, to reschedule
// the job.
func (r *Retry) RetryAfter() time.Duration { return r.After }

// refusal is a document this process must not process (see
// Service.embedderFor); it stays pending for a process that can.
type refusal struct{ err *quarry.Error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// Start runs workers that process uploaded documents in the background
// until ctx ends, beginning with those a previous run left pending or
// processing, and a rescuer that queues again the documents of workers
// that died (their lease ran out). It first removes the partial uploads
// of a process that died mid-upload. A worker stopped by ctx hands its
// document back, pending, for the next start. Without Start (and without
// a Queue), Upload leaves documents pending for Process.
func (s *Service) Start(ctx context.Context, workers int) error {
	s.mu.Lock()
	if s.pending != nil {
		s.mu.Unlock()
		return nil
	}
	s.pending = make(chan string, queueSize)
	s.mu.Unlock()
	if _, err := s.CleanUploads(ctx); err != nil {
		s.log().Warn("could not remove partial uploads", "err", err)
	}
	left, err := s.Store.Pending(act(ctx, room.System))
	if err != nil {
		return err
	}
	for range max(1, workers) {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case id := <-s.pending:
					if err := s.Process(ctx, id); err != nil && ctx.Err() == nil && quarry.ErrorCode(err) != quarry.ECodeConflict && !isRefusal(err) {
						s.log().Info("document failed", "document", id, "err", err)
					}
				}
			}
		}()
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.RunRescuer(ctx)
	}()
	for _, d := range left {
		s.enqueue(ctx, &d)
	}
	return nil
}

// Wait waits for the workers to stop after their context ended.
func (s *Service) Wait() { s.wg.Wait() }

// enqueue hands a document to the Queue, or to this process's workers
// when they run. A document that cannot be queued stays pending: Start
// and EnqueuePending find it again.
func (s *Service) enqueue(ctx context.Context, d *room.Document) {
	if s.Queue != nil {
		if err := s.Queue.Enqueue(ctx, d.ID, d.Round); err != nil {
			s.log().Warn("could not queue a document; it stays pending until a worker starts", "document", d.ID, "err", err)
		}
		return
	}
	s.mu.Lock()
	ch := s.pending
	s.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- d.ID:
	default:
		s.log().Warn("processing queue full; the document stays pending until the next start", "document", d.ID)
	}
}

// EnqueuePending removes the partial uploads of a process that died
// mid-upload, then hands the Queue every document left pending or
// processing (by an upload whose queueing failed, or a worker that
// stopped midway) and returns how many.
func (s *Service) EnqueuePending(ctx context.Context) (int, error) {
	if s.Queue == nil {
		return 0, quarry.Errorf(quarry.ECodeInternal, "no queue to hand documents to")
	}
	if _, err := s.CleanUploads(ctx); err != nil {
		s.log().Warn("could not remove partial uploads", "err", err)
	}
	left, err := s.Store.Pending(act(ctx, room.System))
	if err != nil {
		return 0, err
	}
	for _, d := range left {
		if err := s.Queue.Enqueue(ctx, d.ID, d.Round); err != nil {
			return 0, err
		}
	}
	return len(left), nil
}

// Rescue hands back the documents whose worker's lease ran out (the
// worker died, or lost its database) and queues each in its new round;
// it returns how many. Rescuers in several processes may run at once:
// each document goes to one of them.
func (s *Service) Rescue(ctx context.Context) (int, error) {
	ds, err := s.Store.RescueExpired(act(ctx, room.System))
	if err != nil {
		return 0, err
	}
	for _, d := range ds {
		s.log().Warn("a worker stopped without handing its document back; it is queued again", "document", d.ID, "name", d.Name, "round", d.Round)
		s.enqueue(ctx, &d)
	}
	return len(ds), nil
}

// RunRescuer runs Rescue every quarter of the lease until ctx ends.
func (s *Service) RunRescuer(ctx context.Context) {
	t := time.NewTicker(max(s.lease()/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		if _, err := s.Rescue(ctx); err != nil && ctx.Err() == nil {
			s.log().Warn("rescue documents of stopped workers", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ProcessQueued is what a queue's worker runs for a document: Process,
// unless the document is gone or already completed or failed, so a job
// delivered twice does nothing the second time. A document's own failure
// is recorded on it and not returned, nor is a document another worker
// holds. A document handed back by a stopping worker, or refused by this
// process, is returned as a *Retry for the queue to run it again.
func (s *Service) ProcessQueued(ctx context.Context, documentID string) error {
	d, err := s.Store.Document(act(ctx, room.System), documentID)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	if d.Status != room.StatusPending && d.Status != room.StatusProcessing {
		return nil
	}
	err = s.Process(ctx, documentID)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrHandedBack):
		return &Retry{Err: err}
	case isRefusal(err):
		return &Retry{After: RefusedRetry, Err: err}
	case errors.Is(err, errLeaseLost), quarry.ErrorCode(err) == quarry.ECodeConflict:
		return nil
	case ctx.Err() != nil:
		// The queue's own end (its job timeout) after the document was
		// recorded as failed.
		return nil
	}
	s.log().Info("document failed", "document", documentID, "err", err)
	return nil
}

func isRefusal(err error) bool {
	var r refusal
	return errors.As(err, &r)
}

// embedderFor says whether this process may process d: a document whose
// room is embedded (d.EmbeddingModel) needs that model here, or it would
// be stored without vectors and go unseen by every semantic search of
// its room. Errors: a refusal naming the setting, UNAVAILABLE.
func (s *Service) embedderFor(d *room.Document) error {
	if d.EmbeddingModel == "" || s.Embedder != nil && s.EmbeddingModel == d.EmbeddingModel {
		return nil
	}
	have := "no embedding model"
	if s.Embedder != nil && s.EmbeddingModel != "" {
		have = "the embedding model " + s.EmbeddingModel
	}
	return refusal{quarry.Errorf(quarry.ECodeUnavailable, "document %s (%s) must be embedded with %s, as its room is, and this process has %s; it stays pending for a worker that has it",
		d.ID, d.Name, d.EmbeddingModel, have).
		WithHint("start this process with --embed-model " + d.EmbeddingModel + " (or QUARRY_EMBED_MODEL) and the embedding endpoint of the process that took the upload")}
}

// renew keeps holder's lease of document id until the returned function
// is called, renewing it every third of the lease; when the lease is
// lost (another worker took it after a renewal failed for too long, or
// the document was deleted) it cancels the work with errLeaseLost.
func (s *Service) renew(ctx context.Context, cancel context.CancelCauseFunc, id, holder string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(max(s.lease()/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := s.Store.RenewLease(ctx, id, holder, s.lease())
			switch code := quarry.ErrorCode(err); {
			case err == nil:
			case code == quarry.ECodeConflict || code == quarry.ECodeNotFound:
				s.log().Warn("lost the lease of a document; another worker processes it", "document", id, "err", err)
				cancel(errLeaseLost)
				return
			case ctx.Err() == nil:
				// The store may be back before the lease runs out.
				s.log().Warn("could not renew the lease of a document", "document", id, "err", err)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

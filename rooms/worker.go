package rooms

import (
	"context"
	"errors"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// Queue hands uploaded documents to the workers that process them. Left
// nil, the Service keeps its own queue in memory for the workers Start
// runs in this process; postgres.Queue is a job queue in PostgreSQL that
// any number of quarry worker processes drain.
type Queue interface {
	// Enqueue asks for the document to be processed once, soon.
	Enqueue(ctx context.Context, documentID string) error
}

// queueSize bounds the documents waiting in memory; more stay pending in
// the store and are picked up by the next Start.
const queueSize = 1024

// Start runs workers that process uploaded documents in the background
// until ctx ends, beginning with those a previous run left pending or
// processing. Without Start (and without a Queue), Upload leaves
// documents pending for Process.
func (s *Service) Start(ctx context.Context, workers int) error {
	s.mu.Lock()
	if s.pending != nil {
		s.mu.Unlock()
		return nil
	}
	s.pending = make(chan string, queueSize)
	s.mu.Unlock()
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
					if err := s.Process(ctx, id); err != nil && ctx.Err() == nil {
						s.log().Info("document failed", "document", id, "err", err)
					}
				}
			}
		}()
	}
	for _, d := range left {
		s.enqueue(ctx, d.ID)
	}
	return nil
}

// Wait waits for the workers to stop after their context ended.
func (s *Service) Wait() { s.wg.Wait() }

// enqueue hands a document to the Queue, or to this process's workers
// when they run. A document that cannot be queued stays pending: Start
// and EnqueuePending find it again.
func (s *Service) enqueue(ctx context.Context, id string) {
	if s.Queue != nil {
		if err := s.Queue.Enqueue(ctx, id); err != nil {
			s.log().Warn("could not queue a document; it stays pending until a worker starts", "document", id, "err", err)
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
	case ch <- id:
	default:
		s.log().Warn("processing queue full; the document stays pending until the next start", "document", id)
	}
}

// EnqueuePending hands the Queue every document left pending or
// processing (by an upload whose queueing failed, or a worker that
// stopped midway) and returns how many.
func (s *Service) EnqueuePending(ctx context.Context) (int, error) {
	if s.Queue == nil {
		return 0, quarry.Errorf(quarry.ECodeInternal, "no queue to hand documents to")
	}
	left, err := s.Store.Pending(act(ctx, room.System))
	if err != nil {
		return 0, err
	}
	for _, d := range left {
		if err := s.Queue.Enqueue(ctx, d.ID); err != nil {
			return 0, err
		}
	}
	return len(left), nil
}

// ProcessQueued is what a queue's worker runs for a document: Process,
// unless the document is gone or already completed or failed, so a job
// delivered twice does nothing the second time. A document's own failure
// is recorded on it and not returned; only an interrupted run is, for
// the queue to try again.
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
	if err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)) {
		return err
	}
	if err != nil {
		s.log().Info("document failed", "document", documentID, "err", err)
	}
	return nil
}

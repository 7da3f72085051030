package rooms

import (
	"context"
)

// queueSize bounds the documents waiting in memory; more stay pending in
// the store and are picked up by the next Start.
const queueSize = 1024

// Start runs workers that process uploaded documents in the background
// until ctx ends, beginning with those a previous run left pending or
// processing. Without Start, Upload leaves documents pending for Process.
func (s *Service) Start(ctx context.Context, workers int) error {
	s.mu.Lock()
	if s.pending != nil {
		s.mu.Unlock()
		return nil
	}
	s.pending = make(chan string, queueSize)
	s.mu.Unlock()
	left, err := s.Store.Pending(ctx)
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
		s.enqueue(d.ID)
	}
	return nil
}

// Wait waits for the workers to stop after their context ended.
func (s *Service) Wait() { s.wg.Wait() }

// enqueue hands a document to the workers, when they run.
func (s *Service) enqueue(id string) {
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

package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
)

// Shared is a shared log (OpenShared) that is opened at its first append,
// its directory created, and stays open until Close. A service that lives
// as long as its process, such as the data rooms' over
// DATA_DIR/logs/rooms.jsonl, holds one: nothing is read before there is
// something to write, and a log that cannot be opened (a broken chain is
// CONFLICT) fails the appends that need it, not the process's start, and
// is opened again at the next append. It is safe for concurrent use.
type Shared struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	log    *Log
	closed bool
}

// NewShared returns the shared log at path, not yet opened; now stamps
// its entries (time.Now when nil).
func NewShared(path string, now func() time.Time) *Shared {
	return &Shared{path: path, now: now}
}

// Path returns the file the log writes to.
func (s *Shared) Path() string { return s.path }

// Entries reads back every entry of the log, oldest first.
func (s *Shared) Entries() ([]quarry.AuditEntry, error) { return ReadFile(s.path) }

// AppendFor adds one entry of requestID, opening the log first if it is
// not open (see Log.AppendFor).
func (s *Shared) AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	l, err := s.open()
	if err != nil {
		return quarry.AuditEntry{}, err
	}
	return l.AppendFor(requestID, eventType, actor, data)
}

// open returns the open log, opening it when it is not.
func (s *Shared) open() (*Log, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("audit: append to %s: the log is closed", s.path)
	}
	if s.log == nil {
		if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
			return nil, quarry.StorageError(fmt.Errorf("audit: make the folder of %s: %w", s.path, err))
		}
		l, err := OpenShared(s.path, s.now)
		if err != nil {
			return nil, err
		}
		s.log = l
	}
	return s.log, nil
}

// Close closes the log if it was opened; appends after it fail.
func (s *Shared) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.log == nil {
		return nil
	}
	err := s.log.Close()
	s.log = nil
	return err
}

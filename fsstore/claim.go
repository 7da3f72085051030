package fsstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
)

// runLock is the file ClaimRun locks in a session's directory.
const runLock = ".run.lock"

// ClaimRun records that this process runs the investigation of session id,
// with an exclusive lock on the session's .run.lock, and returns the
// function that gives the claim up. While it is held, another claim on the
// session fails with CONFLICT, in this process or any other that shares
// the data directory; the operating system drops the claim of a process
// that dies. A session left "running" whose claim can be taken was
// therefore interrupted.
func (s *Store) ClaimRun(id string) (release func() error, err error) {
	dir, err := s.Dir(id)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata.json")); err != nil {
		return nil, quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
	}
	lock := flock.New(filepath.Join(dir, runLock))
	ok, err := lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("claim the run of session %s: %w", id, err)
	}
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeConflict, "the investigation of session %s is being run by another Quarry process", id)
	}
	return lock.Close, nil
}

// appendWait is how long UpdateJSON waits for another writer.
const appendWait = 5 * time.Second

// UpdateJSON reads the JSON file rel of session id into v (left as is
// when the file does not exist), lets change modify v, and writes it back,
// holding an exclusive lock on a file beside it ("chat/.history.json.lock"
// for "chat/history.json") throughout, so that processes sharing the data
// dir (quarry serve and quarry mcp) never lose each other's updates. It
// waits up to five seconds for another writer, then answers CONFLICT.
func (s *Store) UpdateJSON(id, rel string, v any, change func() error) error {
	dir, err := s.Dir(id)
	if err != nil {
		return err
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	lock := flock.New(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".lock"))
	ctx, cancel := context.WithTimeout(context.Background(), appendWait)
	defer cancel()
	ok, err := lock.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("lock %s: %w", rel, err)
	}
	if !ok {
		return quarry.Errorf(quarry.ECodeConflict, "%s of session %s is being written by another Quarry process", rel, id)
	}
	defer lock.Close()
	if err := s.ReadJSON(id, rel, v); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := change(); err != nil {
		return err
	}
	return s.WriteJSON(id, rel, v)
}

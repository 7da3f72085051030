package fsstore

import (
	"fmt"
	"os"
	"path/filepath"

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

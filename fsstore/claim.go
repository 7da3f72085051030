package fsstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// The failure note: space set aside in a session's directory before its
// investigation starts (.run.failure, failureNoteSize bytes of spaces), so
// that when the disk fills up and the session's final status cannot be
// saved, why it failed can still be written over that space, which needs
// no new blocks, and reported by the next start instead of "interrupted".
const (
	failureNote     = ".run.failure"
	failureNoteSize = 2048
)

// ReserveFailureNote sets aside the session's failure note, empty.
func (s *Store) ReserveFailureNote(id string) error {
	return s.writeFailureNote(id, nil, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
}

// NoteFailure writes info over the reserved failure note; nil empties it.
// Writing a failure fails when no note was reserved; emptying a note that
// does not exist does nothing.
func (s *Store) NoteFailure(id string, info *quarry.ErrorInfo) error {
	err := s.writeFailureNote(id, info, os.O_WRONLY)
	if info == nil && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (s *Store) writeFailureNote(id string, info *quarry.ErrorInfo, flag int) error {
	dir, err := s.Dir(id)
	if err != nil {
		return err
	}
	buf := bytes.Repeat([]byte{' '}, failureNoteSize)
	if info != nil {
		note := *info
		for {
			data, err := json.Marshal(note)
			if err != nil {
				return err
			}
			if len(data) <= failureNoteSize {
				copy(buf, data)
				break
			}
			// Too long for the space: shorten the message, keep the code.
			note.Message = strings.ToValidUTF8(note.Message[:len(note.Message)/2], "") + "…"
			note.Hint = ""
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, failureNote), flag, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(buf, 0); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// FailureNote returns what the session's failure note says, nil when it
// is empty or was never reserved.
func (s *Store) FailureNote(id string) (*quarry.ErrorInfo, error) {
	dir, err := s.Dir(id)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, failureNote))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil
	}
	var info quarry.ErrorInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("failure note of session %s: %w", id, err)
	}
	return &info, nil
}

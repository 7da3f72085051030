package fsstore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/investigation"
)

func newStore(t *testing.T, maxBytes int64) (*fsstore.Store, *investigation.Investigation) {
	t.Helper()
	s := fsstore.New(t.TempDir(), fsstore.Options{MaxFileBytes: maxBytes})
	sess, err := s.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	return s, sess
}

func TestCreateSessionLayout(t *testing.T) {
	s, sess := newStore(t, 0)
	dir, _ := s.Dir(sess.SessionID)
	for _, p := range []string{"metadata.json", "files", "analysis/hypotheses", "analysis/iterations", "analysis/full_outputs", "results", "chat"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("session dir lacks %s: %v", p, err)
		}
	}
	got, err := s.Session(sess.SessionID)
	if err != nil || got.Status != investigation.StatusCreated || !got.ExpiresAt.After(got.CreatedAt) {
		t.Fatalf("Session() = %+v, %v; want created with expiry after creation", got, err)
	}
}

func TestAddFileRejectsBadUploads(t *testing.T) {
	tests := []struct {
		name, file string
		body       string
		want       string
	}{
		{"not csv", "orders.xlsx", "a,b\n1,2\n", quarry.ECodeInvalidFileType},
		{"no extension", "orders", "a,b\n1,2\n", quarry.ECodeInvalidFileType},
		{"too large", "big.csv", strings.Repeat("x", 101), quarry.ECodeFileTooLarge},
		{"empty", "empty.csv", "", quarry.ECodeEmptyFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, sess := newStore(t, 100)
			_, err := s.AddFile(sess.SessionID, tt.file, "", strings.NewReader(tt.body))
			if got := quarry.ErrorCode(err); got != tt.want {
				t.Fatalf("AddFile(%s) error = %v; want %s", tt.file, err, tt.want)
			}
			dir, _ := s.Dir(sess.SessionID)
			left, _ := os.ReadDir(filepath.Join(dir, "files"))
			if len(left) != 0 {
				t.Fatalf("rejected upload left %d entries in files/", len(left))
			}
		})
	}
}

// endless is an upload that never ends; the store must stop at the limit.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestAddFileStopsReadingAtLimit(t *testing.T) {
	s, sess := newStore(t, 1<<20)
	src := &endless{}
	_, err := s.AddFile(sess.SessionID, "huge.csv", "", src)
	if quarry.ErrorCode(err) != quarry.ECodeFileTooLarge {
		t.Fatalf("AddFile(endless) error = %v; want FILE_TOO_LARGE", err)
	}
	if src.read > 2<<20 {
		t.Fatalf("read %d bytes of an endless upload; want to stop near the 1 MB limit", src.read)
	}
}

func TestAddFileLimitsCountAndKeepsNameOutOfPath(t *testing.T) {
	s, sess := newStore(t, 0)
	for i := 0; i < quarry.MaxFilesPerSession; i++ {
		f, err := s.AddFile(sess.SessionID, "../../etc/evil.csv", "d", strings.NewReader("a\n1\n"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f.Path, "..") || f.Path != "files/"+f.FileID+".csv" {
			t.Fatalf("stored path %q derives from the user's name", f.Path)
		}
	}
	_, err := s.AddFile(sess.SessionID, "eleven.csv", "", strings.NewReader("a\n1\n"))
	if quarry.ErrorCode(err) != quarry.ECodeMaxFilesExceeded {
		t.Fatalf("11th file error = %v; want MAX_FILES_EXCEEDED", err)
	}
	files, _ := s.Files(sess.SessionID)
	if len(files) != quarry.MaxFilesPerSession {
		t.Fatalf("Files() = %d; want %d", len(files), quarry.MaxFilesPerSession)
	}
	if err := s.RemoveFile(sess.SessionID, files[0].FileID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.File(sess.SessionID, files[0].FileID); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Fatalf("File(removed) error = %v; want NOT_FOUND", err)
	}
}

func TestUnknownAndMalformedSessionIDs(t *testing.T) {
	s, _ := newStore(t, 0)
	for _, id := range []string{"../../etc", "", "00000000-0000-4000-8000-000000000000"} {
		if _, err := s.Session(id); quarry.ErrorCode(err) != quarry.ECodeSessionNotFound {
			t.Errorf("Session(%q) error = %v; want SESSION_NOT_FOUND", id, err)
		}
	}
	if _, err := s.Path("00000000-0000-4000-8000-000000000000", "../../x"); quarry.ErrorCode(err) != quarry.ECodeInvalid {
		t.Errorf("Path(escape) error = %v; want INVALID", err)
	}
}

// TestClaimRun: one claim per session at a time, given back by release;
// sessions that do not exist cannot be claimed.
func TestClaimRun(t *testing.T) {
	s, sess := newStore(t, 0)
	release, err := s.ClaimRun(sess.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimRun(sess.SessionID); quarry.ErrorCode(err) != quarry.ECodeConflict {
		t.Fatalf("second claim = %v; want %s", err, quarry.ECodeConflict)
	}
	other, err := s.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	releaseOther, err := s.ClaimRun(other.SessionID)
	if err != nil {
		t.Fatalf("a claim on another session: %v", err)
	}
	releaseOther()
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again, err := s.ClaimRun(sess.SessionID)
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	again()
	for _, id := range []string{"../../etc", "00000000-0000-4000-8000-000000000000"} {
		if _, err := s.ClaimRun(id); quarry.ErrorCode(err) != quarry.ECodeSessionNotFound {
			t.Errorf("ClaimRun(%q) = %v; want %s", id, err, quarry.ECodeSessionNotFound)
		}
	}
}

// TestRemoveStaleUploads: an upload cut off by a killed process leaves its
// temporary file; the next start removes it once it is old, and leaves an
// upload that may still be in progress elsewhere alone.
func TestRemoveStaleUploads(t *testing.T) {
	s, sess := newStore(t, 0)
	dir, _ := s.Dir(sess.SessionID)
	old := filepath.Join(dir, "files", ".upload123")
	fresh := filepath.Join(dir, "files", ".upload456")
	kept := filepath.Join(dir, "files", "abc.csv")
	for _, p := range []string{old, fresh, kept} {
		if err := os.WriteFile(p, []byte("day,amount\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, long, long)
	os.Chtimes(kept, long, long)
	n, err := s.RemoveStaleUploads()
	if err != nil || n != 1 {
		t.Fatalf("RemoveStaleUploads = %d, %v; want 1", n, err)
	}
	for p, want := range map[string]bool{old: false, fresh: true, kept: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists: %v; want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// The failure note holds one error in the space reserved for it, however
// long its message, and is empty when reserved, emptied or never reserved.
func TestFailureNote(t *testing.T) {
	s, sess := newStore(t, 0)
	id := sess.SessionID
	if err := s.NoteFailure(id, &quarry.ErrorInfo{Code: quarry.ECodeStorageFull, Message: "x"}); err == nil {
		t.Fatal("a failure was noted without reserved space")
	}
	if note, err := s.FailureNote(id); note != nil || err != nil {
		t.Fatalf("note never reserved = %+v, %v; want none", note, err)
	}
	if err := s.ReserveFailureNote(id); err != nil {
		t.Fatal(err)
	}
	dir, _ := s.Dir(id)
	before, err := os.Stat(filepath.Join(dir, ".run.failure"))
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 3000)
	if err := s.NoteFailure(id, &quarry.ErrorInfo{Code: quarry.ECodeStorageFull, Message: long, Hint: "free space"}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(dir, ".run.failure"))
	if after.Size() != before.Size() {
		t.Errorf("the note grew from %d to %d bytes; it must fit its reserved space", before.Size(), after.Size())
	}
	note, err := s.FailureNote(id)
	if err != nil || note == nil || note.Code != quarry.ECodeStorageFull || !utf8.ValidString(note.Message) || !strings.HasPrefix(note.Message, "éé") {
		t.Fatalf("note = %+v, %v; want the code and the start of the message", note, err)
	}
	if err := s.NoteFailure(id, nil); err != nil {
		t.Fatal(err)
	}
	if note, err := s.FailureNote(id); note != nil || err != nil {
		t.Fatalf("emptied note = %+v, %v; want none", note, err)
	}
}

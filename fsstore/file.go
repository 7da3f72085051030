package fsstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// AddFile streams an upload into files/{file_id}.csv and writes its
// metadata. It refuses a name that is not .csv (INVALID_FILE_TYPE), an 11th
// file (MAX_FILES_EXCEEDED) and content over the size limit
// (FILE_TOO_LARGE) — the limit is enforced while copying, so an oversized
// upload is never read past the limit. On any error nothing is left behind.
// The original name is kept only as metadata; it never becomes a path.
func (s *Store) AddFile(id, originalName, description string, r io.Reader) (*investigation.UploadedFile, error) {
	dir, err := s.Dir(id)
	if err != nil {
		return nil, err
	}
	if _, err := s.Session(id); err != nil {
		return nil, err
	}
	if err := checkUploadName(originalName); err != nil {
		return nil, err
	}
	if err := quarry.CheckText("the description of "+originalName, description, quarry.MaxDescriptionLen, quarry.ECodeInvalid); err != nil {
		return nil, err
	}
	files, err := s.Files(id)
	if err != nil {
		return nil, err
	}
	if len(files) >= quarry.MaxFilesPerSession {
		return nil, quarry.Errorf(quarry.ECodeMaxFilesExceeded, "a session holds at most %d files", quarry.MaxFilesPerSession)
	}

	f := &investigation.UploadedFile{
		FileID:       quarry.NewID(),
		SessionID:    id,
		OriginalName: originalName,
		Description:  description,
		UploadedAt:   s.now().UTC(),
	}
	f.Path = "files/" + f.FileID + ".csv"
	final := filepath.Join(dir, filepath.FromSlash(f.Path))
	tmp, err := os.CreateTemp(filepath.Dir(final), ".upload*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	n, err := io.Copy(tmp, io.LimitReader(r, s.maxFileBytes+1))
	if err == nil && n > s.maxFileBytes {
		err = quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than the %d MB limit", originalName, s.maxFileBytes>>20)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", originalName)
	}
	f.SizeBytes = n
	if err := os.Rename(tmp.Name(), final); err != nil {
		return nil, err
	}
	if err := s.SaveFile(f); err != nil {
		os.Remove(final)
		return nil, err
	}
	return f, nil
}

func checkUploadName(name string) error {
	if name == "" || !utf8.ValidString(name) {
		return quarry.Errorf(quarry.ECodeInvalidFileType, "the file needs a name ending in .csv")
	}
	if err := quarry.CheckText("the file name", name, quarry.MaxOriginalNameLen, quarry.ECodeInvalid); err != nil {
		return err
	}
	if !strings.EqualFold(filepath.Ext(name), ".csv") {
		return quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a .csv file", name).
			WithHint("export the data as comma-separated values with a header row")
	}
	return nil
}

// SaveFile writes a file's metadata (files/{file_id}_meta.json).
func (s *Store) SaveFile(f *investigation.UploadedFile) error {
	return s.WriteJSON(f.SessionID, "files/"+f.FileID+"_meta.json", f)
}

// File reads one file's metadata. Errors: NOT_FOUND.
func (s *Store) File(id, fileID string) (*investigation.UploadedFile, error) {
	if !idPattern.MatchString(fileID) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "file %q does not exist", fileID)
	}
	var f investigation.UploadedFile
	if err := s.ReadJSON(id, "files/"+fileID+"_meta.json", &f); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, quarry.Errorf(quarry.ECodeNotFound, "file %s does not exist in session %s", fileID, id)
		}
		return nil, err
	}
	return &f, nil
}

// Files lists a session's files in upload order.
func (s *Store) Files(id string) ([]*investigation.UploadedFile, error) {
	dir, err := s.Dir(id)
	if err != nil {
		return nil, err
	}
	matches, err := filepath.Glob(filepath.Join(dir, "files", "*_meta.json"))
	if err != nil {
		return nil, err
	}
	var out []*investigation.UploadedFile
	for _, m := range matches {
		fid := strings.TrimSuffix(filepath.Base(m), "_meta.json")
		f, err := s.File(id, fid)
		if err != nil {
			return nil, fmt.Errorf("read metadata of %s: %w", fid, err)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UploadedAt.Before(out[j].UploadedAt) })
	return out, nil
}

// RemoveFile deletes a file and its metadata. Errors: NOT_FOUND.
func (s *Store) RemoveFile(id, fileID string) error {
	f, err := s.File(id, fileID)
	if err != nil {
		return err
	}
	dir, _ := s.Dir(id)
	// Metadata first: a crash in between leaves an orphan data file, which
	// Files ignores, rather than metadata pointing at nothing.
	if err := os.Remove(filepath.Join(dir, "files", f.FileID+"_meta.json")); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dir, filepath.FromSlash(f.Path)))
}

// DeleteSession removes a session and everything in it.
func (s *Store) DeleteSession(id string) error {
	dir, err := s.Dir(id)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata.json")); err != nil {
		return quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
	}
	return os.RemoveAll(dir)
}

// Purge removes everything of a session but its metadata, which an expired
// session leaves behind as a record that it existed, and its .run.lock, so
// that a claim held while purging stays the only one (see ClaimRun).
func (s *Store) Purge(id string) error {
	dir, err := s.Dir(id)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
		}
		return err
	}
	for _, e := range entries {
		if e.Name() == "metadata.json" || e.Name() == runLock {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// staleUpload is how old an upload's temporary file must be before
// RemoveStaleUploads deletes it: older than any upload still in progress in
// another process sharing the data dir.
const staleUpload = time.Hour

// RemoveStaleUploads deletes the temporary files (files/.upload*) that
// uploads cut off by a killed process leave behind, when they are more than
// an hour old, and returns how many it removed.
func (s *Store) RemoveStaleUploads() (int, error) {
	tmps, err := filepath.Glob(filepath.Join(s.root, "*", "files", ".upload*"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range tmps {
		st, err := os.Stat(p)
		// Modification times are the file system's clock, not the store's.
		if err != nil || time.Since(st.ModTime()) < staleUpload {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return n, err
		}
		n++
	}
	return n, nil
}

package investigations

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// AddFile streams an upload into the session, checks that it is a CSV file
// the engine can read (header, rows, UTF-8) and records its row count and
// inferred schema. A rejected file leaves nothing behind. The first file
// moves the session from created to has_files; a running or finished
// session takes no more files (CONFLICT).
func (m *Service) AddFile(ctx context.Context, id, name, description string, r io.Reader) (*investigation.UploadedFile, error) {
	unlock := m.lock(id)
	defer unlock()
	s, err := m.active(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.Move(investigation.StatusHasFiles); err != nil {
		return nil, quarry.Errorf(quarry.ECodeConflict, "files cannot be added to a session that is %s", s.Status)
	}
	f, err := m.cfg.Store.AddFile(id, name, description, r)
	if err != nil {
		return nil, err
	}
	files, err := m.cfg.Store.Files(id)
	if err != nil {
		return nil, err
	}
	var others []*investigation.UploadedFile
	taken := map[string]bool{}
	for _, o := range files {
		if o.FileID != f.FileID && o.TableName != "" {
			others = append(others, o)
			taken[o.TableName] = true
		}
	}
	f.TableName = m.cfg.TableName(f.OriginalName, taken)
	if err := m.profile(ctx, f, others); err != nil {
		if rerr := m.cfg.Store.RemoveFile(id, f.FileID); rerr != nil {
			m.cfg.Log.Error("remove rejected upload", "session", id, "file", f.FileID, "err", rerr)
		}
		return nil, err
	}
	if err := m.cfg.Store.SaveFile(f); err != nil {
		return nil, err
	}
	s.FileCount = len(files)
	return f, m.cfg.Store.SaveSession(s)
}

// profile loads the file as the investigation will, at upload time, so a
// bad file is refused at once. It loads it into the kept engine holding
// the session's other files when there is one, or a new one, and keeps
// the engine when it then holds every file of the session, for the
// preflight and the run to use instead of loading the files again.
func (m *Service) profile(ctx context.Context, f *investigation.UploadedFile, others []*investigation.UploadedFile) error {
	eng := m.takeLoaded(f.SessionID, others)
	if eng == nil {
		e, err := m.openEngine(ctx)
		if err != nil {
			return err
		}
		eng = newPreloaded(e)
	}
	path, err := m.cfg.Store.Path(f.SessionID, f.Path)
	if err == nil {
		f.Schema, f.RowCount, err = eng.load(ctx, f.TableName, path)
		err = withFileName(err, filepath.Base(path), f.OriginalName)
	}
	switch {
	case err == nil && eng.holds(others):
		m.keepLoaded(f.SessionID, append(others, f), eng)
	case err != nil && len(others) > 0 && eng.holds(others):
		// a refused file leaves no table behind: the engine still
		// holds the others
		m.keepLoaded(f.SessionID, others, eng)
	default:
		eng.Close()
	}
	return err
}

// Files lists a session's files in upload order.
func (m *Service) Files(ctx context.Context, id string) ([]*investigation.UploadedFile, error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, err
	}
	return m.cfg.Store.Files(id)
}

// DescribeFile sets a file's description (at most 2000 characters). It is
// allowed until the investigation starts.
func (m *Service) DescribeFile(ctx context.Context, id, fileID, description string) (*investigation.UploadedFile, error) {
	unlock := m.lock(id)
	defer unlock()
	s, err := m.active(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Status != investigation.StatusHasFiles {
		return nil, quarry.Errorf(quarry.ECodeConflict, "file descriptions cannot change in a session that is %s", s.Status)
	}
	if err := quarry.CheckText("the description", description, quarry.MaxDescriptionLen, quarry.ECodeInvalid); err != nil {
		return nil, err
	}
	f, err := m.cfg.Store.File(id, fileID)
	if err != nil {
		return nil, err
	}
	f.Description = description
	return f, m.cfg.Store.SaveFile(f)
}

// RemoveFile deletes a file. Removing the last one moves the session back
// to created; files cannot be removed once the investigation has started.
func (m *Service) RemoveFile(ctx context.Context, id, fileID string) error {
	unlock := m.lock(id)
	defer unlock()
	s, err := m.active(ctx, id)
	if err != nil {
		return err
	}
	if s.Status != investigation.StatusHasFiles {
		return quarry.Errorf(quarry.ECodeConflict, "files cannot be removed from a session that is %s", s.Status)
	}
	if err := m.cfg.Store.RemoveFile(id, fileID); err != nil {
		return err
	}
	m.engines.drop(id)
	files, err := m.cfg.Store.Files(id)
	if err != nil {
		return err
	}
	s.FileCount = len(files)
	if len(files) == 0 {
		if err := s.Move(investigation.StatusCreated); err != nil {
			return err
		}
	}
	return m.cfg.Store.SaveSession(s)
}

// withFileName puts the name the user uploaded in place of the stored
// copy's name ({file_id}.csv) in an error about the file.
func withFileName(err error, stored, original string) error {
	var qe *quarry.Error
	if !errors.As(err, &qe) {
		return err
	}
	c := *qe
	c.Message = strings.ReplaceAll(c.Message, stored, original)
	c.Hint = strings.ReplaceAll(c.Hint, stored, original)
	return &c
}

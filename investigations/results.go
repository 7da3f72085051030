package investigations

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// finished returns the session if its investigation has completed.
// Errors: SESSION_NOT_FOUND, SESSION_EXPIRED, INVESTIGATION_NOT_COMPLETE.
func (m *Service) finished(ctx context.Context, id string) (*investigation.Investigation, error) {
	s, err := m.active(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Status != investigation.StatusCompleted {
		return nil, notComplete(s)
	}
	return s, nil
}

// Report returns the report of a completed investigation.
func (m *Service) Report(ctx context.Context, id string) (*investigation.Report, error) {
	s, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	content, written, err := m.reportText(id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notComplete(s)
	}
	if err != nil {
		return nil, err
	}
	generated := written // sessions run by the command line have no FinishedAt
	if s.FinishedAt != nil {
		generated = *s.FinishedAt
	}
	status := s.Outcome
	if status == "" {
		status = investigation.OutcomeCompleted
	}
	return &investigation.Report{SessionID: id, Content: content, GeneratedAt: generated, Status: status}, nil
}

// reportText reads report.md and when it was written, whatever the
// session's status: the run indexes it before the session is completed.
func (m *Service) reportText(id string) (string, time.Time, error) {
	path, err := m.cfg.Store.Path(id, "report.md")
	if err != nil {
		return "", time.Time{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", time.Time{}, err
	}
	data, err := io.ReadAll(f)
	return string(data), st.ModTime().UTC(), err
}

// Explanations returns the ranked explanations of a completed
// investigation.
func (m *Service) Explanations(ctx context.Context, id string) ([]investigation.Explanation, error) {
	if _, err := m.finished(ctx, id); err != nil {
		return nil, err
	}
	var out []investigation.Explanation
	if err := m.cfg.Store.ReadJSON(id, "results/explanations.json", &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = []investigation.Explanation{}
	}
	return out, nil
}

// Context returns the investigation request of a session, or nil before
// one was made.
func (m *Service) Context(ctx context.Context, id string) (*investigation.Context, error) {
	return readOptional[investigation.Context](m.cfg.Store, id, "context.json")
}

// readOptional reads a JSON artifact of a session, or nil when the run has
// not written it yet.
func readOptional[T any](store Store, id, rel string) (*T, error) {
	if _, err := store.Session(id); err != nil {
		return nil, err
	}
	var v T
	if err := store.ReadJSON(id, rel, &v); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return &v, nil
}

// Iterations returns the memory-loop iterations recorded so far.
func (m *Service) Iterations(ctx context.Context, id string) ([]investigation.IterationLog, error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, err
	}
	dir, err := m.cfg.Store.Path(id, "analysis/iterations")
	if err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "iter_*.json"))
	if err != nil {
		return nil, err
	}
	out := make([]investigation.IterationLog, 0, len(names))
	for _, n := range names { // Glob sorts; iter_NNN sorts numerically
		var it investigation.IterationLog
		if err := m.cfg.Store.ReadJSON(id, "analysis/iterations/"+filepath.Base(n), &it); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

// ArtifactPath returns the path on disk of an artifact of a session (a
// chart, the report), for serving it. Errors: NOT_FOUND.
func (m *Service) ArtifactPath(ctx context.Context, id, rel string) (string, error) {
	if _, err := m.active(ctx, id); err != nil {
		return "", err
	}
	path, err := m.cfg.Store.Path(id, rel)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "no artifact %q", rel)
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return "", quarry.Errorf(quarry.ECodeNotFound, "no artifact %q", rel)
	}
	return path, nil
}

// DataModel returns the data model the investigation inferred, or nil
// before the schema step has run.
func (m *Service) DataModel(ctx context.Context, id string) (*investigation.DataModel, error) {
	return readOptional[investigation.DataModel](m.cfg.Store, id, "analysis/schema.json")
}

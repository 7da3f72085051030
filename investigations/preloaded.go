package investigations

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/investigation"
)

// preloaded is an engine holding files loaded before the investigation
// needs them: by the upload's check, kept for the next file or the
// start, or by the preflight, handed to the run. LoadCSV of one of them,
// under its table name and from its path, returns once what that load
// found instead of reading the file again. An investigation of one
// upload had loaded it three times (the check, the preflight, the run),
// nine tenths of its cost on a 500,000-row file.
//
// A preloaded engine is never locked; the query cache keeps locked
// engines under other keys (loadKey), so a query never runs on one.
type preloaded struct {
	investigate.Engine
	loads map[string]loadedFile // by table name
}

// loadedFile is what one LoadCSV found.
type loadedFile struct {
	path   string
	schema *quarry.FileSchema
	rows   int64
}

func newPreloaded(eng investigate.Engine) *preloaded {
	return &preloaded{Engine: eng, loads: map[string]loadedFile{}}
}

// load loads the file at path as table name and remembers what it found.
func (e *preloaded) load(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	schema, rows, err := e.Engine.LoadCSV(ctx, name, path)
	if err == nil {
		e.loads[name] = loadedFile{path: cleanPath(path), schema: schema, rows: rows}
	}
	return schema, rows, err
}

// holds reports whether every one of files is loaded, under its table
// name.
func (e *preloaded) holds(files []*investigation.UploadedFile) bool {
	for _, f := range files {
		if _, ok := e.loads[f.TableName]; !ok {
			return false
		}
	}
	return true
}

// LoadCSV returns, once, what the earlier load of path as name found;
// any other load is the engine's.
func (e *preloaded) LoadCSV(ctx context.Context, name, path string) (*quarry.FileSchema, int64, error) {
	if f, ok := e.loads[name]; ok && f.path == cleanPath(path) {
		delete(e.loads, name)
		return f.schema, f.rows, nil
	}
	return e.Engine.LoadCSV(ctx, name, path)
}

// cleanPath is path made absolute, so that the store's path and the
// run's name one file alike.
func cleanPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// loadKey is the engine cache's key of an unlocked engine holding files;
// filesKey, the query engines' key, never equals it.
func loadKey(files []*investigation.UploadedFile) string {
	return "load:" + filesKey(files)
}

// loadFiles loads files into a new engine, each as its table.
func (m *Service) loadFiles(ctx context.Context, files []*investigation.UploadedFile) (*preloaded, error) {
	e, err := m.openEngine(ctx)
	if err != nil {
		return nil, err
	}
	eng := newPreloaded(e)
	for _, f := range files {
		path, err := m.cfg.Store.Path(f.SessionID, f.Path)
		if err == nil {
			_, _, err = eng.load(ctx, f.TableName, path)
		}
		if err != nil {
			eng.Close()
			return nil, fmt.Errorf("%s: %w", f.OriginalName, err)
		}
	}
	return eng, nil
}

// takeLoaded returns the kept engine of session holding exactly files,
// or nil.
func (m *Service) takeLoaded(id string, files []*investigation.UploadedFile) *preloaded {
	eng := m.engines.take(id, loadKey(files), m.now())
	if eng == nil {
		return nil
	}
	p, ok := eng.(*preloaded)
	if !ok || !p.holds(files) {
		eng.Close()
		return nil
	}
	return p
}

// keepLoaded keeps eng, which holds exactly files, for the session's next
// upload or its start; when someone waits for an engine's place, it
// closes it instead.
func (m *Service) keepLoaded(id string, files []*investigation.UploadedFile, eng *preloaded) {
	if m.budget.Crowded() {
		eng.Close()
		return
	}
	m.engines.put(id, loadKey(files), eng, m.now())
}

package fsstore

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/atomicfile"
)

// Analyses keeps the analyze job's files under a data dir, in the
// specification's layout: artifacts/{tables,charts,reports}/{request_id}/,
// logs/data_agent_runs.jsonl, and each request's record in
// analyses/{request_id}/.
type Analyses struct{ Root string }

// Dir is the data dir.
func (a Analyses) Dir() string { return a.Root }

// AuditLog is the path of the analyses' shared, hash-chained log.
func (a Analyses) AuditLog() string { return filepath.Join(a.Root, "logs", "data_agent_runs.jsonl") }

// path resolves rel (slash-separated, inside the root) to a file path.
func (a Analyses) path(rel string) (string, error) {
	clean := path.Clean(filepath.ToSlash(rel))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", quarry.Errorf(quarry.ECodeInvalid, "%s is not a path inside the data dir", rel)
	}
	return filepath.Join(a.Root, filepath.FromSlash(clean)), nil
}

// WriteArtifact writes data to rel through a temporary file and a rename
// and returns its path.
func (a Analyses) WriteArtifact(rel string, data []byte) (string, error) {
	p, err := a.path(rel)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, atomicfile.Write(p, data)
}

// SaveJSON writes v as indented JSON to rel.
func (a Analyses) SaveJSON(rel string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	_, err = a.WriteArtifact(rel, append(data, '\n'))
	return err
}

// ReadJSON reads rel into v. Errors: NOT_FOUND when it does not exist.
func (a Analyses) ReadJSON(rel string, v any) error {
	p, err := a.path(rel)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return quarry.Errorf(quarry.ECodeNotFound, "%s does not exist", rel)
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

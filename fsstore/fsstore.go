// Package fsstore keeps session artifacts on disk in the specification's
// layout:
//
//	sessions/{session_id}/
//	  metadata.json            Session
//	  context.json             InvestigationContext
//	  files/{file_id}.csv      uploaded file
//	  files/{file_id}_meta.json UploadedFile + FileSchema
//	  analysis/schema.json     DataModel
//	  analysis/plan.json       AnalysisPlan
//	  analysis/hypotheses/hyp_NNN.json
//	  analysis/findings_ledger.json
//	  analysis/iterations/iter_NNN.json
//	  analysis/full_outputs/output_NNN.txt
//	  results/explanations.json
//	  report.md, charts/*.png
//	  audit.jsonl              hash-chained audit log
//	  chat/history.json
//	  .run.lock                held by the process running the investigation
//	  .audit.jsonl.lock        held by the audit log's one writer
//
// Every write goes to a temporary file that is synced and renamed into
// place, so a crash leaves either the old or the new content, never half.
package fsstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/atomicfile"
	"github.com/quarry-dev/quarry/investigation"
)

// Store is a directory of sessions.
type Store struct {
	root         string
	now          func() time.Time
	timeout      time.Duration
	maxFileBytes int64
}

// Options configure a Store; zero values take the specification's defaults.
type Options struct {
	Now            func() time.Time
	SessionTimeout time.Duration // default 24h
	MaxFileBytes   int64         // default 50 MB
}

// New returns a store keeping sessions under dataDir/sessions.
func New(dataDir string, opt Options) *Store {
	s := &Store{root: filepath.Join(dataDir, "sessions"), now: opt.Now, timeout: opt.SessionTimeout, maxFileBytes: opt.MaxFileBytes}
	if s.now == nil {
		s.now = time.Now
	}
	if s.timeout <= 0 {
		s.timeout = quarry.DefaultSessionTimeout
	}
	if s.maxFileBytes <= 0 {
		s.maxFileBytes = quarry.MaxFileBytes
	}
	return s
}

// MaxFileBytes returns the upload limit in bytes.
func (s *Store) MaxFileBytes() int64 { return s.maxFileBytes }

var idPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Dir returns the directory of a session. The id must be a UUID, so no
// caller-supplied text ever becomes a path.
func (s *Store) Dir(id string) (string, error) {
	if !idPattern.MatchString(id) {
		return "", quarry.Errorf(quarry.ECodeSessionNotFound, "session %q does not exist", id)
	}
	return filepath.Join(s.root, id), nil
}

// CreateSession makes a new session directory with status created.
func (s *Store) CreateSession() (*investigation.Investigation, error) {
	now := s.now().UTC()
	sess := &investigation.Investigation{
		SessionID: quarry.NewID(),
		Status:    investigation.StatusCreated,
		CreatedAt: now,
		ExpiresAt: now.Add(s.timeout),
	}
	dir, _ := s.Dir(sess.SessionID)
	for _, sub := range []string{"files", "analysis/hypotheses", "analysis/iterations", "analysis/full_outputs", "results", "chat"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("create session: %w", err)
		}
	}
	if err := s.SaveSession(sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// Session reads a session's metadata. Errors: SESSION_NOT_FOUND.
func (s *Store) Session(id string) (*investigation.Investigation, error) {
	var sess investigation.Investigation
	if err := s.ReadJSON(id, "metadata.json", &sess); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
		}
		return nil, err
	}
	return &sess, nil
}

// SaveSession writes a session's metadata.
func (s *Store) SaveSession(sess *investigation.Investigation) error {
	return s.WriteJSON(sess.SessionID, "metadata.json", sess)
}

// Sessions lists every session, oldest first.
func (s *Store) Sessions() ([]*investigation.Investigation, error) {
	entries, err := os.ReadDir(s.root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []*investigation.Investigation
	for _, e := range entries {
		if !e.IsDir() || !idPattern.MatchString(e.Name()) {
			continue
		}
		sess, err := s.Session(e.Name())
		if err != nil {
			continue // a directory without metadata is not a session
		}
		out = append(out, sess)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// Path returns the absolute path of an artifact of a session. rel uses
// forward slashes and must stay inside the session directory.
func (s *Store) Path(id, rel string) (string, error) {
	dir, err := s.Dir(id)
	if err != nil {
		return "", err
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == "." || filepath.IsAbs(clean) || strings.HasPrefix(clean, "..") {
		return "", quarry.Errorf(quarry.ECodeInvalid, "artifact path %q is outside the session", rel)
	}
	return filepath.Join(dir, clean), nil
}

// WriteJSON writes v as indented JSON to an artifact, atomically.
func (s *Store) WriteJSON(id, rel string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	return s.WriteFile(id, rel, append(data, '\n'))
}

// WriteFile writes data to an artifact, atomically.
func (s *Store) WriteFile(id, rel string, data []byte) error {
	path, err := s.Path(id, rel)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data)
}

// ReadJSON decodes an artifact into v. A missing artifact gives an error
// that wraps os.ErrNotExist.
func (s *Store) ReadJSON(id, rel string, v any) error {
	path, err := s.Path(id, rel)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", rel, err)
	}
	return nil
}

// SessionFiles writes the artifacts of one session. It satisfies the
// investigation's Artifacts contract.
type SessionFiles struct {
	s  *Store
	id string
}

// SessionFiles returns the artifact writer of a session.
func (s *Store) SessionFiles(id string) (*SessionFiles, error) {
	if _, err := s.Dir(id); err != nil {
		return nil, err
	}
	return &SessionFiles{s: s, id: id}, nil
}

func (f *SessionFiles) WriteJSON(rel string, v any) error { return f.s.WriteJSON(f.id, rel, v) }
func (f *SessionFiles) WriteFile(rel string, data []byte) error {
	return f.s.WriteFile(f.id, rel, data)
}

// Dir returns the session directory.
func (f *SessionFiles) Dir() string {
	dir, _ := f.s.Dir(f.id)
	return dir
}

package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// fakeService is an in-memory Service for the page tests. Set the *Err
// fields to make the matching call fail.
type fakeService struct {
	mu       sync.Mutex
	dir      string // artifacts live under dir/{id}/
	now      time.Time
	next     int
	sessions map[string]*investigation.Investigation
	order    []string
	files    map[string][]*investigation.UploadedFile
	contexts map[string]*investigation.Context
	reports  map[string]*investigation.Report
	models   map[string]*investigation.DataModel
	history  map[string][]investigation.ChatMessage
	events   map[string][]investigation.Event
	iters    map[string][]investigation.IterationLog

	addFileErr     error
	investigateErr error
	answer         investigation.ChatMessage // what Chat replies

	// Calls records what reached the service.
	investigated []investigation.Context
	asked        []string
}

var _ Service = (*fakeService)(nil)

func newFake(t *testing.T) *fakeService {
	return &fakeService{dir: t.TempDir(), now: time.Date(2024, 3, 15, 9, 30, 0, 0, time.UTC),
		sessions: map[string]*investigation.Investigation{}, files: map[string][]*investigation.UploadedFile{},
		contexts: map[string]*investigation.Context{}, reports: map[string]*investigation.Report{},
		models: map[string]*investigation.DataModel{}, history: map[string][]investigation.ChatMessage{},
		events: map[string][]investigation.Event{}, iters: map[string][]investigation.IterationLog{}}
}

// add puts a session in the given status and returns its id.
func (f *fakeService) add(status investigation.Status) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	id := fmt.Sprintf("%08d-aaaa-bbbb-cccc-000000000000", f.next)
	f.sessions[id] = &investigation.Investigation{SessionID: id, Status: status, CreatedAt: f.now.Add(time.Duration(f.next) * time.Minute),
		ExpiresAt: f.now.Add(24 * time.Hour)}
	f.order = append([]string{id}, f.order...)
	return id
}

func (f *fakeService) session(id string) (*investigation.Investigation, error) {
	s, ok := f.sessions[id]
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeSessionNotFound, "session %s not found", id)
	}
	return s, nil
}

func (f *fakeService) Create(ctx context.Context) (*investigation.Investigation, error) {
	id := f.add(investigation.StatusCreated)
	return f.Session(ctx, id)
}

func (f *fakeService) Session(_ context.Context, id string) (*investigation.Investigation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.session(id)
	if err != nil {
		return nil, err
	}
	c := *s
	return &c, nil
}

func (f *fakeService) Sessions(context.Context) ([]*investigation.Investigation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*investigation.Investigation
	for _, id := range f.order {
		c := *f.sessions[id]
		out = append(out, &c)
	}
	return out, nil
}

func (f *fakeService) Delete(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.sessions, id)
	return nil
}

func (f *fakeService) AddFile(_ context.Context, id, name, description string, r io.Reader) (*investigation.UploadedFile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.session(id)
	if err != nil {
		return nil, err
	}
	if f.addFileErr != nil {
		return nil, f.addFileErr
	}
	table := strings.TrimSuffix(name, ".csv")
	uf := &investigation.UploadedFile{FileID: fmt.Sprintf("file%d", len(f.files[id])+1), SessionID: id, OriginalName: name,
		Description: description, TableName: table, RowCount: int64(bytes.Count(data, []byte("\n")) - 1),
		SizeBytes: int64(len(data)), UploadedAt: f.now,
		Schema: &quarry.FileSchema{Columns: []quarry.Column{
			{Name: "order_id", InferredType: quarry.RoleID, DataType: quarry.TypeInteger},
			{Name: "amount", InferredType: quarry.RoleMeasure, DataType: quarry.TypeFloat},
		}}}
	f.files[id] = append(f.files[id], uf)
	s.FileCount, s.Status = len(f.files[id]), investigation.StatusHasFiles
	return uf, nil
}

func (f *fakeService) Files(_ context.Context, id string) ([]*investigation.UploadedFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.session(id); err != nil {
		return nil, err
	}
	return slices.Clone(f.files[id]), nil
}

func (f *fakeService) DescribeFile(_ context.Context, id, fileID, description string) (*investigation.UploadedFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, uf := range f.files[id] {
		if uf.FileID == fileID {
			uf.Description = description
			c := *uf
			return &c, nil
		}
	}
	return nil, quarry.Errorf(quarry.ECodeNotFound, "no file %s", fileID)
}

func (f *fakeService) RemoveFile(_ context.Context, id, fileID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, uf := range f.files[id] {
		if uf.FileID == fileID {
			f.files[id] = slices.Delete(f.files[id], i, i+1)
			return nil
		}
	}
	return quarry.Errorf(quarry.ECodeNotFound, "no file %s", fileID)
}

func (f *fakeService) Investigate(_ context.Context, id string, c investigation.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.investigated = append(f.investigated, c)
	if f.investigateErr != nil {
		return f.investigateErr
	}
	s, err := f.session(id)
	if err != nil {
		return err
	}
	s.Status = investigation.StatusRunning
	f.contexts[id] = &c
	return nil
}

func (f *fakeService) Context(_ context.Context, id string) (*investigation.Context, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.contexts[id], nil
}

func (f *fakeService) Subscribe(_ context.Context, id string) ([]investigation.Event, <-chan investigation.Event, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan investigation.Event)
	close(ch)
	return slices.Clone(f.events[id]), ch, func() {}, nil
}

func (f *fakeService) Iterations(_ context.Context, id string) ([]investigation.IterationLog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.iters[id], nil
}

func (f *fakeService) DataModel(_ context.Context, id string) (*investigation.DataModel, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.models[id], nil
}

func (f *fakeService) Report(_ context.Context, id string) (*investigation.Report, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.reports[id]
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeInvestigationNotComplete, "no report")
	}
	return r, nil
}

func (f *fakeService) Explanations(context.Context, string) ([]investigation.Explanation, error) {
	return nil, nil
}

func (f *fakeService) ArtifactPath(_ context.Context, id, rel string) (string, error) {
	p := filepath.Join(f.dir, id, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "no artifact %q", rel)
	}
	return p, nil
}

// writeArtifact puts a file in a session's artifacts.
func (f *fakeService) writeArtifact(t *testing.T, id, rel, content string) {
	t.Helper()
	p := filepath.Join(f.dir, id, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeService) Chat(_ context.Context, id, message string) (*investigation.ChatMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.session(id)
	if err != nil {
		return nil, err
	}
	message = strings.TrimSpace(message)
	if message == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the message is empty")
	}
	if s.Status != investigation.StatusCompleted {
		return nil, quarry.Errorf(quarry.ECodeInvestigationNotComplete, "the investigation is %s, not completed", s.Status)
	}
	f.asked = append(f.asked, message)
	a := f.answer
	a.SessionID, a.Role, a.Timestamp = id, investigation.ChatAssistant, f.now
	f.history[id] = append(f.history[id], investigation.ChatMessage{SessionID: id, Role: investigation.ChatUser, Content: message, Timestamp: f.now}, a)
	return &a, nil
}

func (f *fakeService) History(_ context.Context, id string) ([]investigation.ChatMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.history[id], nil
}

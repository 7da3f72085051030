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
	"github.com/quarry-dev/quarry/agent/investigate"
)

// fakeService is an in-memory Service for the page tests. Set the *Err
// fields to make the matching call fail.
type fakeService struct {
	mu       sync.Mutex
	dir      string // artifacts live under dir/{id}/
	now      time.Time
	next     int
	sessions map[string]*quarry.Session
	order    []string
	files    map[string][]*quarry.UploadedFile
	contexts map[string]*quarry.InvestigationContext
	reports  map[string]*quarry.Report
	models   map[string]*quarry.DataModel
	history  map[string][]quarry.ChatMessage
	events   map[string][]investigate.Event
	iters    map[string][]quarry.IterationLog

	addFileErr     error
	investigateErr error
	answer         quarry.ChatMessage // what Chat replies

	// Calls records what reached the service.
	investigated []quarry.InvestigationContext
	asked        []string
}

var _ Service = (*fakeService)(nil)

func newFake(t *testing.T) *fakeService {
	return &fakeService{dir: t.TempDir(), now: time.Date(2024, 3, 15, 9, 30, 0, 0, time.UTC),
		sessions: map[string]*quarry.Session{}, files: map[string][]*quarry.UploadedFile{},
		contexts: map[string]*quarry.InvestigationContext{}, reports: map[string]*quarry.Report{},
		models: map[string]*quarry.DataModel{}, history: map[string][]quarry.ChatMessage{},
		events: map[string][]investigate.Event{}, iters: map[string][]quarry.IterationLog{}}
}

// add puts a session in the given status and returns its id.
func (f *fakeService) add(status quarry.SessionStatus) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	id := fmt.Sprintf("%08d-aaaa-bbbb-cccc-000000000000", f.next)
	f.sessions[id] = &quarry.Session{SessionID: id, Status: status, CreatedAt: f.now.Add(time.Duration(f.next) * time.Minute),
		ExpiresAt: f.now.Add(24 * time.Hour)}
	f.order = append([]string{id}, f.order...)
	return id
}

func (f *fakeService) session(id string) (*quarry.Session, error) {
	s, ok := f.sessions[id]
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeSessionNotFound, "session %s not found", id)
	}
	return s, nil
}

func (f *fakeService) Create(ctx context.Context, ownerID string) (*quarry.Session, error) {
	id := f.add(quarry.SessionCreated)
	f.mu.Lock()
	f.sessions[id].OwnerID = ownerID
	f.mu.Unlock()
	return f.Session(ctx, id)
}

func (f *fakeService) Session(_ context.Context, id string) (*quarry.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.session(id)
	if err != nil {
		return nil, err
	}
	c := *s
	return &c, nil
}

func (f *fakeService) Sessions(context.Context) ([]*quarry.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*quarry.Session
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

func (f *fakeService) AddFile(_ context.Context, id, name, description string, r io.Reader) (*quarry.UploadedFile, error) {
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
	uf := &quarry.UploadedFile{FileID: fmt.Sprintf("file%d", len(f.files[id])+1), SessionID: id, OriginalName: name,
		Description: description, TableName: table, RowCount: int64(bytes.Count(data, []byte("\n")) - 1),
		SizeBytes: int64(len(data)), UploadedAt: f.now,
		Schema: &quarry.FileSchema{Columns: []quarry.Column{
			{Name: "order_id", InferredType: quarry.RoleID, DataType: quarry.TypeInteger},
			{Name: "amount", InferredType: quarry.RoleMeasure, DataType: quarry.TypeFloat},
		}}}
	f.files[id] = append(f.files[id], uf)
	s.FileCount, s.Status = len(f.files[id]), quarry.SessionHasFiles
	return uf, nil
}

func (f *fakeService) Files(_ context.Context, id string) ([]*quarry.UploadedFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.session(id); err != nil {
		return nil, err
	}
	return slices.Clone(f.files[id]), nil
}

func (f *fakeService) DescribeFile(_ context.Context, id, fileID, description string) (*quarry.UploadedFile, error) {
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

func (f *fakeService) Investigate(_ context.Context, id string, c quarry.InvestigationContext) error {
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
	s.Status = quarry.SessionRunning
	f.contexts[id] = &c
	return nil
}

func (f *fakeService) Context(_ context.Context, id string) (*quarry.InvestigationContext, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.contexts[id], nil
}

func (f *fakeService) Subscribe(_ context.Context, id string) ([]investigate.Event, <-chan investigate.Event, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan investigate.Event)
	close(ch)
	return slices.Clone(f.events[id]), ch, func() {}, nil
}

func (f *fakeService) Iterations(_ context.Context, id string) ([]quarry.IterationLog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.iters[id], nil
}

func (f *fakeService) DataModel(_ context.Context, id string) (*quarry.DataModel, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.models[id], nil
}

func (f *fakeService) Report(_ context.Context, id string) (*quarry.Report, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.reports[id]
	if !ok {
		return nil, quarry.Errorf(quarry.ECodeInvestigationNotComplete, "no report")
	}
	return r, nil
}

func (f *fakeService) Explanations(context.Context, string) ([]quarry.Explanation, error) {
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

func (f *fakeService) Chat(_ context.Context, id, message string) (*quarry.ChatMessage, error) {
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
	if s.Status != quarry.SessionCompleted {
		return nil, quarry.Errorf(quarry.ECodeInvestigationNotComplete, "the investigation is %s, not completed", s.Status)
	}
	f.asked = append(f.asked, message)
	a := f.answer
	a.SessionID, a.Role, a.Timestamp = id, quarry.ChatAssistant, f.now
	f.history[id] = append(f.history[id], quarry.ChatMessage{SessionID: id, Role: quarry.ChatUser, Content: message, Timestamp: f.now}, a)
	return &a, nil
}

func (f *fakeService) History(_ context.Context, id string) ([]quarry.ChatMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.history[id], nil
}

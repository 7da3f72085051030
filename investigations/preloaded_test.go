package investigations_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/investigations"
)

func (c *countedEngines) loadCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.loads
}

// TestFilesAreLoadedOnce: the engine that checked the uploads is the one
// the preflight and the run use, so each file is read once; a refused
// upload or a removed file does not leave the engine wrong.
func TestFilesAreLoadedOnce(t *testing.T) {
	ctx := context.Background()
	base, _ := quarry.ParseDateRange("2024-03-01..2024-03-31")
	cmp, _ := quarry.ParseDateRange("2024-04-01..2024-04-30")
	request := investigation.Context{MetricSQL: "SELECT SUM(amount) FROM orders", BaselinePeriod: base, ComparisonPeriod: cmp}
	regions := "region,manager\nnorth,Ana\nsouth,Bo\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, m *sessionsUnderTest) // after orders.csv
		loads int
	}{
		{"one file", func(*testing.T, *sessionsUnderTest) {}, 1},
		{"two files", func(t *testing.T, s *sessionsUnderTest) { s.add(t, "regions.csv", regions) }, 2},
		{"a refused file between", func(t *testing.T, s *sessionsUnderTest) {
			if _, err := s.m.AddFile(ctx, s.id, "bad.csv", "", strings.NewReader("a,b\n1,2,3\n")); err == nil {
				t.Fatal("AddFile(ragged CSV) succeeded")
			}
			s.add(t, "regions.csv", regions)
		}, 3},
		{"a removed file", func(t *testing.T, s *sessionsUnderTest) {
			f := s.add(t, "regions.csv", regions)
			if err := s.m.RemoveFile(ctx, s.id, f.FileID); err != nil {
				t.Fatal(err)
			}
		}, 3}, // orders, regions, then orders again without regions
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			engines := &countedEngines{}
			m := newBudgetManager(t, 4, engines)
			s := &sessionsUnderTest{m: m, id: sessionWithPeriods(t, m)}
			tt.setup(t, s)
			if err := m.Investigate(ctx, s.id, request); err != nil {
				t.Fatalf("Investigate: %v", err)
			}
			res, err := m.Wait(ctx, s.id)
			if err != nil || res.Status != "no_findings" { // the metric is flat
				t.Fatalf("Wait = %+v, %v; want an investigation that ran to its end", res, err)
			}
			if got := engines.loadCount(); got != tt.loads {
				t.Errorf("files read %d times; want %d", got, tt.loads)
			}
			files, err := m.Files(ctx, s.id)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if f.Schema == nil || f.RowCount == 0 {
					t.Errorf("file %s has schema %v and %d rows; want what its load found", f.OriginalName, f.Schema, f.RowCount)
				}
			}
			if open, _ := engines.counts(); open != 0 {
				t.Errorf("%d engines open after the run; want 0", open)
			}
		})
	}
}

// sessionsUnderTest is a session of a service under test.
type sessionsUnderTest struct {
	m  *investigations.Service
	id string
}

// add uploads a file that must be accepted.
func (s *sessionsUnderTest) add(t *testing.T, name, body string) *investigation.UploadedFile {
	t.Helper()
	f, err := s.m.AddFile(context.Background(), s.id, name, "", strings.NewReader(body))
	if err != nil {
		t.Fatalf("AddFile(%s): %v", name, err)
	}
	return f
}

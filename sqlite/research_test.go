package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/research/researchtest"
	"github.com/quarry-dev/quarry/sqlite"
)

func TestResearchConformance(t *testing.T) {
	for name, path := range map[string]func(t *testing.T) string{
		"file":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "db", "research.db") },
		"memory": func(*testing.T) string { return ":memory:" },
	} {
		t.Run(name, func(t *testing.T) {
			researchtest.Run(t, func(t *testing.T) research.Store {
				st, err := sqlite.OpenResearch(path(t))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			})
		})
	}
}

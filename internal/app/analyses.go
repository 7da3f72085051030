package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/analyze"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/fsstore"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/sqlite"
)

// OpenDatabaseFile opens the database-file sources of analyses, SQLite
// (sqlite:PATH) and DuckDB (duckdb:PATH), read-only; other connection
// strings are refused. cmd/quarry adds PostgreSQL in front of it.
func OpenDatabaseFile(ctx context.Context, ds analysis.DataSource) (analysis.Source, error) {
	if p, ok := strings.CutPrefix(ds.ConnectionString, "sqlite:"); ok {
		return sqlite.OpenSource(ctx, strings.TrimPrefix(p, "//"))
	}
	if p, ok := strings.CutPrefix(ds.ConnectionString, "duckdb:"); ok {
		return duckdb.OpenFileSource(ctx, strings.TrimPrefix(p, "//"))
	}
	scheme, _, _ := strings.Cut(ds.ConnectionString, ":")
	return nil, quarry.Errorf(quarry.ECodeInvalid, "%s sources are not supported", scheme).
		WithHint("use a SQLite or DuckDB database file, PostgreSQL, or export the data as CSV, JSON or Parquet")
}

// Analyzer wires the offline analyst over a data dir: a DuckDB workspace
// per analysis with engine's options, database sources through openSource
// (OpenDatabaseFile when nil), the store and the recipe memory. Its Audit is
// set by the caller; close the recipes when done.
//
// With pool, every workspace takes a place in it first and gives it back
// when it closes, so analyses share the process's engine budget with the
// investigations.
func Analyzer(dataDir string, engine duckdb.Options, openSource analyze.OpenSource, pool *budget.Pool) (*analyze.Analyzer, *sqlite.Recipes, error) {
	if openSource == nil {
		openSource = OpenDatabaseFile
	}
	recipes, err := sqlite.OpenRecipes(RecipesPath(dataDir))
	if err != nil {
		return nil, nil, err
	}
	return &analyze.Analyzer{
		NewWorkspace: func(ctx context.Context) (analyze.Workspace, error) {
			if pool == nil {
				return duckdb.Open(engine)
			}
			if err := pool.Acquire(ctx, nil); err != nil {
				return nil, err
			}
			eng, err := duckdb.Open(engine)
			if err != nil {
				pool.Release()
				return nil, err
			}
			return &pooled{Engine: eng, release: pool.Release}, nil
		},
		OpenSource: openSource,
		TableName:  duckdb.TableName,
		Store:      fsstore.Analyses{Root: dataDir},
		Recipes:    recipes,
	}, recipes, nil
}

// pooled is a workspace holding a place in the engine budget until it
// closes.
type pooled struct {
	*duckdb.Engine
	once    sync.Once
	release func()
}

func (p *pooled) Close() error {
	err := p.Engine.Close()
	p.once.Do(p.release)
	return err
}

// RecipesPath is the recipe memory under a data dir (the spec's layout).
func RecipesPath(dataDir string) string { return filepath.Join(dataDir, "db", "recipe_memory.db") }

// openAnalyses wires the analyses manager over the data dir.
func openAnalyses(dataDir string, engine duckdb.Options, maxUpload int64, pool *budget.Pool, opt Options) (*analyses.Service, func() error, error) {
	a, recipes, err := Analyzer(dataDir, engine, opt.OpenSource, pool)
	if err != nil {
		return nil, nil, err
	}
	a.Now, a.Model = opt.Now, opt.Model
	a.Embedder, a.EmbeddingModel = opt.Embedder, opt.EmbeddingModel
	store := fsstore.Analyses{Root: dataDir}
	logPath := store.AuditLog()
	m := analyses.New(analyses.Config{
		Analyzer: a,
		Store:    store,
		Runner:   opt.Runner,
		OpenLog: func() (analyses.Log, error) {
			if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
				return nil, err
			}
			return audit.OpenShared(logPath, opt.Now)
		},
		Entries: func(id string) ([]quarry.AuditEntry, error) { return requestEntries(logPath, id) },
		Verify: func() (*analysis.AuditCheck, error) {
			rep, err := audit.CheckIn(logPath, dataDir)
			if errors.Is(err, os.ErrNotExist) || quarry.ErrorCode(err) == quarry.ECodeNotFound {
				return &analysis.AuditCheck{OK: true, Problems: []string{}}, nil
			}
			if err != nil {
				return nil, err
			}
			c := &analysis.AuditCheck{OK: rep.OK(), Entries: rep.Entries, Artifacts: rep.Artifacts, Anchored: rep.Anchored, Problems: append([]string{}, rep.Problems...)}
			if !rep.Result.OK() {
				c.Problems = append(c.Problems, "entry "+strconv.Itoa(rep.FirstBroken)+" is broken: "+rep.Reason)
			}
			if rep.AnchorProblem != "" {
				c.Problems = append(c.Problems, rep.AnchorProblem)
			}
			return c, nil
		},
		MaxFileBytes: maxUpload,
		Guard:        opt.Guard,
		Log:          opt.Log,
	})
	return m, func() error {
		err := m.Close()
		recipes.Close()
		return err
	}, nil
}

// requestEntries reads the entries of one request from the shared log.
func requestEntries(logPath, id string) ([]quarry.AuditEntry, error) {
	f, err := os.Open(logPath)
	if errors.Is(err, os.ErrNotExist) {
		return []quarry.AuditEntry{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := []quarry.AuditEntry{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	needle := []byte(`"request_id":"` + id + `"`)
	for sc.Scan() {
		if !strings.Contains(sc.Text(), string(needle)) {
			continue
		}
		var e quarry.AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, err
		}
		if e.RequestID == id {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

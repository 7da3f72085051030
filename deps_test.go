package quarry_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/quarry-dev/quarry"

// packages returns each package directory's non-test imports and whether
// one of its files carries a package doc comment.
func packages(t *testing.T) map[string]struct {
	imports map[string]bool
	doc     bool
} {
	t.Helper()
	out := map[string]struct {
		imports map[string]bool
		doc     bool
	}{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := out[dir]
		if p.imports == nil {
			p.imports = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p.imports[strings.Trim(imp.Path.Value, `"`)] = true
		}
		p.doc = p.doc || f.Doc != nil
		out[dir] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDependencyRules keeps the architecture honest: the vocabulary, the
// math, the model contract and the audit log import only the standard
// library (the audit log also takes a file lock from gofrs/flock); agents,
// the session manager, the web and MCP servers and retrieval never import
// concrete engines, stores or model providers (only cmd/quarry and
// internal/app wire those); web and mcp reach sessions only through
// their Service interfaces; and websearch, the web as a source, is one
// package per dependency that agents use and never the other way: it
// imports no agent, nor the web server, MCP, stores or the wiring.
func TestDependencyRules(t *testing.T) {
	stdlibOnly := []string{".", "drill", "audit", "llm", "analysis"}
	allowed := map[string]string{"audit": "github.com/gofrs/flock"}
	forbiddenForAgents := []string{module + "/duckdb", module + "/fsstore", module + "/audit", module + "/sqlite",
		module + "/sessions", module + "/internal/app", module + "/cmd", module + "/llm/anthropic", module + "/llm/openai", module + "/mcp"}
	forbiddenForWebsearch := []string{module + "/agent", module + "/web", module + "/internal/app", module + "/cmd", module + "/mcp",
		module + "/sqlite", module + "/postgres", module + "/rooms", module + "/sessions"}
	for dir, p := range packages(t) {
		for imp := range p.imports {
			if dir == "websearch" || strings.HasPrefix(dir, "websearch/") {
				for _, f := range forbiddenForWebsearch {
					// module/web is not module/websearch.
					if imp == f || strings.HasPrefix(imp, f+"/") {
						t.Errorf("package %s imports %s; the web as a source knows nothing of who uses it", dir, imp)
					}
				}
			}
			for _, s := range stdlibOnly {
				if dir == s && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") && !strings.HasPrefix(imp, module) && allowed[dir] != imp {
					t.Errorf("package %s imports %s; it may import only the standard library", dir, imp)
				}
			}
			if dir == "." || dir == "drill" || dir == "llm" {
				if strings.HasPrefix(imp, module+"/") {
					t.Errorf("package %s imports %s; it may import only the standard library", dir, imp)
				}
			}
			if strings.HasPrefix(dir, "agent/") || dir == "sessions" || dir == "analyses" || dir == "web" || dir == "mcp" || dir == "retrieve" {
				for _, f := range forbiddenForAgents {
					if strings.HasPrefix(imp, f) {
						t.Errorf("package %s imports %s; it talks to engines, stores and services through interfaces", dir, imp)
					}
				}
			}
		}
	}
}

func TestEveryPackageHasDocComment(t *testing.T) {
	for dir, p := range packages(t) {
		if !p.doc {
			t.Errorf("package %s has no package doc comment", dir)
		}
	}
}

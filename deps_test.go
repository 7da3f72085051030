package quarry_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/quarry-dev/quarry"

// pkgInfo is one package directory's non-test imports (module packages
// relative to the module root, "." for the root; others as written) and
// whether one of its files carries a package doc comment.
type pkgInfo struct {
	imports map[string]bool
	doc     bool
}

func packages(t *testing.T) map[string]pkgInfo {
	t.Helper()
	out := map[string]pkgInfo{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "tools" || d.Name() == "node_modules") {
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
			p.imports[relative(strings.Trim(imp.Path.Value, `"`))] = true
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

// relative names a module package by its directory ("." for the root)
// and leaves other import paths as they are.
func relative(imp string) string {
	if imp == module {
		return "."
	}
	if r, ok := strings.CutPrefix(imp, module+"/"); ok {
		return r
	}
	return imp
}

// The layers of the layout (docs/architecture.md, "One layout for four
// jobs"). Each job has a vocabulary, a service, an agent, stores and
// transports; these lists name them, so that a new package must be placed.
var (
	// vocabularies hold each job's nouns, its Service interface and its
	// progress event, and what all jobs share (the root).
	vocabularies = []string{".", "investigation", "analysis", "room", "research"}
	// services run the jobs on the shared runner.
	services = []string{"investigations", "analyses", "rooms", "researches"}
	// stores and engines, one package per dependency.
	stores = []string{"sqlite", "postgres", "duckdb", "fsstore", "audit"}
	// transports call only the vocabularies' Service interfaces.
	transports = []string{"web", "mcp"}
	// wiring builds concrete implementations and hands them over.
	wiring = []string{"cmd", "internal/app"}
	// providers are the model SDKs and the web as a source.
	providers = []string{"llm/anthropic", "llm/openai", "websearch"}
)

// under reports whether package dir is pkg or below it.
func under(dir string, pkgs ...string) bool {
	for _, p := range pkgs {
		if dir == p || (p != "." && strings.HasPrefix(dir, p+"/")) {
			return true
		}
	}
	return false
}

// violation says why package dir may not import imp ("" when it may).
func violation(dir, imp string) string {
	mod := isModulePkg(imp)
	std := !mod && !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
	if !mod && !std {
		// A third-party module: only the rules on stdlib-only packages
		// below look at it.
		if under(dir, "drill", "llm") && !under(dir, "llm/anthropic", "llm/openai", "llm/llmtest") || slices.Contains(vocabularies, dir) {
			return "a vocabulary, the math and the model contract import only the standard library"
		}
		if dir == "audit" && imp != "github.com/gofrs/flock" {
			return "the audit log imports only the standard library, the root and its file lock"
		}
		return ""
	}
	switch {
	case std:
		return ""
	case under(dir, "drill", "llm") && !under(dir, "llm/anthropic", "llm/openai", "llm/llmtest"):
		return "the math and the model contract import only the standard library"
	case slices.Contains(vocabularies, dir) && !slices.Contains(vocabularies, imp):
		return "a vocabulary imports only the standard library and other vocabularies"
	case dir == "audit" && imp != ".":
		return "the audit log imports only the standard library, the root and its file lock"
	case under(dir, "agent") && (under(imp, stores...) || under(imp, services...) || under(imp, transports...) || under(imp, wiring...) || under(imp, providers...)):
		return "an agent reaches stores, engines and models through interfaces, and knows no service or transport"
	case under(dir, services...) && (under(imp, stores...) || under(imp, transports...) || under(imp, wiring...) || under(imp, providers...)):
		return "a service reaches stores through interfaces and knows no transport"
	case under(dir, transports...) && !under(dir, "mcp/codeexec") && (under(imp, services...) || under(imp, "agent") || under(imp, stores...) || under(imp, wiring...) || under(imp, providers...)):
		return "a transport calls only the vocabularies' Service interfaces"
	case under(dir, "retrieve") && (under(imp, stores...) || under(imp, services...) || under(imp, transports...) || under(imp, wiring...)):
		return "retrieval reaches its index through an interface"
	case under(dir, "websearch") && (under(imp, "agent") || under(imp, transports...) || under(imp, wiring...) || under(imp, services...) || under(imp, "sqlite", "postgres")):
		return "the web as a source knows nothing of who uses it"
	case under(dir, stores...) && (under(imp, services...) || under(imp, transports...) || under(imp, wiring...) || under(imp, "agent")):
		return "a store implements a vocabulary's interfaces and knows no service, agent or transport"
	}
	return ""
}

// isModulePkg reports whether imp, as relative returns it, is a package of
// this module (a directory here) rather than a path with a host.
func isModulePkg(imp string) bool {
	if imp == "." {
		return true
	}
	if strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
		return false
	}
	_, err := os.Stat(imp)
	return err == nil
}

// TestDependencyRules keeps the layout honest: vocabularies import nothing
// but vocabularies; agents import no store, engine, model provider,
// service or transport; services reach stores only through interfaces;
// web and MCP call only the vocabularies' Service interfaces; only
// cmd/quarry and internal/app wire concrete implementations together.
func TestDependencyRules(t *testing.T) {
	for dir, p := range packages(t) {
		for imp := range p.imports {
			if why := violation(dir, imp); why != "" {
				t.Errorf("package %s imports %s: %s", dir, imp, why)
			}
		}
	}
}

// TestDependencyRulesCatchProbes: the rules refuse the imports a careless
// change would add.
func TestDependencyRulesCatchProbes(t *testing.T) {
	for _, probe := range [][2]string{
		{"agent/ask", "postgres"},
		{"agent/investigate", "sqlite"},
		{"agent/analyze", "analyses"},
		{"web", "analyses"},
		{"web", "rooms"},
		{"web", "agent/research"},
		{"mcp", "investigations"},
		{"mcp", "duckdb"},
		{"investigations", "fsstore"},
		{"rooms", "postgres"},
		{"researches", "web"},
		{"room", "rooms"},
		{"investigation", "github.com/duckdb/duckdb-go/v2"},
		{"sqlite", "rooms"},
		{"drill", "investigation"},
	} {
		if violation(probe[0], probe[1]) == "" {
			t.Errorf("%s importing %s passes the rules", probe[0], probe[1])
		}
	}
	for _, fine := range [][2]string{
		{"web", "investigation"}, {"web", "room"}, {"mcp", "research"}, {"agent/ask", "agent/evidence"},
		{"rooms", "room"}, {"investigation", "."}, {"internal/app", "postgres"}, {"cmd/quarry", "web"},
	} {
		if why := violation(fine[0], fine[1]); why != "" {
			t.Errorf("%s importing %s is refused (%s)", fine[0], fine[1], why)
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

// TestMapListsEveryPackage: doc.go's map names every package directory,
// and nothing that is not one.
func TestMapListsEveryPackage(t *testing.T) {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^//\t([a-z][\w/]*)/ `).FindAllStringSubmatch(string(data), -1) {
		listed[m[1]] = true
	}
	var missing []string
	for dir := range packages(t) {
		if dir != "." && !listed[dir] {
			missing = append(missing, dir)
		}
		delete(listed, dir)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("doc.go's map does not list package %s/", m)
	}
	for l := range listed {
		t.Errorf("doc.go's map lists %s/, which is not a package", l)
	}
}

package sampledata

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

var update = flag.Bool("update", false, "rewrite the committed sample data under testdata/")

// testdataDir is the repository's testdata directory, which holds one
// directory per scenario.
const testdataDir = "../../testdata"

func TestScenariosValid(t *testing.T) {
	kinds := []string{investigation.KindVolume, investigation.KindRate, investigation.KindMix, investigation.KindDataQuality, investigation.KindCalendar}
	seen := map[string]bool{}
	for _, s := range Scenarios() {
		if seen[s.Name] {
			t.Errorf("scenario %s appears twice", s.Name)
		}
		seen[s.Name] = true
		if err := s.Baseline.Validate("baseline"); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if err := s.Comparison.Validate("comparison"); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if !s.Baseline.End.Time().Before(s.Comparison.Start.Time()) {
			t.Errorf("%s: baseline %v overlaps or follows comparison %v", s.Name, s.Baseline, s.Comparison)
		}
		if s.Baseline.Days() != s.Comparison.Days() {
			t.Errorf("%s: periods of %d and %d days; want equal lengths", s.Name, s.Baseline.Days(), s.Comparison.Days())
		}
		if s.MetricSQL == "" || s.Prompt == "" || s.Context == "" || len(s.Files) == 0 {
			t.Errorf("%s: metric, prompt, context and files are all required", s.Name)
		}
		wantPlanted := s.ExpectOutcome == investigation.OutcomeCompleted
		if s.ExpectOutcome != investigation.OutcomeCompleted && s.ExpectOutcome != investigation.OutcomeNoFindings {
			t.Errorf("%s: ExpectOutcome = %q; want completed or no_findings", s.Name, s.ExpectOutcome)
		}
		if (len(s.Planted) > 0) != wantPlanted {
			t.Errorf("%s: %d planted causes with outcome %s", s.Name, len(s.Planted), s.ExpectOutcome)
		}
		for _, f := range s.Files {
			if f.Description == "" || filepath.Ext(f.Name) != ".csv" {
				t.Errorf("%s/%s: want a .csv name and a description", s.Name, f.Name)
			}
		}
		for _, c := range s.Planted {
			if !slices.Contains(kinds, c.Kind) {
				t.Errorf("%s: cause kind %q is not a quarry Kind", s.Name, c.Kind)
			}
			if c.Table == "" || c.Note == "" || c.ApproxShare == 0 {
				t.Errorf("%s: cause %v needs a table, a note and a share", s.Name, c.Segment)
			}
		}
		if got, ok := Get(s.Name); !ok || got.Name != s.Name {
			t.Errorf("Get(%q) = %v, %v; want the scenario", s.Name, got.Name, ok)
		}
	}
	if _, ok := Get("no_such_scenario"); ok {
		t.Errorf("Get(no_such_scenario) found a scenario")
	}
}

func TestDeterministic(t *testing.T) {
	for _, s := range Scenarios() {
		for _, f := range s.Files {
			a, b := generate(t, s, f.Name), generate(t, s, f.Name)
			if !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs between two runs", s.Name, f.Name)
			}
			if len(a) > 3<<20 {
				t.Errorf("%s/%s is %d bytes; want at most 3 MiB", s.Name, f.Name, len(a))
			}
		}
	}
}

// TestCommittedTestdata checks that testdata/<scenario>/ holds exactly what
// the generators write, or rewrites it with -update.
func TestCommittedTestdata(t *testing.T) {
	for _, s := range Scenarios() {
		dir := filepath.Join(testdataDir, s.Name)
		if *update {
			if _, err := WriteScenario(dir, s); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, f := range s.Files {
			path := filepath.Join(dir, f.Name)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%v; run go run ./internal/sampledata/cmd/gensample or go test ./internal/sampledata -update", err)
				continue
			}
			if !bytes.Equal(got, generate(t, s, f.Name)) {
				t.Errorf("%s is not what the generator writes; run go run ./internal/sampledata/cmd/gensample or go test ./internal/sampledata -update", path)
			}
		}
	}
}

func TestWriteScenario(t *testing.T) {
	s, _ := Get("weekday_mix")
	dir := filepath.Join(t.TempDir(), "demo")
	paths, err := WriteScenario(dir, s)
	if err != nil {
		t.Fatalf("WriteScenario = %v", err)
	}
	if len(paths) != len(s.Files) || paths[0] != filepath.Join(dir, "orders.csv") {
		t.Fatalf("WriteScenario paths = %v; want [%s]", paths, filepath.Join(dir, "orders.csv"))
	}
	got, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, generate(t, s, "orders.csv")) {
		t.Errorf("WriteScenario wrote different bytes from File.Write")
	}
	// A directory that cannot be created is an error, not a panic.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteScenario(filepath.Join(blocker, "sub"), s); err == nil {
		t.Errorf("WriteScenario under a regular file = nil error; want an error")
	}
}

// The analyze samples are what their generators write, and hold what
// they promise: Arizona's spring 2021 surge, Tucson's fall from July.
func TestAnalyzeSamples(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSales(&b); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(testdataDir, "analyze", "sales.csv"))
	if err != nil || !bytes.Equal(committed, b.Bytes()) {
		t.Errorf("testdata/analyze/sales.csv is not what WriteSales writes (%v); run go run ./internal/sampledata/cmd/gensample", err)
	}
	// Arizona's orders per month: Feb-Apr 2021 about twice Jan 2021.
	months := map[string]int{}
	for _, line := range strings.Split(b.String(), "\n")[1:] {
		f := strings.Split(line, ",")
		if len(f) > 2 && f[2] == "Arizona" {
			months[f[1][:7]]++
		}
	}
	if jan, mar := months["2021-01"], months["2021-03"]; float64(mar) < 1.6*float64(jan) {
		t.Errorf("Arizona: %d orders in January 2021, %d in March; want a surge", jan, mar)
	}
	db := filepath.Join(t.TempDir(), "shop.db")
	if err := WriteShopDB(db); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(db)
	committed, err = os.ReadFile(filepath.Join(testdataDir, "analyze", "shop.db"))
	if err != nil || !bytes.Equal(committed, got) {
		t.Errorf("testdata/analyze/shop.db is not what WriteShopDB writes (%v); run go run ./internal/sampledata/cmd/gensample", err)
	}
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry/internal/sampledata"
)

// runDemo generates a sample scenario with planted causes and investigates
// it, so a newcomer sees a real report without any data of their own.
func runDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var names []string
	for _, s := range sampledata.Scenarios() {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	scenario := fs.String("scenario", "revenue_drop", "sample scenario: "+strings.Join(names, ", "))
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where sessions and sample files are stored")
	asJSON := fs.Bool("json", false, "print the result as one JSON object on stdout")
	var mf modelFlags
	mf.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	w, err := mf.open(getenv)
	if err != nil {
		return err
	}
	s, ok := sampledata.Get(*scenario)
	if !ok {
		return &usageError{fmt.Sprintf("unknown scenario %q (have %s)", *scenario, strings.Join(names, ", "))}
	}
	dir := filepath.Join(*dataDir, "samples", s.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths, err := sampledata.WriteScenario(dir, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "scenario %s: %d files in %s\n", s.Name, len(paths), dir)
	inv := investigationRun{dataDir: *dataDir, maxMB: 50, stderr: stderr, model: w.model, dialCode: w.dial}
	for i, p := range paths {
		inv.files = append(inv.files, fileArg{path: p, description: s.Files[i].Description})
	}
	inv.context.MetricSQL = s.MetricSQL
	inv.context.BaselinePeriod, inv.context.ComparisonPeriod = s.Baseline, s.Comparison
	inv.context.BusinessContext, inv.context.InvestigationPrompt = s.Context, s.Prompt
	res, err := inv.run(ctx)
	if err != nil {
		return err
	}
	return printResult(stdout, res, *asJSON)
}

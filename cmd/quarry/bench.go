package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/drill"
	"github.com/quarry-dev/quarry/internal/rcabench"
)

// runBench dispatches "quarry bench SUBCOMMAND".
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"bench needs a subcommand: rca, scale, dabench, financebench, scifact, ramdocs or memory"}
	}
	switch args[0] {
	case "rca":
		return runBenchRCA(ctx, args[1:], getenv, stdout, stderr)
	case "scale":
		return runBenchScale(ctx, args[1:], getenv, stdout, stderr)
	case "dabench":
		return runBenchDABench(ctx, args[1:], getenv, stdout, stderr)
	case "financebench":
		return runBenchFinanceBench(ctx, args[1:], getenv, stdout, stderr)
	case "scifact":
		return runBenchSciFact(ctx, args[1:], getenv, stdout, stderr)
	case "ramdocs":
		return runBenchRAMDocs(ctx, args[1:], getenv, stdout, stderr)
	case "memory":
		return runBenchMemory(ctx, args[1:], getenv, stdout, stderr)
	}
	return &usageError{fmt.Sprintf("unknown bench subcommand %q", args[0])}
}

// runBenchRCA scores both segment searches on the root-cause benchmarks,
// each case's baseline and comparison as the two periods: drill.Explain
// with the options investigations use ("investigation", what users get)
// and drill.Search ("search", the localisation search). It prints one row
// per search and dataset (and Squeeze B0 setting) next to the best
// reference implementation's score on the same files.
func runBenchRCA(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench rca", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_BENCH_DATA or ../shared/bench/rca)")
	datasets := fs.String("dataset", "B0,S,L,RS", "comma-separated datasets to run: B0, S, L, RS")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	scenarios := fs.Bool("scenarios", true, "also compare the searches inside investigations of the sample scenarios")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	var names []string
	for _, n := range strings.Split(*datasets, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		d, ok := rcabench.DatasetByName(n)
		if !ok {
			return &usageError{fmt.Sprintf("unknown dataset %q (want B0, S, L or RS)", n)}
		}
		names = append(names, d.Name)
	}
	dir, err := benchDataDir(*dataDir, getenv, "QUARRY_BENCH_DATA", "rca")
	if err != nil {
		return err
	}
	methods := []rcabench.Method{
		rcabench.ExplainMethod(investigate.SegmentSearch),
		rcabench.SearchMethod(drill.SearchOptions{}),
	}
	results, err := rcabench.Run(ctx, rcabench.Options{Dir: dir, Datasets: names, Methods: methods, Progress: stderr})
	if err != nil {
		return err
	}
	summaries := rcabench.Summarize(results)
	var inScenarios []scenarioScore
	if *scenarios {
		if inScenarios, err = benchScenarios(ctx, stderr); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeBenchJSON(stdout, summaries, inScenarios)
	}
	refs, err := rcabench.LoadReferences(dir)
	if err != nil {
		fmt.Fprintf(stderr, "quarry: no reference scores: %v\n", err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "dataset\tsetting\tsearch\tcases\tF1\tprecision\trecall\ts/case\tbest ref\tref F1\tref s/case\t")
	for _, s := range summaries {
		ref, ok := refs[[2]string{s.Dataset, s.Setting}]
		refCols := "-\t-\t-"
		if ok {
			refCols = fmt.Sprintf("%s\t%.3f\t%.4f", ref.Algorithm, ref.F1, ref.SecondsPerCase)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.4f\t%s\t\n", s.Dataset, s.Setting, benchMethodNames[s.Method], s.Cases,
			s.Counts.F1(), s.Counts.Precision(), s.Counts.Recall(), s.SecondsPerCase, refCols)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "investigation: drill.Explain as investigations run it (depth 3, 5 segments); search: drill.Search, depth unlimited")
	if len(inScenarios) == 0 {
		return nil
	}
	fmt.Fprintln(stdout, "\nInside investigations of the sample scenarios (two noisy periods; search at depth 3):")
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "search\tplanted causes\tfound\tfalse alarms (steady)\t")
	for _, s := range inScenarios {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", s.Search, s.Planted, s.Found, s.FalseAlarms)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range inScenarios {
		if len(s.Missed) > 0 {
			fmt.Fprintf(stdout, "%s missed: %s\n", s.Search, strings.Join(s.Missed, "; "))
		}
	}
	return nil
}

// benchDataDir is a benchmark's data: the --data flag, else the
// environment variable env, else ../shared/bench/NAME. Errors: NOT_FOUND.
func benchDataDir(flagValue string, getenv func(string) string, env, name string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = getenv(env)
	}
	if dir == "" {
		dir = "../shared/bench/" + name
	}
	if _, err := os.Stat(dir); err != nil {
		return "", quarry.Errorf(quarry.ECodeNotFound, "benchmark data directory %s not found", dir).
			WithHint("pass --data DIR or set " + env)
	}
	return dir, nil
}

// benchScore is one dataset's line in the JSON output.
type benchScore struct {
	F1             float64 `json:"f1"`
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	SecondsPerCase float64 `json:"seconds_per_case"`
	Cases          int     `json:"cases"`
}

// benchMethodNames are the searches' names in the table: "investigation"
// for drill.Explain as investigations run it.
var benchMethodNames = map[string]string{"explain": "investigation", "search": "search"}

// writeBenchJSON prints {"datasets": {"B0": {...}, ...}, "investigation":
// {"B0": {...}, ...}, "scenarios": [...]} with the ALL setting of each
// dataset: datasets holds drill.Search's scores, investigation
// drill.Explain's as investigations run it, scenarios both searches inside
// investigations of the sample scenarios.
func writeBenchJSON(w io.Writer, summaries []rcabench.Summary, scenarios []scenarioScore) error {
	out := struct {
		Datasets      map[string]benchScore `json:"datasets"`
		Investigation map[string]benchScore `json:"investigation"`
		Scenarios     []scenarioScore       `json:"scenarios,omitempty"`
	}{Datasets: map[string]benchScore{}, Investigation: map[string]benchScore{}, Scenarios: scenarios}
	for _, s := range summaries {
		if s.Setting != "ALL" {
			continue
		}
		dst := out.Datasets
		if s.Method == "explain" {
			dst = out.Investigation
		}
		dst[s.Dataset] = benchScore{
			F1: s.Counts.F1(), Precision: s.Counts.Precision(), Recall: s.Counts.Recall(),
			SecondsPerCase: s.SecondsPerCase, Cases: s.Cases,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

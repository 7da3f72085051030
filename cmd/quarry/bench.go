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
	"github.com/quarry-dev/quarry/internal/rcabench"
)

// runBench dispatches "quarry bench SUBCOMMAND".
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"bench needs a subcommand: rca, scale, ingest, dabench, financebench, scifact, ramdocs or memory"}
	}
	switch args[0] {
	case "rca":
		return runBenchRCA(ctx, args[1:], getenv, stdout, stderr)
	case "scale":
		return runBenchScale(ctx, args[1:], getenv, stdout, stderr)
	case "ingest":
		return runBenchIngest(ctx, args[1:], getenv, stdout, stderr)
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

// runBenchRCA scores the segment search investigations run
// (drill.Search with investigate.SegmentSearch) on the root-cause
// benchmarks, each case's baseline and comparison as the two periods. It
// prints one row per dataset, per half of it (rcabench.HeldOut) and per
// Squeeze B0 setting next to the best reference implementation's score on
// the same files, then the planted causes that investigations of the
// sample scenarios found.
func runBenchRCA(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench rca", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_BENCH_DATA or ../shared/bench/rca)")
	datasets := fs.String("dataset", "B0,S,L,RS", "comma-separated datasets to run: B0, S, L, RS")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	scenarios := fs.Bool("scenarios", true, "also count the planted causes investigations of the sample scenarios find")
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
	methods := []rcabench.Method{rcabench.SearchMethod(investigate.SegmentSearch)}
	results, err := rcabench.Run(ctx, rcabench.Options{Dir: dir, Datasets: names, Methods: methods, Progress: stderr})
	if err != nil {
		return err
	}
	summaries := rcabench.Summarize(results)
	var inScenarios *scenarioScore
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
	fmt.Fprintln(tw, "dataset\tsetting\tcases\tF1\tprecision\trecall\ts/case\tbest ref\tref F1\tref s/case\t")
	for _, s := range summaries {
		ref, ok := refs[[2]string{s.Dataset, s.Setting}]
		refCols := "-\t-\t-"
		if ok {
			refCols = fmt.Sprintf("%s\t%.3f\t%.4f", ref.Algorithm, ref.F1, ref.SecondsPerCase)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.4f\t%s\t\n", s.Dataset, s.Setting, s.Cases,
			s.Counts.F1(), s.Counts.Precision(), s.Counts.Recall(), s.SecondsPerCase, refCols)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "the segment search as investigations run it: drill.Search, every layer, 5 segments at most")
	if inScenarios == nil {
		return nil
	}
	fmt.Fprintf(stdout, "\nInside investigations of the sample scenarios (two noisy periods): %d of %d planted segment causes found, %d segment explanations on steady (no cause)\n",
		inScenarios.Found, inScenarios.Planted, inScenarios.FalseAlarms)
	if len(inScenarios.Missed) > 0 {
		fmt.Fprintf(stdout, "missed: %s\n", strings.Join(inScenarios.Missed, "; "))
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

// writeBenchJSON prints {"datasets": {"B0": {..., "held_out": {...},
// "tuned": {...}}, ...}, "scenarios": {...}}: each dataset's score over all
// its cases and over each half, and the planted causes investigations of
// the sample scenarios found.
func writeBenchJSON(w io.Writer, summaries []rcabench.Summary, scenarios *scenarioScore) error {
	type dataset struct {
		benchScore
		HeldOut *benchScore `json:"held_out,omitempty"`
		Tuned   *benchScore `json:"tuned,omitempty"`
	}
	out := struct {
		Datasets  map[string]*dataset `json:"datasets"`
		Scenarios *scenarioScore      `json:"scenarios,omitempty"`
	}{Datasets: map[string]*dataset{}, Scenarios: scenarios}
	for _, s := range summaries {
		d := out.Datasets[s.Dataset]
		if d == nil {
			d = &dataset{}
			out.Datasets[s.Dataset] = d
		}
		score := benchScore{
			F1: s.Counts.F1(), Precision: s.Counts.Precision(), Recall: s.Counts.Recall(),
			SecondsPerCase: s.SecondsPerCase, Cases: s.Cases,
		}
		switch s.Setting {
		case rcabench.SettingAll:
			d.benchScore = score
		case rcabench.SettingHeldOut:
			d.HeldOut = &score
		case rcabench.SettingTuned:
			d.Tuned = &score
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

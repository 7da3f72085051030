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
	"github.com/quarry-dev/quarry/internal/rcabench"
)

// runBench dispatches "quarry bench SUBCOMMAND".
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"bench needs a subcommand: rca or scale"}
	}
	switch args[0] {
	case "rca":
		return runBenchRCA(ctx, args[1:], getenv, stdout, stderr)
	case "scale":
		return runBenchScale(ctx, args[1:], getenv, stdout, stderr)
	}
	return &usageError{fmt.Sprintf("unknown bench subcommand %q", args[0])}
}

// runBenchRCA scores drill.Search on the root-cause benchmarks and prints
// one row per dataset (and per Squeeze B0 setting) next to the best
// reference implementation's score on the same files.
func runBenchRCA(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench rca", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_BENCH_DATA or ../shared/bench/rca)")
	datasets := fs.String("dataset", "B0,S,L,RS", "comma-separated datasets to run: B0, S, L, RS")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
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
	dir := *dataDir
	if dir == "" {
		dir = getenv("QUARRY_BENCH_DATA")
	}
	if dir == "" {
		dir = "../shared/bench/rca"
	}
	if _, err := os.Stat(dir); err != nil {
		return quarry.Errorf(quarry.ECodeNotFound, "benchmark data directory %s not found", dir).
			WithHint("pass --data DIR or set QUARRY_BENCH_DATA")
	}
	results, err := rcabench.Run(ctx, rcabench.Options{Dir: dir, Datasets: names, Progress: stderr})
	if err != nil {
		return err
	}
	summaries := rcabench.Summarize(results)
	if *asJSON {
		return writeBenchJSON(stdout, summaries)
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
	return tw.Flush()
}

// benchScore is one dataset's line in the JSON output.
type benchScore struct {
	F1             float64 `json:"f1"`
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	SecondsPerCase float64 `json:"seconds_per_case"`
	Cases          int     `json:"cases"`
}

// writeBenchJSON prints {"datasets": {"B0": {...}, ...}} with the ALL
// setting of each dataset.
func writeBenchJSON(w io.Writer, summaries []rcabench.Summary) error {
	out := struct {
		Datasets map[string]benchScore `json:"datasets"`
	}{Datasets: map[string]benchScore{}}
	for _, s := range summaries {
		if s.Setting != "ALL" {
			continue
		}
		out.Datasets[s.Dataset] = benchScore{
			F1: s.Counts.F1(), Precision: s.Counts.Precision(), Recall: s.Counts.Recall(),
			SecondsPerCase: s.SecondsPerCase, Cases: s.Cases,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

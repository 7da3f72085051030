package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// runAudit implements "quarry audit verify PATH".
func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 2 || args[0] != "verify" {
		return &usageError{"usage: quarry audit verify PATH"}
	}
	// The analyses' shared log sits in DATA_DIR/logs and records its
	// artifacts relative to DATA_DIR (artifacts/tables/...).
	root := filepath.Dir(args[1])
	if filepath.Base(root) == "logs" {
		root = filepath.Dir(root)
	}
	rep, err := audit.CheckIn(args[1], root)
	if err != nil {
		return err
	}
	if !rep.Result.OK() {
		return quarry.Errorf(quarry.ECodeConflict, "%s: entry %d is broken: %s (%d entries before it verified)", args[1], rep.FirstBroken, rep.Reason, rep.FirstBroken-1)
	}
	fmt.Fprintf(stdout, "%s\n", args[1])
	fmt.Fprintf(stdout, "  chain:     %d entries, each hash recomputed and linked to the one before (last %.16s…)\n", rep.Entries, rep.LastHash)
	if rep.Torn {
		fmt.Fprintf(stdout, "  note:      the last line is an append that never finished (a crash or a full disk); it is not an entry and is cut off when the log is next written\n")
	}
	switch {
	case rep.AnchorProblem == "" && rep.AnchorLag > 0:
		fmt.Fprintf(stdout, "  anchor:    %s lags by %d entries (its write was cut short; the next write brings it up to date), and no anchored entry was cut from the end\n", filepath.Base(audit.AnchorPath(args[1])), rep.AnchorLag)
	case rep.AnchorProblem == "":
		fmt.Fprintf(stdout, "  anchor:    %s records the same count and last hash, so no entry was cut from the end\n", filepath.Base(audit.AnchorPath(args[1])))
	default:
		fmt.Fprintf(stdout, "  anchor:    PROBLEM: %s\n", rep.AnchorProblem)
	}
	fmt.Fprintf(stdout, "  artifacts: %d files checked against their recorded SHA-256", rep.Artifacts)
	if rep.Unhashed > 0 {
		fmt.Fprintf(stdout, "; %d artifact entries carry no hash and were not checked", rep.Unhashed)
	}
	fmt.Fprintln(stdout)
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "  PROBLEM:   %s\n", p)
	}
	if !rep.OK() {
		n := len(rep.Problems)
		if rep.AnchorProblem != "" {
			n++
		}
		return quarry.Errorf(quarry.ECodeConflict, "%s: the chain is intact but %d problem(s) were found", args[1], n)
	}
	fmt.Fprintln(stdout, "  verified: nothing recorded was changed, removed or cut off")
	return nil
}

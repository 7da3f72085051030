package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// runAudit implements "quarry audit verify PATH", which checks one log in
// detail, and "quarry audit verify [--all] [--data-dir DIR]", which checks
// every log of a data dir, one line each.
func runAudit(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	const usage = "usage: quarry audit verify PATH, or quarry audit verify [--all] [--data-dir DIR] for every log of a data dir"
	if len(args) == 0 || args[0] != "verify" {
		return &usageError{usage}
	}
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "the data dir whose logs --all verifies (env QUARRY_DATA_DIR)")
	all := fs.Bool("all", false, "verify every audit log under --data-dir: each investigation's, the analyses', the data rooms', research's (the default without PATH)")
	help, paths, err := parseInterspersed(fs, args[1:])
	if help || err != nil {
		return err
	}
	switch {
	case len(paths) > 1:
		return &usageError{usage}
	case len(paths) == 1 && *all:
		return &usageError{"audit verify takes a PATH or --all, not both"}
	case len(paths) == 1:
		return verifyLog(paths[0], stdout)
	}
	return verifyAll(*dataDir, stdout)
}

// artifactRoot is the directory the artifact paths of the log at path are
// relative to: an investigation's folder for its audit.jsonl, the data
// dir for the shared logs in DATA_DIR/logs (the analyses record
// artifacts/tables/...).
func artifactRoot(path string) string {
	root := filepath.Dir(path)
	if filepath.Base(root) == "logs" {
		root = filepath.Dir(root)
	}
	return root
}

// verifyLog checks one log and says in detail what was checked.
func verifyLog(path string, stdout io.Writer) error {
	rep, err := audit.CheckIn(path, artifactRoot(path))
	if err != nil {
		return err
	}
	if !rep.Result.OK() {
		return quarry.Errorf(quarry.ECodeConflict, "%s: entry %d is broken: %s (%d entries before it verified)", path, rep.FirstBroken, rep.Reason, rep.FirstBroken-1)
	}
	fmt.Fprintf(stdout, "%s\n", path)
	fmt.Fprintf(stdout, "  chain:     %d entries, each hash recomputed and linked to the one before (last %.16s…)\n", rep.Entries, rep.LastHash)
	if rep.Torn {
		fmt.Fprintf(stdout, "  note:      the last line is an append that never finished (a crash or a full disk); it is not an entry and is cut off when the log is next written\n")
	}
	switch {
	case rep.AnchorProblem == "" && rep.AnchorLag > 0:
		fmt.Fprintf(stdout, "  anchor:    %s lags by %d entries (its write was cut short; the next write brings it up to date), and no anchored entry was cut from the end\n", filepath.Base(audit.AnchorPath(path)), rep.AnchorLag)
	case rep.AnchorProblem == "":
		fmt.Fprintf(stdout, "  anchor:    %s records the same count and last hash, so no entry was cut from the end\n", filepath.Base(audit.AnchorPath(path)))
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
		return quarry.Errorf(quarry.ECodeConflict, "%s: the chain is intact but %d problem(s) were found", path, n)
	}
	fmt.Fprintln(stdout, "  verified: nothing recorded was changed, removed or cut off")
	return nil
}

// auditLogs lists the audit logs of a data dir, as paths relative to it:
// the shared logs of DATA_DIR/logs (the analyses' data_agent_runs.jsonl,
// the data rooms' rooms.jsonl, research's research.jsonl, and any other
// log written there), then each investigation's sessions/ID/audit.jsonl.
func auditLogs(dataDir string) ([]string, error) {
	var logs []string
	for _, pattern := range []string{filepath.Join("logs", "*.jsonl"), filepath.Join("sessions", "*", "audit.jsonl")} {
		found, err := filepath.Glob(filepath.Join(dataDir, pattern))
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		for _, p := range found {
			rel, err := filepath.Rel(dataDir, p)
			if err != nil {
				return nil, err
			}
			logs = append(logs, rel)
		}
	}
	return logs, nil
}

// verifyAll checks every audit log of a data dir, printing a line for
// each, and fails with CONFLICT naming each log that does not verify and
// where it broke.
func verifyAll(dataDir string, stdout io.Writer) error {
	if st, err := os.Stat(dataDir); errors.Is(err, fs.ErrNotExist) || (err == nil && !st.IsDir()) {
		return quarry.Errorf(quarry.ECodeNotFound, "there is no data dir %s", dataDir).
			WithHint("name it with --data-dir or QUARRY_DATA_DIR, or verify one log: quarry audit verify PATH")
	} else if err != nil {
		return err
	}
	logs, err := auditLogs(dataDir)
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		fmt.Fprintf(stdout, "no audit logs in %s: nothing has run there yet\n", dataDir)
		return nil
	}
	var failed []string
	for _, rel := range logs {
		path := filepath.Join(dataDir, rel)
		rep, err := audit.CheckIn(path, artifactRoot(path))
		if err != nil {
			return err
		}
		if problem := reportProblem(rep); problem != "" {
			fmt.Fprintf(stdout, "FAILED  %s  %s\n", rel, problem)
			failed = append(failed, rel+": "+problem)
			continue
		}
		line := auditCount(rep.Entries, "entry", "entries")
		if rep.Artifacts > 0 {
			line += ", " + auditCount(rep.Artifacts, "artifact", "artifacts")
		}
		if rep.AnchorLag > 0 {
			line += "; its anchor lags by " + auditCount(rep.AnchorLag, "entry", "entries") + ", brought up to date at the next write"
		}
		if rep.Torn {
			line += "; an append that never finished ends it, cut off at the next write"
		}
		fmt.Fprintf(stdout, "ok      %s  %s\n", rel, line)
	}
	if len(failed) > 0 {
		return quarry.Errorf(quarry.ECodeConflict, "%d of %s in %s failed verification: %s", len(failed), auditCount(len(logs), "audit log", "audit logs"), dataDir, strings.Join(failed, "; ")).
			WithHint("quarry audit verify PATH says more about one log")
	}
	fmt.Fprintf(stdout, "verified %s: nothing recorded was changed, removed or cut off\n", auditCount(len(logs), "audit log", "audit logs"))
	return nil
}

// reportProblem says in one line what is wrong with a checked log, or ""
// when nothing is.
func reportProblem(rep audit.Report) string {
	if !rep.Result.OK() {
		return fmt.Sprintf("entry %d is broken: %s", rep.FirstBroken, rep.Reason)
	}
	problems := append([]string{}, rep.Problems...)
	if rep.AnchorProblem != "" {
		problems = append(problems, rep.AnchorProblem)
	}
	return strings.Join(problems, "; ")
}

// auditCount is n with the noun in the singular or the plural.
func auditCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

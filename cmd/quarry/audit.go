package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// runAudit implements "quarry audit verify PATH", which checks one log in
// detail, "quarry audit verify [--all] [--data-dir DIR]", which checks
// every log of a data dir, one line each, either against an anchor kept
// outside the data dir with --anchor, and "quarry audit anchor", which
// prints that anchor.
func runAudit(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	const usage = "usage: quarry audit verify PATH, or quarry audit verify [--all] [--data-dir DIR] for every log of a data dir, " +
		"either with [--anchor FILE_OR_HASH]; quarry audit anchor [--data-dir DIR] [--json] prints the anchor to keep elsewhere"
	if len(args) > 0 && args[0] == "anchor" {
		return runAuditAnchor(args[1:], getenv, stdout, stderr, usage)
	}
	if len(args) == 0 || args[0] != "verify" {
		return &usageError{usage}
	}
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "the data dir whose logs --all verifies (env QUARRY_DATA_DIR)")
	all := fs.Bool("all", false, "verify every audit log under --data-dir: each investigation's, the analyses', the data rooms', research's (the default without PATH)")
	anchorArg := fs.String("anchor", "", "check that the logs still extend an anchor kept outside the data dir: a file written by 'quarry audit anchor' (text or --json), or one entry's hash_v2 (or hash)")
	help, paths, err := parseInterspersed(fs, args[1:])
	if help || err != nil {
		return err
	}
	var ext *externalAnchor
	if *anchorArg != "" {
		if ext, err = readExternalAnchor(*anchorArg); err != nil {
			return err
		}
	}
	switch {
	case len(paths) > 1:
		return &usageError{usage}
	case len(paths) == 1 && *all:
		return &usageError{"audit verify takes a PATH or --all, not both"}
	case len(paths) == 1:
		return verifyLog(paths[0], ext, stdout)
	}
	return verifyAll(*dataDir, ext, stdout)
}

// externalAnchor is what --anchor names: the heads of a file written by
// "quarry audit anchor", or one entry's hash.
type externalAnchor struct {
	heads []audit.Head
	hash  string
}

// readExternalAnchor reads --anchor: a file when one exists by that name,
// else an entry's hash. Errors: INVALID for neither, or a file that is
// not an anchor.
func readExternalAnchor(arg string) (*externalAnchor, error) {
	data, err := os.ReadFile(arg)
	switch {
	case err == nil:
		heads, err := audit.ParseHeads(data)
		if err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "--anchor %s: %s", arg, quarry.ErrorMessage(err)).
				WithHint("write an anchor with: quarry audit anchor > FILE (or --json), and keep it outside the data dir")
		}
		return &externalAnchor{heads: heads}, nil
	case audit.IsHash(strings.ToLower(arg)):
		return &externalAnchor{hash: strings.ToLower(arg)}, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, quarry.Errorf(quarry.ECodeInvalid, "--anchor %s is neither a file nor a SHA-256 hash (64 hex digits)", arg).
			WithHint("give the file 'quarry audit anchor' wrote, or the hash_v2 of a log's last entry it printed")
	}
	return nil, err
}

// check says whether the log rel (relative to the data dir, "" for a log
// named by its path alone), whose chain res verified, extends the
// anchor: note is what to print when it does ("" when the anchor does
// not name it), problem what is wrong when it does not.
func (x *externalAnchor) check(path, rel string, res audit.Result) (note, problem string, err error) {
	if x.hash != "" {
		n, partial, err := audit.Find(path, res, x.hash)
		if err != nil || n == 0 {
			return "", "", err
		}
		if partial {
			return fmt.Sprintf("extends the external anchor (entry %d holds its hash; its hash_v2, which covers actor, request_id and entry_id too, would check more)", n), "", nil
		}
		return fmt.Sprintf("extends the external anchor (entry %d holds its hash_v2)", n), "", nil
	}
	h, ok := x.head(path, rel)
	if !ok {
		return "", "", nil
	}
	problem, err = audit.Extends(path, res, h)
	if err != nil || problem != "" {
		return "", problem, err
	}
	return fmt.Sprintf("extends the external anchor (%s recorded)", auditCount(h.Entries, "entry", "entries")), "", nil
}

// head finds the anchored head of the log at path, named rel in its data
// dir: by rel, or for a log named by its path alone, by the anchored
// path its own path ends with.
func (x *externalAnchor) head(path, rel string) (audit.Head, bool) {
	p := filepath.ToSlash(filepath.Clean(path))
	for _, h := range x.heads {
		if (rel != "" && h.Path == filepath.ToSlash(rel)) || (rel == "" && (p == h.Path || strings.HasSuffix(p, "/"+h.Path))) {
			return h, true
		}
	}
	return audit.Head{}, false
}

// runAuditAnchor prints the head of every log of the data dir, one line
// each or as JSON, for the user to keep outside it; a log that does not
// verify is not anchored, and fails the command after the others are
// printed.
func runAuditAnchor(args []string, getenv func(string) string, stdout, stderr io.Writer, usage string) error {
	fs := flag.NewFlagSet("audit anchor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "the data dir whose logs to anchor (env QUARRY_DATA_DIR)")
	asJSON := fs.Bool("json", false, "print the anchor as JSON")
	help, rest, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(rest) > 0 {
		return &usageError{usage}
	}
	logs, err := dataDirLogs(*dataDir)
	if err != nil {
		return err
	}
	a := audit.Anchor{TakenAt: time.Now().UTC().Format(time.RFC3339), Logs: []audit.Head{}}
	var failed []string
	for _, rel := range logs {
		res, err := audit.VerifyFile(filepath.Join(*dataDir, rel))
		if err != nil {
			return err
		}
		if !res.OK() {
			failed = append(failed, fmt.Sprintf("%s: entry %d is broken: %s", filepath.ToSlash(rel), res.FirstBroken, res.Reason))
			continue
		}
		a.Logs = append(a.Logs, audit.HeadOf(filepath.ToSlash(rel), res))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "# quarry audit anchor, taken %s: PATH ENTRIES LAST_HASH LAST_HASH_V2 of each log of the data dir.\n", a.TakenAt)
		fmt.Fprintf(stdout, "# Keep it outside the data dir; quarry audit verify --anchor FILE checks the logs still extend it.\n")
		for _, h := range a.Logs {
			fmt.Fprintln(stdout, h.String())
		}
	}
	if len(failed) > 0 {
		return quarry.Errorf(quarry.ECodeConflict, "%d of %s did not verify and were not anchored: %s", len(failed), auditCount(len(logs), "audit log", "audit logs"), strings.Join(failed, "; ")).
			WithHint("quarry audit verify PATH says more about one log")
	}
	return nil
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
func verifyLog(path string, ext *externalAnchor, stdout io.Writer) error {
	rep, err := audit.CheckIn(path, artifactRoot(path))
	if err != nil {
		return err
	}
	if !rep.Result.OK() {
		return quarry.Errorf(quarry.ECodeConflict, "%s: entry %d is broken: %s (%d entries before it verified)", path, rep.FirstBroken, rep.Reason, rep.FirstBroken-1)
	}
	var extNote, extProblem string
	if ext != nil {
		if extNote, extProblem, err = ext.check(path, "", rep.Result); err != nil {
			return err
		}
		if extNote == "" && extProblem == "" {
			extProblem = "the external anchor does not name this log"
			if ext.hash != "" {
				extProblem = fmt.Sprintf("no entry holds the anchored hash %.16s…: the log was rewritten after the anchor was taken, or it is another log", ext.hash)
			}
		}
	}
	fmt.Fprintf(stdout, "%s\n", path)
	fmt.Fprintf(stdout, "  chain:     %d entries, each hash recomputed and linked to the one before (last %.16s…)\n", rep.Entries, rep.LastHash)
	if rep.LastHashV2 != "" {
		fmt.Fprintf(stdout, "  hash_v2:   every field of each entry that has one (actor, request_id, entry_id too) recomputed and chained (last %.16s…)\n", rep.LastHashV2)
	}
	if rep.Legacy > 0 {
		fmt.Fprintf(stdout, "  note:      %s written by an older Quarry hash their numbers as it wrote them; intact, but the specification's verify_audit_chain rejects them\n", auditCount(rep.Legacy, "entry was", "entries were"))
	}
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
	if rep.Records > 0 {
		fmt.Fprintf(stdout, "  records:   %s checked against the SHA-256 recorded when each was last saved\n", auditCount(rep.Records, "analysis record", "analysis records"))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "  PROBLEM:   %s\n", p)
	}
	switch {
	case extProblem != "":
		fmt.Fprintf(stdout, "  external:  PROBLEM: %s\n", extProblem)
	case extNote != "":
		fmt.Fprintf(stdout, "  external:  %s\n", extNote)
	}
	if !rep.OK() || extProblem != "" {
		n := len(rep.Problems)
		if rep.AnchorProblem != "" {
			n++
		}
		if extProblem != "" {
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

// dataDirLogs lists the audit logs of a data dir that exists (see
// auditLogs). Errors: NOT_FOUND when there is no such data dir.
func dataDirLogs(dataDir string) ([]string, error) {
	if st, err := os.Stat(dataDir); errors.Is(err, fs.ErrNotExist) || (err == nil && !st.IsDir()) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "there is no data dir %s", dataDir).
			WithHint("name it with --data-dir or QUARRY_DATA_DIR, or verify one log: quarry audit verify PATH")
	} else if err != nil {
		return nil, err
	}
	return auditLogs(dataDir)
}

// verifyAll checks every audit log of a data dir, printing a line for
// each, and fails with CONFLICT naming each log that does not verify and
// where it broke. With an external anchor, every log it names must still
// extend it, and a hash must be held by one of the logs.
func verifyAll(dataDir string, ext *externalAnchor, stdout io.Writer) error {
	logs, err := dataDirLogs(dataDir)
	if err != nil {
		return err
	}
	if len(logs) == 0 && ext == nil {
		fmt.Fprintf(stdout, "no audit logs in %s: nothing has run there yet\n", dataDir)
		return nil
	}
	var failed []string
	fail := func(rel, problem string) {
		fmt.Fprintf(stdout, "FAILED  %s  %s\n", rel, problem)
		failed = append(failed, rel+": "+problem)
	}
	anchoredBy := "" // the log that holds an anchored hash
	for _, rel := range logs {
		path := filepath.Join(dataDir, rel)
		rep, err := audit.CheckIn(path, artifactRoot(path))
		if err != nil {
			return err
		}
		if problem := reportProblem(rep); problem != "" {
			fail(rel, problem)
			continue
		}
		var extNote string
		if ext != nil {
			note, problem, err := ext.check(path, rel, rep.Result)
			if err != nil {
				return err
			}
			if problem != "" {
				fail(rel, problem)
				continue
			}
			if note != "" && ext.hash != "" {
				anchoredBy = rel
			}
			extNote = note
		}
		line := auditCount(rep.Entries, "entry", "entries")
		if rep.Artifacts > 0 {
			line += ", " + auditCount(rep.Artifacts, "artifact", "artifacts")
		}
		if rep.Records > 0 {
			line += ", " + auditCount(rep.Records, "record", "records")
		}
		if extNote != "" {
			line += "; " + extNote
		}
		if rep.Legacy > 0 {
			line += "; " + auditCount(rep.Legacy, "entry", "entries") + " by an older Quarry's number format, which the specification's verifier rejects"
		}
		if rep.AnchorLag > 0 {
			line += "; its anchor lags by " + auditCount(rep.AnchorLag, "entry", "entries") + ", brought up to date at the next write"
		}
		if rep.Torn {
			line += "; an append that never finished ends it, cut off at the next write"
		}
		fmt.Fprintf(stdout, "ok      %s  %s\n", rel, line)
	}
	// What the external anchor names must still be there.
	if ext != nil && ext.hash != "" && anchoredBy == "" {
		fail("(external anchor)", fmt.Sprintf("no log holds the anchored entry %.16s…: the log that held it was rewritten or removed", ext.hash))
	}
	if ext != nil {
		for _, h := range ext.heads {
			if !slices.Contains(logs, filepath.FromSlash(h.Path)) {
				fail(h.Path, fmt.Sprintf("the external anchor recorded %s, but the log is gone", auditCount(h.Entries, "entry", "entries")))
			}
		}
	}
	if len(failed) > 0 {
		return quarry.Errorf(quarry.ECodeConflict, "%d of %s in %s failed verification: %s", len(failed), auditCount(len(logs), "audit log", "audit logs"), dataDir, strings.Join(failed, "; ")).
			WithHint("quarry audit verify PATH says more about one log")
	}
	if ext != nil {
		fmt.Fprintf(stdout, "verified %s against the external anchor: nothing recorded was changed, removed or cut off\n", auditCount(len(logs), "audit log", "audit logs"))
		return nil
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

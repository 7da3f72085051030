package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
)

// An anchor is kept beside the log ("audit.anchor.json" for "audit.jsonl")
// and rewritten after every append: the number of entries and the last
// hash. A hash chain alone cannot tell a log whose last entries were cut
// off, or that was emptied, from a shorter one; the anchor can.
//
// It also records the last entry's hash_v2, so that a log whose hash_v2
// fields were all removed, to edit an actor unnoticed, no longer matches.
type anchor struct {
	Entries    int    `json:"entries"`
	LastHash   string `json:"last_hash"`
	LastHashV2 string `json:"last_hash_v2,omitempty"`
}

// anchorOf is the anchor of a verified chain.
func anchorOf(res Result) anchor {
	return anchor{Entries: res.Entries, LastHash: res.LastHash, LastHashV2: res.LastHashV2}
}

// AnchorPath returns the anchor file of the log at logPath.
func AnchorPath(logPath string) string {
	base := strings.TrimSuffix(filepath.Base(logPath), filepath.Ext(logPath))
	return filepath.Join(filepath.Dir(logPath), base+".anchor.json")
}

// writeAnchor replaces the anchor through a rename, so a reader sees the
// old or the new one. It is not synced: after a crash the anchor may lag
// the log by the entry being written, which Check reports.
func writeAnchor(logPath string, a anchor) error {
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	p := AnchorPath(logPath)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("audit: write anchor: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("audit: write anchor: %w", err)
	}
	return nil
}

// readAnchor reads the anchor of the log at logPath; ok is false when there
// is none (a log written before anchors existed).
func readAnchor(logPath string) (a anchor, ok bool, err error) {
	data, err := os.ReadFile(AnchorPath(logPath))
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, err
	}
	if err := json.Unmarshal(data, &a); err != nil {
		return a, true, fmt.Errorf("the anchor %s is not valid JSON", filepath.Base(AnchorPath(logPath)))
	}
	return a, true, nil
}

// anchorProblem compares the chain with its anchor and says what is wrong,
// or "" when they agree. An anchor that lags the log is not a problem:
// it is what a crash or a full disk between an append and its anchor
// leaves, and entries added after it are chained like any other (the
// anchor guards against cutting entries off, which the chain cannot
// show).
func anchorProblem(res Result, a anchor) string {
	switch {
	case res.Entries < a.Entries:
		return fmt.Sprintf("the log has %d entries but its anchor recorded %d: entries were removed from its end", res.Entries, a.Entries)
	case res.LastHash != a.LastHash:
		return fmt.Sprintf("the last entry's hash %.12s… is not the anchored %.12s…: the log was replaced", res.LastHash, a.LastHash)
	case a.LastHashV2 != "" && res.LastHashV2 != a.LastHashV2:
		return fmt.Sprintf("the last entry's hash_v2 %.12s… is not the anchored %.12s…: the log was rewritten", res.LastHashV2, a.LastHashV2)
	}
	return ""
}

// lagProblem is anchorProblem for a log that may have more entries than
// its anchor: the anchored entry must still be there, with its hash.
func lagProblem(logPath string, res Result, a anchor) (string, error) {
	if res.Entries <= a.Entries {
		return anchorProblem(res, a), nil
	}
	h, h2, err := hashAt(logPath, res.Size, a.Entries)
	if a.Entries == 0 {
		h, h2 = quarry.GenesisHash, ""
	}
	switch {
	case err != nil:
		return "", err
	case h != a.LastHash:
		return fmt.Sprintf("entry %d's hash %.12s… is not the anchored %.12s…: the log was replaced", a.Entries, h, a.LastHash), nil
	case a.LastHashV2 != "" && h2 != a.LastHashV2:
		return fmt.Sprintf("entry %d's hash_v2 %.12s… is not the anchored %.12s…: the log was rewritten", a.Entries, h2, a.LastHashV2), nil
	}
	return "", nil
}

// Report is what Check found: the chain, the anchor and the artifacts.
type Report struct {
	Result
	// Anchored is true when the log has an anchor; AnchorProblem says how
	// the log and its anchor disagree ("" when they agree).
	Anchored      bool
	AnchorProblem string
	// AnchorLag is how many entries the log has beyond what its anchor
	// recorded: an anchor write cut short, repaired at the next append.
	AnchorLag int
	// Artifacts counts the files checked against the SHA-256 their
	// artifact_generated entry recorded (the last entry of each path);
	// Unhashed counts artifact entries without a hash, which cannot be
	// checked; Problems lists each file that is missing or changed.
	Artifacts int
	Unhashed  int
	Problems  []string
	// Records counts the records (an analysis's result.json) checked
	// against the SHA-256 their last record_saved entry gave; a changed
	// or missing one is in Problems.
	Records int
}

// OK reports whether the chain, the anchor and every artifact check out.
func (r Report) OK() bool {
	return r.Result.OK() && r.Anchored && r.AnchorProblem == "" && len(r.Problems) == 0
}

// Check verifies the log at logPath (see Verify), compares it with its
// anchor, and checks every artifact and record it records: each file,
// relative to the log's directory, must exist and have the SHA-256 its
// last artifact_generated or record_saved entry gives. Errors: NOT_FOUND when there is no log;
// otherwise I/O errors only, as problems are reported in the Report.
func Check(logPath string) (Report, error) {
	return CheckIn(logPath, filepath.Dir(logPath))
}

// CheckIn is Check with artifact paths relative to root rather than the
// log's directory: the analyses' log (logs/data_agent_runs.jsonl) records
// paths relative to the data dir (artifacts/tables/...).
func CheckIn(logPath, root string) (Report, error) {
	res, err := VerifyFile(logPath)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Result: res}
	a, ok, err := readAnchor(logPath)
	rep.Anchored = ok
	switch {
	case err != nil:
		rep.AnchorProblem = err.Error()
	case !ok:
		rep.AnchorProblem = "the log has no anchor, so entries cut from its end would go unnoticed"
	case res.OK():
		if rep.AnchorProblem, err = lagProblem(logPath, res, a); err != nil {
			return rep, err
		}
		rep.AnchorLag = max(res.Entries-a.Entries, 0)
	}
	if !res.OK() {
		return rep, nil
	}
	hashes, order, unhashed, err := fileHashes(logPath, res.Size, quarry.EventArtifactGenerated)
	if err != nil {
		return rep, err
	}
	rep.Unhashed = unhashed
	for _, rel := range order {
		rep.Artifacts++
		problem, err := checkFile(root, rel, hashes[rel])
		if err != nil {
			return rep, err
		}
		if problem != "" {
			rep.Problems = append(rep.Problems, rel+": "+problem)
		}
	}
	hashes, order, _, err = fileHashes(logPath, res.Size, quarry.EventRecordSaved)
	if err != nil {
		return rep, err
	}
	for _, rel := range order {
		rep.Records++
		problem, err := checkFile(root, rel, hashes[rel])
		if err != nil {
			return rep, err
		}
		switch problem {
		case "":
		case "missing":
			rep.Problems = append(rep.Problems, rel+" was recorded but is missing")
		default:
			rep.Problems = append(rep.Problems, rel+" was changed after it was recorded "+strings.TrimPrefix(problem, "changed "))
		}
	}
	return rep, nil
}

// checkFile compares the file rel, relative to root, with the SHA-256 a
// log recorded for it, and says what is wrong ("" when nothing is):
// "missing", "changed (SHA-256 ...)", or a path outside root.
func checkFile(root, rel, want string) (string, error) {
	clean := path.Clean(rel)
	if path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
		return "not a path inside the session", nil
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(clean)))
	if errors.Is(err, fs.ErrNotExist) {
		return "missing", nil
	}
	if err != nil {
		return "", err
	}
	if got := quarry.SHA256Hex(data); got != want {
		return fmt.Sprintf("changed (SHA-256 %.12s…, recorded %.12s…)", got, want), nil
	}
	return "", nil
}

// fileHashes reads the entries of a verified log that record a file
// (artifact_generated, record_saved): the last recorded hash of each
// path, the paths in order of first appearance, and how many entries
// carry no hash.
func fileHashes(logPath string, size int64, eventType string) (map[string]string, []string, int, error) {
	hashes := map[string]string{}
	var order []string
	unhashed := 0
	err := eachEntry(logPath, size, func(_ int, e quarry.AuditEntry) bool {
		if e.EventType != eventType {
			return true
		}
		p, _ := e.EventData["path"].(string)
		h, _ := e.EventData["sha256"].(string)
		if p == "" || h == "" {
			unhashed++
			return true
		}
		if _, seen := hashes[p]; !seen {
			order = append(order, p)
		}
		hashes[p] = h
		return true
	})
	return hashes, order, unhashed, err
}

// hashAt returns the hash and hash_v2 of the log's nth entry ("" when it
// has fewer), of its first size bytes, which verified.
func hashAt(logPath string, size int64, n int) (h, h2 string, err error) {
	err = eachEntry(logPath, size, func(i int, e quarry.AuditEntry) bool {
		if i == n {
			h, h2 = e.Hash, e.HashV2
		}
		return i < n
	})
	return h, h2, err
}

// eachEntry calls fn with each entry in the first size bytes of the log
// at logPath, numbered from 1, until fn returns false. Those bytes must
// have verified, so every line in them is a whole entry.
func eachEntry(logPath string, size int64, fn func(n int, e quarry.AuditEntry) bool) error {
	f, err := os.Open(logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, size), 64<<10)
	for n := 1; ; n++ {
		b, err := readLine(br)
		if len(b) == 0 && err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var e quarry.AuditEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return err
		}
		if !fn(n, e) {
			return nil
		}
	}
}

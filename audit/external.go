package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry"
)

// The anchor beside a log (AnchorPath) finds entries cut from its end,
// but whoever can rewrite the log can rewrite its anchor too. A Head kept
// outside the data dir (printed by "quarry audit anchor", saved
// elsewhere, or its hash_v2 copied down) closes that gap: a log rewritten
// since no longer extends it.

// Head is where a log ended when an anchor was taken: its path (relative
// to the data dir, slash-separated), its number of entries, and the hash
// and hash_v2 of its last entry (hash_v2 is "" for a log written before
// it existed).
type Head struct {
	Path       string `json:"path"`
	Entries    int    `json:"entries"`
	LastHash   string `json:"last_hash"`
	LastHashV2 string `json:"last_hash_v2,omitempty"`
}

// HeadOf is the head of a verified chain.
func HeadOf(rel string, res Result) Head {
	return Head{Path: rel, Entries: res.Entries, LastHash: res.LastHash, LastHashV2: res.LastHashV2}
}

// String is the head as one line of "quarry audit anchor": path, entries,
// last hash and last hash_v2 ("-" when there is none), separated by
// spaces. ParseHeads reads it back.
func (h Head) String() string {
	v2 := h.LastHashV2
	if v2 == "" {
		v2 = "-"
	}
	return fmt.Sprintf("%s %d %s %s", h.Path, h.Entries, h.LastHash, v2)
}

// Anchor is a set of heads taken at once, as "quarry audit anchor --json"
// writes it.
type Anchor struct {
	TakenAt string `json:"taken_at,omitempty"`
	Logs    []Head `json:"logs"`
}

// ParseHeads reads an anchor as "quarry audit anchor" writes it: JSON (an
// Anchor), or text with one Head.String line per log, where blank lines
// and lines starting with "#" are ignored. Errors: INVALID, naming the
// line that is not a head.
func ParseHeads(data []byte) ([]Head, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		var a Anchor
		if err := json.Unmarshal(t, &a); err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "the anchor is not valid JSON: %v", err)
		}
		for i, h := range a.Logs {
			if err := h.check(); err != nil {
				return nil, quarry.Errorf(quarry.ECodeInvalid, "log %d of the anchor: %v", i+1, err)
			}
		}
		if len(a.Logs) == 0 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "the anchor names no log")
		}
		return a.Logs, nil
	}
	var heads []Head
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "line %d of the anchor is not PATH ENTRIES LAST_HASH LAST_HASH_V2", n)
		}
		entries, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "line %d of the anchor: %q is not a number of entries", n, f[1])
		}
		h := Head{Path: f[0], Entries: entries, LastHash: f[2], LastHashV2: f[3]}
		if h.LastHashV2 == "-" {
			h.LastHashV2 = ""
		}
		if err := h.check(); err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "line %d of the anchor: %v", n, err)
		}
		heads = append(heads, h)
	}
	if err := sc.Err(); err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the anchor cannot be read: %v", err)
	}
	if len(heads) == 0 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the anchor names no log")
	}
	return heads, nil
}

// check says what is wrong with a parsed head.
func (h Head) check() error {
	switch {
	case h.Path == "" || strings.HasPrefix(h.Path, "#") || strings.HasPrefix(h.Path, "{") || strings.ContainsFunc(h.Path, unicode.IsSpace):
		// A log's path in a data dir has none of these (logs/NAME.jsonl,
		// sessions/ID/audit.jsonl), and the text form could not hold it:
		// "#" starts a comment and "{" the JSON form.
		return fmt.Errorf("%q is not the path of a log in a data dir", h.Path)
	case h.Entries < 0:
		return fmt.Errorf("%d entries", h.Entries)
	case !IsHash(h.LastHash):
		return fmt.Errorf("the last hash %q is not a SHA-256 in hex", h.LastHash)
	case h.LastHashV2 != "" && !IsHash(h.LastHashV2):
		return fmt.Errorf("the last hash_v2 %q is not a SHA-256 in hex", h.LastHashV2)
	}
	return nil
}

// IsHash reports whether s is a SHA-256 written as 64 lower-case hex
// digits, as entries carry them.
func IsHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Extends says whether the log at logPath, whose chain res verified (its
// first res.Size bytes), still holds the anchored head h: at least
// h.Entries entries, the h.Entries-th with the anchored hash and hash_v2.
// It returns "" when it does, else what is wrong.
func Extends(logPath string, res Result, h Head) (string, error) {
	if res.Entries < h.Entries {
		return fmt.Sprintf("it has %d entries but the external anchor recorded %d: entries were removed", res.Entries, h.Entries), nil
	}
	hash, v2 := quarry.GenesisHash, ""
	if h.Entries > 0 {
		var err error
		if hash, v2, err = hashAt(logPath, res.Size, h.Entries); err != nil {
			return "", err
		}
	}
	switch {
	case hash != h.LastHash:
		return fmt.Sprintf("entry %d's hash %.12s… is not the externally anchored %.12s…: the log was rewritten after the anchor was taken", h.Entries, hash, h.LastHash), nil
	case h.LastHashV2 != "" && v2 != h.LastHashV2:
		return fmt.Sprintf("entry %d's hash_v2 %.12s… is not the externally anchored %.12s…: the log was rewritten after the anchor was taken", h.Entries, v2, h.LastHashV2), nil
	}
	return "", nil
}

// Find returns the position (from 1) of the entry of the verified log at
// logPath whose hash or hash_v2 is hash, or 0 when there is none. partial
// is true when hash is the entry's hash and it has a hash_v2: the entries
// up to it may have had their actor, request_id or entry_id changed and
// their hash_v2 recomputed, which only its hash_v2 would show.
func Find(logPath string, res Result, hash string) (n int, partial bool, err error) {
	err = eachEntry(logPath, res.Size, func(i int, e quarry.AuditEntry) bool {
		if e.Hash == hash || e.HashV2 == hash {
			n, partial = i, e.HashV2 != "" && e.HashV2 != hash
			return false
		}
		return true
	})
	return n, partial, err
}

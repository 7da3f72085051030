// Package audit keeps the tamper-evident audit log: an append-only JSONL
// file of quarry.AuditEntry values in which every entry carries the hash of
// the one before it, so changing, removing or reordering any line breaks
// the chain at that line. Verify finds the first broken entry.
//
// Each entry carries two chained hashes: hash, the specification's formula
// over parent_hash, timestamp, event_type and event_data, which its
// verify_audit_chain checks, and hash_v2 over every field of the line,
// which Verify checks too, so an edited actor, request_id or entry_id is
// found. Numbers are written and hashed as Python's json module writes
// them, so both verifiers accept every value.
package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/quarry-dev/quarry"
)

// lockWait is how long Open waits for another writer of the same log to
// close it before giving up with CONFLICT.
var lockWait = 5 * time.Second

// Log appends entries to one hash-chained JSONL file. It is safe for
// concurrent use.
type Log struct {
	mu        sync.Mutex
	lock      *flock.Flock
	f         *os.File
	path      string
	requestID string
	seq       int
	last      string
	lastV2    string
	now       func() time.Time
	// shared logs take the lock per append (OpenShared); size is where
	// the entries this Log has seen end.
	shared bool
	size   int64
	// anchorErr is why the anchor could not be written after the last
	// append; Close writes it again.
	anchorErr error
}

// Open opens the log at path for appending, creating it if needed. An
// existing log is verified first and continued; a broken one is refused, so
// nothing is ever chained onto tampered history.
//
// A log has one writer at a time, across processes: Open takes an exclusive
// lock on a file beside the log (".audit.jsonl.lock" for "audit.jsonl") and
// Close releases it; the operating system releases it if the process dies.
// If another Log holds it for longer than five seconds, Open fails with
// CONFLICT.
func Open(path, requestID string, now func() time.Time) (*Log, error) {
	lock := flock.New(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock"))
	if err := waitLock(lock, path); err != nil {
		lock.Close()
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	l, err := open(path, requestID, now)
	if err != nil {
		lock.Close()
		return nil, err
	}
	l.lock = lock
	return l, nil
}

// OpenShared opens a log that several processes append to, such as the
// analyses' logs/data_agent_runs.jsonl, which a server and command-line
// runs share: the lock is held for each append only. Before appending, a
// shared Log reads and verifies the entries others added since its last
// look, and chains onto the newest; a broken or shortened log is refused
// with CONFLICT. Entries carry the request id given to AppendFor.
func OpenShared(path string, now func() time.Time) (*Log, error) {
	l, err := Open(path, "", now)
	if err != nil {
		return nil, err
	}
	l.shared = true
	if err := l.lock.Unlock(); err != nil {
		l.f.Close()
		l.lock.Close()
		return nil, fmt.Errorf("audit: unlock %s: %w", path, err)
	}
	return l, nil
}

// waitLock takes lock, waiting up to lockWait for another writer.
func waitLock(lock *flock.Flock, path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	locked, err := lock.TryLockContext(ctx, 10*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("audit: lock %s: %w", path, err)
	}
	if !locked {
		return quarry.Errorf(quarry.ECodeConflict, "audit log %s is being written by another Quarry process", path).
			WithHint("try again when its investigation or query has finished")
	}
	return nil
}

// catchUp reads the entries other processes appended since this Log last
// looked, verifying that they continue its chain. The caller holds the
// lock.
func (l *Log) catchUp() error {
	f, err := os.Open(l.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	switch {
	case st.Size() == l.size:
		return nil
	case st.Size() < l.size:
		return quarry.Errorf(quarry.ECodeConflict, "audit log %s is shorter than when it was opened (%d bytes, was %d)", l.path, st.Size(), l.size)
	}
	if _, err := f.Seek(l.size, io.SeekStart); err != nil {
		return err
	}
	res, err := verifyFrom(io.LimitReader(f, st.Size()-l.size), Result{Entries: l.seq, LastHash: l.last, LastHashV2: l.lastV2})
	if err != nil {
		return err
	}
	if !res.OK() {
		return quarry.Errorf(quarry.ECodeConflict, "audit log %s is broken at entry %d: %s", l.path, res.FirstBroken, res.Reason)
	}
	l.seq, l.last, l.lastV2, l.size = res.Entries, res.LastHash, res.LastHashV2, l.size+res.Size
	if res.Torn {
		// Another process's append was cut short; holding the lock, cut
		// off what it left so that this append continues the chain.
		if err := l.f.Truncate(l.size); err != nil {
			return quarry.StorageError(fmt.Errorf("audit: cut the unfinished last entry of %s: %w", l.path, err))
		}
	}
	return nil
}

// open verifies the log at path and opens it for appending; the caller
// holds its lock.
func open(path, requestID string, now func() time.Time) (*Log, error) {
	l := &Log{path: path, requestID: requestID, last: quarry.GenesisHash, now: now}
	if f, err := os.Open(path); err == nil {
		res, err := Verify(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		if !res.OK() {
			return nil, quarry.Errorf(quarry.ECodeConflict, "audit log %s is broken at entry %d: %s", path, res.FirstBroken, res.Reason)
		}
		// Never chain onto a log whose end was cut off. An anchor that lags
		// by entries the log has is a crash between the two writes.
		a, ok, err := readAnchor(path)
		if err != nil {
			return nil, err
		}
		if ok {
			problem, err := lagProblem(path, res, a)
			if err != nil {
				return nil, err
			}
			if problem != "" {
				return nil, quarry.Errorf(quarry.ECodeConflict, "audit log %s does not match its anchor: %s", path, problem)
			}
		}
		// What a write cut short left behind is repaired, now that the
		// anchor has shown nothing anchored is lost: the torn tail of an
		// append that never finished is cut off, and an anchor that lags
		// the entries written before it is brought up to date.
		if res.Torn {
			if err := os.Truncate(path, res.Size); err != nil {
				return nil, quarry.StorageError(fmt.Errorf("audit: cut the unfinished last entry of %s: %w", path, err))
			}
		}
		if !ok || res.Entries > a.Entries {
			if err := writeAnchor(path, anchorOf(res)); err != nil {
				return nil, quarry.StorageError(err)
			}
		}
		l.seq, l.last, l.lastV2 = res.Entries, res.LastHash, res.LastHashV2
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	l.f, l.size = f, st.Size()
	return l, nil
}

// Path returns the file the log writes to.
func (l *Log) Path() string { return l.path }

// Entries reads back every entry of the log, oldest first.
func (l *Log) Entries() ([]quarry.AuditEntry, error) { return ReadFile(l.path) }

// Append adds one entry and returns it. data must encode to a JSON object.
func (l *Log) Append(eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	return l.AppendFor(l.requestID, eventType, actor, data)
}

// AppendFor adds one entry of requestID, for a log that several requests
// share (the analyses' logs/data_agent_runs.jsonl).
func (l *Log) AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return quarry.AuditEntry{}, fmt.Errorf("audit: append to %s: the log is closed", l.path)
	}
	if l.shared {
		if err := waitLock(l.lock, l.path); err != nil {
			return quarry.AuditEntry{}, err
		}
		defer l.lock.Unlock()
		if err := l.catchUp(); err != nil {
			return quarry.AuditEntry{}, err
		}
	}
	// Normalise data to the JSON values a reader will decode from the
	// file, numbers in Python's form, so the hashes are computed over
	// exactly what the specification's verifier reads.
	tree, err := pythonData(data)
	if err != nil {
		return quarry.AuditEntry{}, fmt.Errorf("audit: encode event data: %w", err)
	}
	norm, _ := tree.(map[string]any)
	if norm == nil {
		norm = map[string]any{}
	}
	e := quarry.AuditEntry{
		EntryID:        quarry.NewID(),
		RequestID:      requestID,
		SequenceNumber: l.seq + 1,
		ParentHash:     l.last,
		Timestamp:      l.now().UTC().Format(quarry.AuditTimeFormat),
		EventType:      eventType,
		EventData:      norm,
		Actor:          actor,
	}
	if e.Hash, err = e.ComputeHash(); err != nil {
		return quarry.AuditEntry{}, err
	}
	line, err := json.Marshal(e)
	if err != nil {
		return quarry.AuditEntry{}, err
	}
	if e.HashV2, err = hashV2(previousV2(l.last, l.lastV2), line); err != nil {
		return quarry.AuditEntry{}, err
	}
	if line, err = json.Marshal(e); err != nil {
		return quarry.AuditEntry{}, err
	}
	// The caller gets the entry as ReadFile returns it, numbers as
	// float64.
	ret := e
	ret.EventData = nil
	if err := json.Unmarshal(line, &ret); err != nil {
		return quarry.AuditEntry{}, err
	}
	if n, err := l.f.Write(append(line, '\n')); err != nil {
		// Take back what part of the line was written, so that the log
		// stays a chain the next append can continue; if even that fails,
		// the torn tail is cut off when the log is next opened.
		if n > 0 {
			if terr := l.f.Truncate(l.size); terr != nil {
				l.size += int64(n)
			}
		}
		return quarry.AuditEntry{}, quarry.StorageError(fmt.Errorf("audit: append to %s: %w", l.path, err))
	}
	l.size += int64(len(line) + 1)
	l.seq, l.last, l.lastV2 = e.SequenceNumber, e.Hash, e.HashV2
	// The entry is recorded. An anchor that cannot be written now (a full
	// disk) lags behind it, which is no loss: the next append, Close or
	// open writes it again, and Check reports the lag, not tampering.
	l.anchorErr = writeAnchor(l.path, anchor{Entries: l.seq, LastHash: l.last, LastHashV2: l.lastV2})
	return ret, nil
}

// Close flushes the log to stable storage, closes it and releases its lock.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if l.anchorErr != nil {
		if aerr := writeAnchor(l.path, anchor{Entries: l.seq, LastHash: l.last, LastHashV2: l.lastV2}); err == nil && aerr != nil {
			err = quarry.StorageError(aerr)
		}
	}
	l.f = nil
	if uerr := l.lock.Close(); err == nil {
		err = uerr
	}
	return err
}

// Result is the outcome of verifying a log.
type Result struct {
	Entries     int    // entries read
	FirstBroken int    // sequence position (1-based line) of the first bad entry; 0 if none
	Reason      string // why that entry is bad
	LastHash    string // hash of the last entry (GenesisHash for an empty log)
	LastHashV2  string // hash_v2 of the last entry ("" when it has none)
	// Legacy counts entries without hash_v2 whose hash holds only by the
	// formula Quarry used before its numbers followed Python's (number
	// literals as Go wrote them): written by an older Quarry, intact, but
	// rejected by the specification's verifier.
	Legacy int
	// Torn is a last line with no newline: an append cut short (a full
	// disk, a crash), not a broken chain, and not counted in Entries.
	// Size is the length in bytes of the entries that verified, where a
	// torn tail is cut off when the log is next opened for writing.
	Torn bool
	Size int64
}

// OK reports whether the whole chain verified.
func (r Result) OK() bool { return r.FirstBroken == 0 }

// Verify reads a JSONL audit log and checks, entry by entry, that sequence
// numbers count up from 1, each parent_hash is the previous entry's hash,
// each hash is SHA256(parent_hash + timestamp + event_type + canonical
// event_data), and each hash_v2 covers the whole line and chains onto the
// one before (see quarry.AuditEntry). Once an entry has a hash_v2, every
// later one must have one too: an old log is continued with them, and
// removing them to edit an actor is found. An entry without hash_v2 (an
// old log's) may match its hash by the formula Quarry used before
// (Result.Legacy). It stops at the first broken entry. The error is for
// I/O failures only; a broken chain is reported in the Result.
func Verify(r io.Reader) (Result, error) {
	return verifyFrom(r, Result{LastHash: quarry.GenesisHash})
}

// maxEntryBytes bounds one entry's line.
const maxEntryBytes = 64 << 20

// verifyFrom verifies entries that continue a chain already verified up to
// res.
func verifyFrom(r io.Reader, res Result) (Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	line := res.Entries
	for {
		b, err := readLine(br)
		if err != nil && err != io.EOF {
			return res, err
		}
		if len(b) == 0 && err == io.EOF {
			return res, nil
		}
		if err == io.EOF {
			// A last line with no newline is an append that never
			// finished, whole entry or not (the newline is written with
			// it): the chain up to it holds, and it is not counted.
			res.Torn = true
			return res, nil
		}
		line++
		broken := func(format string, args ...any) (Result, error) {
			res.FirstBroken = line
			res.Reason = fmt.Sprintf(format, args...)
			return res, nil
		}
		var e quarry.AuditEntry
		body := bytes.TrimSuffix(b, []byte("\n"))
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber() // hash numbers as written, as Python reads them
		if err := dec.Decode(&e); err != nil {
			return broken("not a JSON entry: %v", err)
		}
		if dec.More() {
			return broken("not a JSON entry: more than one value on the line")
		}
		if e.SequenceNumber != line {
			return broken("sequence_number is %d; want %d", e.SequenceNumber, line)
		}
		if e.ParentHash != res.LastHash {
			return broken("parent_hash %.12s… does not match the previous entry's hash %.12s…", e.ParentHash, res.LastHash)
		}
		want, err := e.ComputeHash()
		if err != nil {
			return broken("cannot hash event_data: %v", err)
		}
		legacy := false
		if e.Hash != want && e.HashV2 == "" {
			old, err := e.ComputeLegacyHash()
			legacy = err == nil && e.Hash == old
		}
		if e.Hash != want && !legacy {
			return broken("hash %.12s… does not match its contents (recomputed %.12s…)", e.Hash, want)
		}
		switch {
		case e.HashV2 == "" && res.LastHashV2 != "":
			return broken("hash_v2 is missing, though the entry before it has one: it was removed")
		case e.HashV2 != "":
			v2, err := hashV2(previousV2(res.LastHash, res.LastHashV2), body)
			if err != nil {
				return broken("cannot hash the entry: %v", err)
			}
			if e.HashV2 != v2 {
				return broken("hash_v2 %.12s… does not match the entry's fields (recomputed %.12s…): its actor, request_id, entry_id or another field was changed", e.HashV2, v2)
			}
		}
		if legacy {
			res.Legacy++
		}
		res.Entries = line
		res.LastHash = e.Hash
		res.LastHashV2 = e.HashV2
		res.Size += int64(len(b))
	}
}

// readLine reads one line with its newline; at the end of r it returns
// what is left and io.EOF. A line longer than maxEntryBytes is an error.
func readLine(br *bufio.Reader) ([]byte, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxEntryBytes {
			return nil, fmt.Errorf("audit: an entry is longer than %d bytes", maxEntryBytes)
		}
		if err != bufio.ErrBufferFull {
			return b, err
		}
	}
}

// VerifyFile verifies the log at path.
func VerifyFile(path string) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Result{}, quarry.Errorf(quarry.ECodeNotFound, "audit log %s does not exist", path)
		}
		return Result{}, err
	}
	defer f.Close()
	return Verify(f)
}

// previousV2 is what an entry's hash_v2 chains onto: the previous entry's
// hash_v2, or its hash when it has none (an old log's entry, or the
// genesis hash before the first entry).
func previousV2(lastHash, lastV2 string) string {
	if lastV2 != "" {
		return lastV2
	}
	return lastHash
}

// hashV2 returns SHA256(prev + canonical JSON of the entry's line without
// hash and hash_v2): every field the line holds, known or not, is
// covered.
func hashV2(prev string, line []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return "", err
	}
	delete(fields, "hash")
	delete(fields, "hash_v2")
	data, err := quarry.CanonicalJSON(fields)
	if err != nil {
		return "", err
	}
	return quarry.SHA256Hex(append([]byte(prev), data...)), nil
}

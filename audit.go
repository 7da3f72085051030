package quarry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Audit event types (data-agent-data-model.md, AuditTrace).
const (
	EventRequestSubmitted    = "request_submitted"
	EventPlanCreated         = "plan_created"
	EventToolCalled          = "tool_called"
	EventObservationRecorded = "observation_recorded"
	EventArtifactGenerated   = "artifact_generated"
	EventPolicyDecision      = "policy_decision"
	// EventRecordSaved is Quarry's, not the specification's: a record
	// that the API and replay read (an analysis's result.json) was
	// written, with its path relative to the data dir and its SHA-256,
	// which "quarry audit verify" checks the file against.
	EventRecordSaved = "record_saved"
)

// GenesisHash is the parent hash of the first entry of a chain.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// AuditEntry is one line of a hash-chained audit log. Hash is
// SHA256(parent_hash + timestamp + event_type + canonical JSON of
// event_data), where canonical JSON is what Python's
// json.dumps(sort_keys=True) writes for the value Python's json.loads
// reads from the line, so the specification's verifier accepts Quarry's
// logs.
//
// That formula leaves entry_id, request_id and actor out, so HashV2 covers
// every field: it is SHA256 of the previous entry's hash_v2 (its hash when
// it has none, the genesis hash for the first entry) followed by the
// canonical JSON of the entry's whole line without hash and hash_v2. The
// audit package writes and checks it; the specification's verifier ignores
// it. Entries written before it existed have none.
type AuditEntry struct {
	EntryID        string         `json:"entry_id"`
	RequestID      string         `json:"request_id"`
	SequenceNumber int            `json:"sequence_number"`
	ParentHash     string         `json:"parent_hash"`
	Timestamp      string         `json:"timestamp"`
	EventType      string         `json:"event_type"`
	EventData      map[string]any `json:"event_data"`
	Actor          string         `json:"actor"`
	Hash           string         `json:"hash"`
	HashV2         string         `json:"hash_v2,omitempty"`
}

// AuditTimeFormat is the layout of AuditEntry.Timestamp.
const AuditTimeFormat = time.RFC3339Nano

// ComputeHash returns the hash the entry should carry. Numbers in
// EventData are hashed as Python reads them: a json.Number keeps the
// literal of the line ("1.0" is a float, "1" an int), a float64 is one
// Go wrote (so 1.0 is written "1", an int to Python); a verifier reads
// event_data with json.Decoder.UseNumber.
func (e *AuditEntry) ComputeHash() (string, error) {
	return e.hash(false)
}

// ComputeLegacyHash returns the hash Quarry wrote before its numbers
// followed Python's: each number literal as Go wrote it ("0.000030255",
// "1e-7", "-0"), which the specification's verifier rejects for floats
// below 1e-4 and for negative zero. An entry written then (it has no
// HashV2) verifies by either formula.
func (e *AuditEntry) ComputeLegacyHash() (string, error) {
	return e.hash(true)
}

func (e *AuditEntry) hash(legacy bool) (string, error) {
	data, err := canonicalJSON(e.EventData, legacy)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(e.ParentHash))
	h.Write([]byte(e.Timestamp))
	h.Write([]byte(e.EventType))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CanonicalJSON encodes v like Python's json.dumps(v, sort_keys=True)
// encodes what json.loads reads from v's JSON: sorted keys, ", " and ": "
// separators, non-ASCII escaped as \uXXXX, an integer literal as an int
// and any other number as a float in Python's repr (PythonFloat).
func CanonicalJSON(v any) ([]byte, error) {
	return canonicalJSON(v, false)
}

func canonicalJSON(v any, legacy bool) ([]byte, error) {
	// Round-trip through encoding/json so structs and typed maps become
	// generic values with a single representation.
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	writeCanonical(&buf, generic, legacy)
	return buf.Bytes(), nil
}

func writeCanonical(buf *bytes.Buffer, v any, legacy bool) {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		if legacy {
			buf.WriteString(x.String())
		} else {
			buf.WriteString(PythonNumber(x.String()))
		}
	case string:
		writePythonString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteString(", ")
			}
			writeCanonical(buf, e, legacy)
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteString(", ")
			}
			writePythonString(buf, k)
			buf.WriteString(": ")
			writeCanonical(buf, x[k], legacy)
		}
		buf.WriteByte('}')
	}
}

// writePythonString writes s as Python's json module does with its default
// ensure_ascii=True.
func writePythonString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			buf.WriteString(`\"`)
		case r == '\\':
			buf.WriteString(`\\`)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r == '\b':
			buf.WriteString(`\b`)
		case r == '\f':
			buf.WriteString(`\f`)
		case r < 0x20 || (r >= 0x7f && r <= 0xffff):
			writeEscape(buf, r)
		case r > 0xffff:
			r -= 0x10000
			writeEscape(buf, 0xd800+(r>>10))
			writeEscape(buf, 0xdc00+(r&0x3ff))
		default:
			buf.WriteRune(r)
		}
	}
	buf.WriteByte('"')
}

// writeEscape writes the UTF-16 code unit u as \uXXXX.
func writeEscape(buf *bytes.Buffer, u rune) {
	const hexd = "0123456789abcdef"
	buf.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		buf.WriteByte(hexd[u>>shift&0xf])
	}
}

// PythonNumber returns what Python's json.dumps writes for the number
// json.loads reads from the JSON literal lit: a literal without a
// fraction or exponent is an int, written in full ("-0" is 0); any other
// is a float, written by PythonFloat. A float literal beyond the range
// of a float64 is infinite to Python, which writes "Infinity".
func PythonNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		if strings.Trim(lit, "-0") == "" {
			return "0"
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		// Not a number literal: encoding/json admits none such.
		return lit
	}
	return PythonFloat(f)
}

// PythonFloat writes f as Python's repr does, which json.dumps uses: the
// shortest digits that read back as f, in positional form when the
// decimal point falls within 16 digits of them ("0.0001", "1.0",
// "1000000000000000.0") and as d.ddde±XX otherwise ("3.0255e-05",
// "1e-07", "1e+16"); "-0.0" for negative zero. NaN and the infinities,
// which JSON cannot hold, are written as Python writes them ("NaN",
// "Infinity", "-Infinity").
func PythonFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0.0"
	case f == 0:
		return "0.0"
	}
	// 'e' with the shortest precision gives the digits and the exponent
	// of d.ddd form; Python's decimal point position is one more.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	if e < -4 || e >= 16 {
		if len(digits) > 1 {
			mant = digits[:1] + "." + digits[1:]
		} else {
			mant = digits
		}
		esign := "+"
		if e < 0 {
			esign, e = "-", -e
		}
		return fmt.Sprintf("%s%se%s%02d", sign, mant, esign, e)
	}
	point := e + 1
	switch {
	case point <= 0:
		return sign + "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
	default:
		return sign + digits[:point] + "." + digits[point:]
	}
}

package quarry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
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
)

// GenesisHash is the parent hash of the first entry of a chain.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// AuditEntry is one line of a hash-chained audit log. Hash is
// SHA256(parent_hash + timestamp + event_type + canonical JSON of
// event_data), where canonical JSON sorts object keys at every level and
// uses ", " and ": " separators, as Python's json.dumps(sort_keys=True)
// does, so the specification's verifier accepts Quarry's logs.
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
}

// AuditTimeFormat is the layout of AuditEntry.Timestamp.
const AuditTimeFormat = time.RFC3339Nano

// ComputeHash returns the hash the entry should carry.
func (e *AuditEntry) ComputeHash() (string, error) {
	data, err := CanonicalJSON(e.EventData)
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

// CanonicalJSON encodes v like Python's json.dumps(v, sort_keys=True):
// sorted keys, ", " and ": " separators, non-ASCII escaped as \uXXXX.
func CanonicalJSON(v any) ([]byte, error) {
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
	writeCanonical(&buf, generic)
	return buf.Bytes(), nil
}

func writeCanonical(buf *bytes.Buffer, v any) {
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
		buf.WriteString(x.String())
	case string:
		writePythonString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteString(", ")
			}
			writeCanonical(buf, e)
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
			writeCanonical(buf, x[k])
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

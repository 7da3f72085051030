package analyze

import (
	"encoding/json"
	"fmt"
	"path"

	"github.com/quarry-dev/quarry"
)

// RecordPath is where the record of analysis id is kept, relative to the
// data dir: its request, plan, observations and summary, which the API
// shows and Replay runs again.
func RecordPath(id string) string { return path.Join("analyses", id, "result.json") }

// SaveRecord writes v, the record of analysis requestID, as indented JSON
// to RecordPath, and then records the file's SHA-256 in log as a
// record_saved entry, so that "quarry audit verify" finds a record changed
// after it was written. A nil log records nothing (an analysis that never
// reached its log); the file is written all the same. A crash between the
// two writes leaves a record newer than its entry, which verify reports.
func SaveRecord(store Store, log Auditor, requestID string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the record of analysis %s: %w", requestID, err)
	}
	data = append(data, '\n')
	rel := RecordPath(requestID)
	if _, err := store.WriteArtifact(rel, data); err != nil {
		return err
	}
	if log == nil {
		return nil
	}
	_, err = log.AppendFor(requestID, quarry.EventRecordSaved, actorSystem, map[string]any{"path": rel, "sha256": quarry.SHA256Hex(data)})
	return err
}

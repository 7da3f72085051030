package investigations

import (
	"context"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/investigate"
	"github.com/quarry-dev/quarry/internal/budget"
	"github.com/quarry-dev/quarry/investigation"
)

// Tables returns a session's files as the tables a query sees, in upload
// order: each carries its SQL table name (TableName), file name,
// description, row count and profiled columns (Schema). It is Files for a
// session that may still be queried. Errors: SESSION_NOT_FOUND,
// SESSION_EXPIRED.
func (m *Service) Tables(ctx context.Context, id string) ([]*investigation.UploadedFile, error) {
	if _, err := m.active(ctx, id); err != nil {
		return nil, err
	}
	return m.cfg.Store.Files(id)
}

// QueryActor is the audit actor of the statements Query runs: they come
// from an outside agent through the MCP server, not from the investigation.
const QueryActor = "mcp"

// auditPreviewRows is how many result rows an audit observation keeps.
const auditPreviewRows = 5

// Query runs one read-only SELECT over a session's files, each loaded under
// its table name into an engine that is locked before the query runs: no
// file or network access, no settings, no extensions. The engine is kept
// for the session's next query while its files stay the same. The
// statement and a summary of its outcome, failures included, are appended
// to the session's audit log as tool_called and observation_recorded
// entries by actor "mcp". The result is whole, up to the engine's row
// limit.
//
// Errors: SESSION_NOT_FOUND, SESSION_EXPIRED, CONFLICT while the session's
// investigation is running (its audit log is in use) or another process
// is using the session, and the engine's
// INVALID (does not parse or bind, too many rows, too slow) and FORBIDDEN
// (anything but a single SELECT, or one touching files or the network).
func (m *Service) Query(ctx context.Context, id, sql string) (*quarry.QueryResult, error) {
	res, _, err := m.recordedQuery(ctx, id, sql, QueryActor, "query from an MCP client")
	return res, err
}

// recordedQuery is Query for any actor: it also returns the sequence
// number of the observation entry that records the result, for citing.
func (m *Service) recordedQuery(ctx context.Context, id, sql, actor, purpose string) (*quarry.QueryResult, int, error) {
	unlock := m.lock(id)
	defer unlock()
	s, err := m.active(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if s.Status == investigation.StatusRunning {
		return nil, 0, quarry.Errorf(quarry.ECodeConflict, "the investigation of session %s is running; its data can be queried when it has finished", id)
	}
	// The claim keeps another process from starting the investigation, and
	// so from needing the audit log, while the query holds it.
	release, err := m.claim(id)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	files, err := m.cfg.Store.Files(id)
	if err != nil {
		return nil, 0, err
	}
	log, err := m.cfg.OpenAudit(id)
	if err != nil {
		return nil, 0, err
	}
	defer log.Close()

	callID := actor + "_" + quarry.NewID()
	if _, err := log.Append(quarry.EventToolCalled, actor, map[string]any{
		"call_id":   callID,
		"tool_name": "sql",
		"arguments": map[string]any{"sql": sql, "purpose": purpose},
	}); err != nil {
		return nil, 0, err
	}
	start := m.now()
	// The memory watchdog may end the query with RESOURCE_LIMIT.
	qctx, unwatch := m.cfg.Guard.Watch(ctx, "the query")
	res, qerr := m.runQuery(qctx, id, files, sql)
	qerr = budget.Cause(qctx, qerr)
	unwatch()
	data := map[string]any{
		"call_id":    callID,
		"success":    qerr == nil,
		"row_count":  0,
		"columns":    []string{},
		"elapsed_ms": m.now().Sub(start).Milliseconds(),
	}
	if qerr != nil {
		data["error"] = quarry.ErrorMessage(qerr)
		data["error_code"] = quarry.ErrorCode(qerr)
	} else {
		data["row_count"], data["columns"] = len(res.Rows), res.Columns
		if len(res.Rows) > 0 {
			data["preview"] = quarry.JSONRows(res.Rows[:min(len(res.Rows), auditPreviewRows)])
		}
	}
	obs, err := log.Append(quarry.EventObservationRecorded, actor, data)
	if err != nil {
		return nil, 0, err
	}
	if qerr != nil {
		return nil, 0, qerr
	}
	return res, obs.SequenceNumber, nil
}

// runQuery runs sql over the session's files in a locked engine: the cached
// one if the files are the same, or a fresh one loaded with them. The
// engine is cached again afterwards unless the query failed in a way that
// may have left it unusable.
func (m *Service) runQuery(ctx context.Context, id string, files []*investigation.UploadedFile, sql string) (*quarry.QueryResult, error) {
	key := filesKey(files)
	eng := m.engines.take(id, key, m.now())
	if eng == nil {
		var err error
		if eng, err = m.loadEngine(ctx, files); err != nil {
			return nil, err
		}
	}
	res, err := eng.Query(ctx, sql)
	switch quarry.ErrorCode(err) {
	case "", quarry.ECodeInvalid, quarry.ECodeForbidden:
		if m.budget.Crowded() {
			eng.Close() // someone waits for its place
			break
		}
		m.engines.put(id, key, eng, m.now())
	default:
		eng.Close()
	}
	return res, err
}

// loadEngine loads files into a fresh engine and locks it.
func (m *Service) loadEngine(ctx context.Context, files []*investigation.UploadedFile) (investigate.Engine, error) {
	loaded, err := m.loadFiles(ctx, files)
	if err != nil {
		return nil, err
	}
	eng := loaded.Engine
	if err := eng.Lock(ctx); err != nil {
		eng.Close()
		return nil, err
	}
	return eng, nil
}

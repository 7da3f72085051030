package analyze

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// ArtifactCheck is one artifact of a replayed analysis next to the
// original's. A report is identical when it is once the links to its own
// charts (which name its request's folder) name the original's.
type ArtifactCheck struct {
	Name         string `json:"name"` // artifacts/<kind>/<id>/NAME
	ArtifactType string `json:"artifact_type"`
	Original     string `json:"original_hash"`
	Replayed     string `json:"replayed_hash"` // "" when the replay did not produce it
	Identical    bool   `json:"identical"`
}

// Replay runs the stored plan of original again, over the same sources,
// as a new request (its own id, log entries and artifacts), and compares
// each artifact's SHA-256 with the original's: analyses are reproducible
// when the data has not changed, and a changed source shows.
func (a *Analyzer) Replay(ctx context.Context, original *analysis.Result) (*analysis.Result, []ArtifactCheck, error) {
	if original.Request == nil || original.Plan == nil {
		return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "analysis %s has no stored request and plan to replay", original.RequestID)
	}
	req := *original.Request
	req.RequestID, req.Timestamp, req.Status = "", "", ""
	req.DataSources = append([]analysis.DataSource(nil), original.Request.DataSources...)
	for i := range req.DataSources {
		req.DataSources[i].SchemaFingerprint = ""
	}
	plan, err := clonePlan(original.Plan)
	if err != nil {
		return nil, nil, err
	}
	replayer := *a
	replayer.Planner = func(context.Context, *analysis.Request, []analysis.SourceTable) (*analysis.Plan, error) {
		return plan, nil
	}
	replayer.planner = "replay"
	res, err := replayer.Run(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	res.ReplayOf = original.RequestID
	var checks []ArtifactCheck
	now := map[string]analysis.Artifact{}
	for _, art := range res.Artifacts {
		now[art.ArtifactType+"/"+path.Base(art.ContentRef)] = art
	}
	for _, art := range original.Artifacts {
		key := art.ArtifactType + "/" + path.Base(art.ContentRef)
		c := ArtifactCheck{Name: path.Base(art.ContentRef), ArtifactType: art.ArtifactType, Original: art.ContentHash}
		if r, ok := now[key]; ok {
			c.Replayed = r.ContentHash
			c.Identical = r.ContentHash == art.ContentHash
			if !c.Identical && art.ArtifactType == analysis.ArtifactReport {
				// The report links its charts by its request's folder:
				// compare it with the replay's id put back.
				if body, err := os.ReadFile(r.ContentRef); err == nil {
					c.Identical = quarry.SHA256Hex(bytes.ReplaceAll(body, []byte(res.RequestID), []byte(original.RequestID))) == art.ContentHash
				}
			}
		}
		checks = append(checks, c)
	}
	if err := SaveRecord(a.Store, a.Audit, res.RequestID, res); err != nil {
		return res, checks, quarry.StorageError(err)
	}
	return res, checks, nil
}

// copyPlan is a deep copy of p, for a listener that may change it.
func copyPlan(p *analysis.Plan) *analysis.Plan {
	raw, _ := json.Marshal(p)
	var c analysis.Plan
	json.Unmarshal(raw, &c)
	return &c
}

// clonePlan copies a stored plan with its steps pending again.
func clonePlan(p *analysis.Plan) (*analysis.Plan, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var c analysis.Plan
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	c.PlanID, c.RequestID, c.CreatedAt, c.Status = "", "", "", analysis.PlanDraft
	for i := range c.Subtasks {
		c.Subtasks[i].Status = analysis.TaskPending
	}
	return &c, nil
}

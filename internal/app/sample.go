package app

import (
	"bytes"
	"context"
	"fmt"

	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// SeedSample runs a sample scenario through the manager, exactly as a user
// would through the API: create a session, upload the files with their
// descriptions, start the investigation. It returns the session ID at
// once; the investigation runs in the background.
func (a *App) SeedSample(ctx context.Context, scenario string) (string, error) {
	s, ok := sampledata.Get(scenario)
	if !ok {
		return "", fmt.Errorf("unknown sample scenario %q", scenario)
	}
	sess, err := a.Investigations.Create(ctx, "")
	if err != nil {
		return "", err
	}
	for _, f := range s.Files {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			return "", err
		}
		if _, err := a.Investigations.AddFile(ctx, sess.SessionID, f.Name, f.Description, &buf); err != nil {
			return "", err
		}
	}
	c := investigation.Context{MetricSQL: s.MetricSQL, BaselinePeriod: s.Baseline, ComparisonPeriod: s.Comparison,
		BusinessContext: s.Context, InvestigationPrompt: s.Prompt}
	if err := a.Investigations.Investigate(ctx, sess.SessionID, c); err != nil {
		return "", err
	}
	return sess.SessionID, nil
}

// HasCompleted reports whether any session has a finished investigation.
func (a *App) HasCompleted(ctx context.Context) (bool, error) {
	all, err := a.Investigations.Sessions(ctx)
	if err != nil {
		return false, err
	}
	for _, s := range all {
		if s.Status == investigation.StatusCompleted {
			return true, nil
		}
	}
	return false, nil
}

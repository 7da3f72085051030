package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry/internal/sampledata"
	"github.com/quarry-dev/quarry/investigation"
)

// scenarioScore is how investigations of the sample scenarios did, where
// the two periods are noisy and the whole population may drift: the
// setting the root-cause benchmarks do not measure.
type scenarioScore struct {
	// Planted counts the planted segment causes (volume and rate) of the
	// scenarios; Found those that ended as an explanation of that segment.
	Planted int `json:"planted"`
	Found   int `json:"found"`
	// FalseAlarms counts the segment explanations of the scenario planted
	// with no cause at all (steady).
	FalseAlarms int      `json:"false_alarms"`
	Missed      []string `json:"missed,omitempty"`
}

// benchScenarios investigates every sample scenario once, in a throwaway
// data dir, and scores the planted causes the investigations found.
func benchScenarios(ctx context.Context, stderr io.Writer) (*scenarioScore, error) {
	dir, err := os.MkdirTemp("", "quarry-bench-scenarios-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	score := &scenarioScore{}
	for _, s := range sampledata.Scenarios() {
		res, err := investigateSample(ctx, dir, s)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		got := map[string]bool{}
		segments := 0
		for _, e := range res.Explanations {
			if len(e.Segment) > 0 && e.Kind != investigation.KindDataQuality {
				got[segmentKey(e.Segment)] = true
				segments++
			}
		}
		if len(s.Planted) == 0 {
			score.FalseAlarms += segments
		}
		for _, c := range s.Planted {
			if c.Kind != investigation.KindVolume && c.Kind != investigation.KindRate {
				continue
			}
			score.Planted++
			qualified := make(investigation.Segment, len(c.Segment))
			for i, v := range c.Segment {
				qualified[i] = investigation.SegmentValue{Column: c.Table + "." + v.Column, Value: v.Value}
			}
			if got[segmentKey(c.Segment)] || got[segmentKey(qualified)] {
				score.Found++
			} else {
				score.Missed = append(score.Missed, s.Name+": "+segmentKey(c.Segment))
			}
		}
		fmt.Fprintf(stderr, "scenario %s: %s, %d segment explanations\n", s.Name, res.Status, segments)
	}
	return score, nil
}

// investigateSample runs one scenario in dataDir as quarry investigate
// runs it.
func investigateSample(ctx context.Context, dataDir string, s sampledata.Scenario) (*investigation.Result, error) {
	files, err := os.MkdirTemp(dataDir, s.Name+"-")
	if err != nil {
		return nil, err
	}
	paths, err := sampledata.WriteScenario(files, s)
	if err != nil {
		return nil, err
	}
	inv := investigationRun{dataDir: dataDir, maxMB: 50, stderr: io.Discard}
	for i, p := range paths {
		inv.files = append(inv.files, fileArg{path: p, description: s.Files[i].Description})
	}
	inv.context.MetricSQL = s.MetricSQL
	inv.context.BaselinePeriod, inv.context.ComparisonPeriod = s.Baseline, s.Comparison
	inv.context.BusinessContext, inv.context.InvestigationPrompt = s.Context, s.Prompt
	return inv.run(ctx)
}

// segmentKey renders a segment independently of its order.
func segmentKey(s investigation.Segment) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = v.Column + "=" + v.Value
	}
	sort.Strings(parts)
	return strings.Join(parts, " AND ")
}

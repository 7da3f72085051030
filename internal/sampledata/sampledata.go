package sampledata

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// Scenario is one sample investigation: the files to upload, the metric,
// the two periods, what the user would type, and the causes planted in the
// data with their measured sizes.
type Scenario struct {
	Name       string
	Files      []File
	MetricSQL  string
	Baseline   quarry.DateRange
	Comparison quarry.DateRange
	// Context is the business background a user would give; Prompt is the
	// question they would ask.
	Context, Prompt string
	// Planted lists the causes built into the data, largest first.
	Planted []Cause
	// ExpectOutcome is the investigation outcome a correct analyst reaches:
	// quarry.OutcomeCompleted or quarry.OutcomeNoFindings.
	ExpectOutcome string
}

// File is one CSV file of a scenario. Write streams its bytes, which are the
// same on every call.
type File struct {
	Name        string // e.g. "orders.csv"
	Description string
	Write       func(w io.Writer) error
}

// Cause is one planted reason for a scenario's change.
type Cause struct {
	// Kind is quarry.KindVolume, KindRate, KindMix, KindDataQuality or
	// KindCalendar.
	Kind string
	// Segment is where the cause acts, e.g. platform=android AND
	// app_version=5.2; empty for a cause that acts on every row.
	Segment investigation.Segment
	// Table is the table whose column holds the segment, which for a
	// customer attribute is not the metric's table.
	Table string
	Note  string
	// ApproxShare is the measured share of the metric's change that the
	// cause accounts for, signed: positive when it moves the metric the way
	// the metric moved. testdata/README.md says how each share is measured.
	ApproxShare float64
}

// Scenarios returns every sample scenario. Each call builds fresh values,
// so callers may modify what they get.
func Scenarios() []Scenario {
	return []Scenario{
		revenueDrop(),
		checkoutConversion(),
		steady(),
		brokenPipeline(),
		weekdayMix(),
	}
}

// Get returns the scenario called name.
func Get(name string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// WriteScenario writes s's files into dir, creating dir if needed, and
// returns the paths written in the order of s.Files.
func WriteScenario(dir string, s Scenario) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sample data directory: %w", err)
	}
	paths := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		path := filepath.Join(dir, f.Name)
		if err := writeFile(path, f.Write); err != nil {
			return paths, fmt.Errorf("write sample file %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

func writeFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	if err := write(bw); err != nil {
		out.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// seg builds a segment from column, value pairs.
func seg(pairs ...string) investigation.Segment {
	s := make(investigation.Segment, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		s = append(s, investigation.SegmentValue{Column: pairs[i], Value: pairs[i+1]})
	}
	return s
}

// Package investigate runs the metric drill-down investigation as the
// specification's graph:
//
//	load -> schema inference -> plan -> hypotheses -> memory loop
//	     -> explanations -> memory document -> report
//
// Every step has a deterministic implementation here (statistics, SQL and
// the drill package's math), so an investigation works offline; every SQL
// statement goes through the audit log; every artifact is written in the
// specification's session layout as soon as it exists, so a run that fails
// half-way leaves what it did intact.
package investigate

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/llm"
)

// Investigator runs investigations. Its fields are its dependencies.
type Investigator struct {
	Engine   Engine
	Out      Artifacts
	Audit    Auditor
	Progress func(investigation.Event) // optional
	Now      func() time.Time
	// MaxDims caps how many dimensions the segment search slices by.
	MaxDims int
	// Model, when set, takes part in every step: it reads the schema,
	// proposes hypotheses, decides each iteration and writes its SQL,
	// condenses findings and writes the report's summary. The offline
	// analyst still measures everything and alone decides statuses and
	// ranking. Nil runs offline.
	Model llm.Model
	// Code, when set, lets the model send Python to an external sandbox.
	Code CodeRunner
}

// Input is what one investigation is about.
type Input struct {
	SessionID string
	Files     []*investigation.UploadedFile
	Context   investigation.Context
}

// Run performs the whole investigation and returns its result. Bad input
// comes back as a *quarry.Error with the specification's code; the caller
// marks the session failed.
func (inv *Investigator) Run(ctx context.Context, in Input) (*investigation.Result, error) {
	if inv.Now == nil {
		inv.Now = time.Now
	}
	if inv.MaxDims <= 0 {
		inv.MaxDims = 8
	}
	if err := in.Context.Validate(); err != nil {
		return nil, err
	}
	if len(in.Files) == 0 {
		return nil, quarry.Errorf(quarry.ECodeNoFilesUploaded, "upload at least one CSV file before starting an investigation")
	}
	r := &run{inv: inv, in: in, rec: &recorder{eng: inv.Engine, audit: inv.Audit}}
	if inv.Model != nil {
		r.ai = &analyst{model: inv.Model}
	}
	if _, err := inv.Audit.Append(quarry.EventRequestSubmitted, "system", map[string]any{
		"session_id":        in.SessionID,
		"metric_sql":        in.Context.MetricSQL,
		"baseline_period":   in.Context.BaselinePeriod.String(),
		"comparison_period": in.Context.ComparisonPeriod.String(),
		"files":             len(in.Files),
	}); err != nil {
		return nil, err
	}
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"load", r.load},
		{"metric", r.parseMetric},
		{"schema", r.inferSchema},
		{"overall", r.measureOverall},
		{"plan", r.makePlan},
		{"hypotheses", r.makeHypotheses},
		{"hypotheses", r.proposeHypotheses},
		{"loop", r.memoryLoop},
		{"explain", r.explain},
		{"breakdown", r.breakdowns},
		{"summary", r.summarize},
		{"memory", r.writeMemory},
		{"report", r.writeReport},
		{"usage", r.writeUsage},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return nil, quarry.Errorf(quarry.ECodeUnavailable, "investigation cancelled during %s", s.name)
		}
		if err := s.fn(ctx); err != nil {
			return nil, err
		}
	}
	return r.result(), nil
}

// run is the state of one investigation, filled in step by step.
type run struct {
	inv *Investigator
	in  Input
	rec *recorder

	tables     map[string]*investigation.UploadedFile // table name -> file
	refs       map[string]string                      // lower-case table name -> its name in the FROM clause
	metric     *investigation.Metric
	scope      *scope
	model      investigation.DataModel
	dims       []*Dim
	allDims    []*Dim // every dimension column, before equivalents and the cap
	breakdown  []investigation.Breakdown
	overall    overallStats
	grain      grain // spacing of the data's dates, set by measureOverall
	warnings   []string
	plan       investigation.Plan
	hyps       []*investigation.Hypothesis
	ledger     investigation.FindingsLedger
	iterations []investigation.IterationLog
	stats      analysisState
	expls      []investigation.Explanation
	outcome    string
	whyNone    string
	reportPath string
	memory     *investigation.MemoryDocument
	// answer is the paragraph every surface opens with (report.Answer).
	answer string

	// With a model: its state, its reading of the schema, the files its
	// Python can open, and the report summary it wrote.
	ai        *analyst
	notes     *schemaNotes
	codeFiles []string
	summary   string
}

func (r *run) now() time.Time { return r.inv.Now().UTC() }

func (r *run) progress(e investigation.Event) {
	e.Time = r.now()
	if r.inv.Progress != nil {
		r.inv.Progress(e)
	}
}

// artifact writes v as JSON at rel and records it, with the SHA-256 of
// the bytes on disk, so that quarry audit verify notices an edit.
func (r *run) artifact(rel string, v any) error {
	if err := r.inv.Out.WriteJSON(rel, v); err != nil {
		return err
	}
	return r.recordArtifact(rel, "")
}

// writeFile writes data at rel and records it like artifact.
func (r *run) writeFile(rel string, data []byte) error {
	if err := r.inv.Out.WriteFile(rel, data); err != nil {
		return err
	}
	return r.recordArtifact(rel, "")
}

// recordArtifact appends the artifact_generated entry of the file at rel
// (relative to the session directory) with its SHA-256. kind defaults to
// the file's extension.
func (r *run) recordArtifact(rel, kind string) error {
	if kind == "" {
		kind = path.Ext(rel)
	}
	_, err := r.inv.Audit.Append(quarry.EventArtifactGenerated, "system", map[string]any{
		"path": rel, "kind": kind, "sha256": fileHash(filepath.Join(r.inv.Out.Dir(), filepath.FromSlash(rel))),
	})
	return err
}

func (r *run) result() *investigation.Result {
	expls := r.expls
	if expls == nil {
		expls = []investigation.Explanation{}
	}
	res := &investigation.Result{
		SessionID:    r.in.SessionID,
		Status:       r.outcome,
		Overall:      r.overall.change,
		Answer:       r.answer,
		Explanations: expls,
		Numbers:      r.numbers(),
		ReportPath:   r.reportPath,
		Warnings:     r.warnings,
		Columns:      r.model.Columns,
		Breakdowns:   r.breakdown,
		Memory:       r.memory,
	}
	if r.ai != nil {
		res.Model = r.ai.model.Name()
		u := r.ai.usage()
		res.Tokens = &u
	}
	return res
}

// hyp returns the hypothesis with the given id.
func (r *run) hyp(id string) *investigation.Hypothesis {
	for _, h := range r.hyps {
		if h.HypothesisID == id {
			return h
		}
	}
	panic(fmt.Sprintf("investigate: no hypothesis %s", id))
}

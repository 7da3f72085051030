package analyze

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
	"github.com/quarry-dev/quarry/llm"
)

// Analyzer runs analyses. Its fields are its dependencies; NewWorkspace,
// TableName, Audit and Store are required.
type Analyzer struct {
	// NewWorkspace opens an empty workspace; it may wait (until ctx ends)
	// for a place in the process's engine budget.
	NewWorkspace func(ctx context.Context) (Workspace, error)
	// OpenSource opens database sources; nil refuses them.
	OpenSource OpenSource
	// TableName names the table of a file source that has no name
	// (duckdb.TableName).
	TableName func(fileName string, taken map[string]bool) string
	Audit     Auditor
	Store     Store
	Now       func() time.Time
	// Progress, optional, hears the analysis's events as they happen,
	// one call at a time, though steps run at once.
	Progress func(analysis.Event)
	// Planner, when set, writes the plan instead of the offline planner;
	// its plan is validated by the same rules, and the offline planner
	// takes over when it fails.
	Planner func(ctx context.Context, req *analysis.Request, tables []analysis.SourceTable) (*analysis.Plan, error)
	// Model, when set (and Planner is not), writes the plans
	// (ModelPlanner); the offline planner takes over when it fails.
	Model llm.Model
	// Recipes, when set, keeps completed analyses as recipes and reuses
	// them for requests on the same schema.
	Recipes analysis.RecipeStore
	// Embedder, when set, embeds recipes' intent templates with the model
	// named EmbeddingModel; without it, or when it fails, recipes are
	// compared by their words (analysis.LexicalEmbedding).
	Embedder       llm.Embedder
	EmbeddingModel string
	// planner names where Planner's plans come from ("model" unless a
	// replay or a recipe says otherwise).
	planner string
}

// Actors in the audit log.
const (
	actorSystem  = "system"
	actorPlanner = "planner"
	actorActor   = "actor"
	actorSafety  = "safety"
)

// run is the state of one analysis.
type run struct {
	a      *Analyzer
	req    *analysis.Request
	ws     Workspace
	dbs    map[string]analysis.Source // database sources by name
	tables []analysis.SourceTable
	keys   []analysis.Key // joins between the file sources' tables
	plan   *analysis.Plan
	res    *analysis.Result

	mu      sync.Mutex // guards res and task statuses while steps run at once
	outputs map[string]*output
	pmu     sync.Mutex // makes the calls of Analyzer.Progress one at a time

	named  []string         // the deliverables the request named, if any
	intent *intent.Intent   // the request as the offline parser read it (nil if it could not)
	how    string           // where the plan came from: offline, model, recipe, replay
	errs   map[string]error // the error each failed step ended with (guarded by mu)
	// stage is what the run is doing and stoppedIn what it was doing when
	// its context ended, for the message of a failure (guarded by mu).
	stage, stoppedIn string
}

// output is what a succeeded step left for the steps after it.
type output struct {
	table   string // workspace table holding its rows ("" for charts)
	columns []quarry.Column
	rows    int64
	data    any     // the observation's data
	cut     *rowCut // set when the rows are not all the query's
}

// Run performs the analysis of req and returns its result. A request that
// fails validation is an error and nothing is written. After that every
// end is recorded: a source that cannot be loaded, a request the planner
// cannot read, a step that fails or the timeout at any stage leave the
// result (completed, partial_success or failed, with its error code)
// saved with its artifacts and audit entries.
func (a *Analyzer) Run(ctx context.Context, req analysis.Request) (*analysis.Result, error) {
	if a.Now == nil {
		a.Now = time.Now
	}
	// Deliverables the user named must all be produced; the defaults are
	// produced where the plan has them.
	named := slices.Clone(req.Deliverables)
	req.Normalize(a.Now())
	if req.RequestID == "" {
		req.RequestID = quarry.NewID()
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(req.Constraints.TimeoutSeconds)*time.Second)
	defer cancel()
	r := &run{a: a, req: &req, named: named, dbs: map[string]analysis.Source{}, outputs: map[string]*output{}}
	defer r.close()
	r.res = &analysis.Result{RequestID: req.RequestID, Request: r.req.Redacted(), Observations: []analysis.Observation{}, Artifacts: []analysis.Artifact{}}
	err := r.prepare(ctx)
	if err == nil {
		err = r.execute(ctx)
	}
	err = r.stopped(ctx, err)
	if err == nil && ctx.Err() != nil && r.req.Status != analysis.StatusCompleted {
		// The steps the timeout or a budget stopped were recorded; the
		// result names the reason as its error too.
		err = r.stopped(ctx, ctx.Err())
	}
	if err == nil && r.req.Status == analysis.StatusFailed {
		err = r.stepsFailed()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && r.req.Status != analysis.StatusCompleted {
		r.res.Undelivered = append(r.res.Undelivered, fmt.Sprintf("the analysis stopped at its %d s timeout", req.Constraints.TimeoutSeconds))
	}
	if err != nil {
		r.res.Error = quarry.NewErrorInfo(err)
		// Steps that succeeded before a later failure keep their
		// results: partial_success, as settle decided.
		if r.req.Status != analysis.StatusPartialSuccess {
			r.req.Status = analysis.StatusFailed
			if r.plan != nil && r.plan.Status != analysis.PlanCompleted {
				r.plan.Status = analysis.PlanAbandoned
			}
			r.progress(analysis.Event{Step: "failed", Message: quarry.ErrorMessage(err)})
		}
	}
	// Only now is the status final: a completed analysis (and nothing
	// else) is kept as a recipe.
	if err == nil {
		r.remember(ctx, r.intent, r.how)
	}
	r.res.Status = r.req.Status
	r.res.Request = r.req.Redacted() // passwords are never recorded
	if serr := SaveRecord(a.Store, a.Audit, req.RequestID, r.res); serr != nil && err == nil {
		return r.res, quarry.StorageError(serr)
	}
	return r.res, nil
}

// Stages of a run, for the message of a failure.
const (
	stageLoading    = "loading the sources"
	stagePlanning   = "planning"
	stageExecuting  = "running the steps"
	stageDelivering = "writing the deliverables"
)

// prepare loads the sources, logs the request and makes the validated
// plan. A source that cannot be loaded (or the timeout while loading) is
// logged in the request's entry, with the tables loaded so far and the
// error, so that the log of every recorded analysis begins with its
// request.
func (r *run) prepare(ctx context.Context) error {
	r.setStage(ctx, stageLoading)
	lerr := r.stopped(ctx, r.openSources(ctx))
	data := map[string]any{"request": r.req.Redacted(), "tables": r.tables}
	if lerr != nil {
		data["stage"], data["error"] = "loading", quarry.NewErrorInfo(lerr)
	}
	if _, err := r.audit(quarry.EventRequestSubmitted, actorSystem, data); err != nil && lerr == nil {
		return err
	}
	if lerr != nil {
		return lerr
	}
	// A request the planner cannot read is recorded as failed with the
	// planner's error; the log says so, and no artifact is written.
	r.setStage(ctx, stagePlanning)
	if err := r.planAndValidate(ctx); err != nil {
		return err
	}
	// A plan made after the timeout (the offline planner taking over
	// from a model that did not answer in time) is recorded, not run.
	return ctx.Err()
}

// deliverGrace is how long the deliverables of the steps that finished
// may still take after the analysis's timeout.
const deliverGrace = 10 * time.Second

// stopped is err as the user reads it. A run its caller ended for
// exceeding a budget (the memory watchdog's RESOURCE_LIMIT) fails with
// that reason, whatever its steps made of the cancellation; the timeout is
// RESOURCE_LIMIT naming the stage it stopped; any other error that is not
// Quarry's (an engine's words, which may hold server paths or SQL) is an
// internal error naming the stage.
func (r *run) stopped(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var limit *quarry.Error
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &limit) && limit.Code == quarry.ECodeResourceLimit {
		return limit
	}
	code := quarry.ErrorCode(err)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && (code == quarry.ECodeInternal || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		return r.timeout()
	}
	if code == quarry.ECodeInternal {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err // already in words
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		return quarry.Errorf(quarry.ECodeInternal, "an internal error stopped the analysis while %s", r.stage)
	}
	return err
}

// timeout is the error of a run that reached its timeout, naming the
// stage it was in then.
func (r *run) timeout() error {
	r.mu.Lock()
	stage := cmp.Or(r.stoppedIn, r.stage)
	r.mu.Unlock()
	return quarry.Errorf(quarry.ECodeResourceLimit, "the analysis stopped at its %d s timeout while %s", r.req.Constraints.TimeoutSeconds, stage).
		WithHint("allow more time (timeout up to 180 s), or ask for less")
}

// setStage moves the run to stage s, keeping the stage it was in when
// ctx ended.
func (r *run) setStage(ctx context.Context, s string) {
	r.mu.Lock()
	if ctx.Err() != nil && r.stoppedIn == "" {
		r.stoppedIn = r.stage
	}
	r.stage = s
	r.mu.Unlock()
}

// graceContext is the context the deliverables are written in: ctx's
// deadline extended by grace, so that the results of the steps that
// finished before the timeout are still delivered, and ended with ctx when
// ctx ends for any other reason (the memory watchdog, the server's stop).
func graceContext(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	g, cancelCause := context.WithCancelCause(context.WithoutCancel(ctx))
	g, cancel := context.WithDeadline(g, dl.Add(grace))
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancelCause(context.Cause(ctx))
		}
	})
	return g, func() { stop(); cancel(); cancelCause(nil) }
}

func (r *run) close() {
	if r.ws != nil {
		r.ws.Close()
	}
	for _, s := range r.dbs {
		s.Close()
	}
}

func (r *run) now() string { return r.a.Now().UTC().Format(time.RFC3339Nano) }

func (r *run) progress(e analysis.Event) {
	if r.a.Progress != nil {
		r.pmu.Lock()
		defer r.pmu.Unlock()
		e.Time = r.a.Now()
		r.a.Progress(e)
	}
}

func (r *run) audit(event, actor string, data map[string]any) (quarry.AuditEntry, error) {
	return r.a.Audit.AppendFor(r.req.RequestID, event, actor, data)
}

// openSources loads the file sources into a fresh workspace and opens the
// database sources, describing every table and fingerprinting each
// source's schema.
func (r *run) openSources(ctx context.Context) error {
	ws, err := r.a.NewWorkspace(ctx)
	if err != nil {
		return err
	}
	r.ws = ws
	taken := map[string]bool{}
	for _, ds := range r.req.DataSources {
		if ds.Name != "" {
			taken[strings.ToLower(ds.Name)] = true
		}
	}
	for i := range r.req.DataSources {
		ds := &r.req.DataSources[i]
		if ds.Type == analysis.SourceSQL {
			if err := r.openDatabase(ctx, ds); err != nil {
				return err
			}
			continue
		}
		if ds.Name == "" {
			ds.Name = r.a.TableName(filepath.Base(ds.FilePath), taken)
			taken[ds.Name] = true
		}
		if _, _, err := ws.LoadFile(ctx, strings.ToLower(ds.Name), ds.FilePath); err != nil {
			return err
		}
		t, err := describe(ctx, ws, strings.ToLower(ds.Name))
		if err != nil {
			return err
		}
		ds.SchemaFingerprint = analysis.Fingerprint([]analysis.SourceTable{t})
		if base := r.a.TableName(filepath.Base(ds.FilePath), nil); !strings.EqualFold(base, ds.Name) {
			t.Aliases = append(t.Aliases, base)
		}
		r.tables = append(r.tables, t)
	}
	if err := r.joinKeys(ctx); err != nil {
		return err
	}
	r.dropBlockedValues()
	r.dropForbiddenValues()
	return ws.Lock(ctx)
}

// dropBlockedValues forgets the values of text columns that hold personal
// data, so that neither the plan nor the log repeats them.
func (r *run) dropBlockedValues() {
	var res []*regexp.Regexp
	for _, p := range r.blockedPatterns() {
		if re, err := regexp.Compile(p); err == nil {
			res = append(res, re)
		}
	}
	for i := range r.tables {
		for j := range r.tables[i].Columns {
			c := &r.tables[i].Columns[j]
			if slices.ContainsFunc(c.Values, func(v string) bool {
				return slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(v) })
			}) {
				c.Values = nil
			}
		}
	}
}

func (r *run) openDatabase(ctx context.Context, ds *analysis.DataSource) error {
	if r.a.OpenSource == nil {
		return quarry.Errorf(quarry.ECodeInvalid, "database sources are not supported here")
	}
	src, err := r.a.OpenSource(ctx, *ds)
	if err != nil {
		return err
	}
	if ds.Name == "" {
		ds.Name = fmt.Sprintf("db%d", len(r.dbs)+1)
	}
	r.dbs[ds.Name] = src
	tables, err := src.Tables(ctx)
	if err != nil {
		return err
	}
	ds.SchemaFingerprint = analysis.Fingerprint(tables)
	for _, t := range tables {
		t.Source = ds.Name
		r.tables = append(r.tables, t)
	}
	return nil
}

// planAndValidate makes the plan and validates it, logging it either way.
func (r *run) planAndValidate(ctx context.Context) error {
	r.req.Status = analysis.StatusPlanning
	plan, how, err := r.makePlan(ctx)
	r.how = how
	if err != nil {
		r.audit(quarry.EventPlanCreated, actorPlanner, map[string]any{"planner": how, "valid": false, "error": quarry.NewErrorInfo(err)})
		return err
	}
	plan.PlanID, plan.RequestID, plan.CreatedAt = quarry.NewID(), r.req.RequestID, r.now()
	r.plan = plan
	r.res.Plan = plan
	verr := plan.Validate(analysis.Tools, r.req.Constraints.TimeoutSeconds)
	if _, err := r.audit(quarry.EventPlanCreated, actorPlanner, map[string]any{"plan": plan, "planner": how, "valid": verr == nil, "recipe_id": r.res.RecipeID, "recipe_note": r.res.RecipeNote}); err != nil {
		return err
	}
	if verr != nil {
		plan.Status = analysis.PlanAbandoned
		return verr
	}
	r.progress(analysis.Event{Step: "plan", Message: fmt.Sprintf("%d steps (%s planner): %s", len(plan.Subtasks), how, plan.Reasoning), Plan: copyPlan(plan)})
	return nil
}

// execute runs the validated plan level by level, then writes the
// deliverables and settles the status. The deliverables of the steps that
// succeeded are written even after the timeout (within deliverGrace), and
// a failure to write them leaves the steps' results: the run is then
// partial_success when a step succeeded, with the error.
func (r *run) execute(ctx context.Context) error {
	plan := r.plan
	r.setStage(ctx, stageExecuting)
	r.req.Status = analysis.StatusExecuting
	plan.Status = analysis.PlanExecuting
	for i := range plan.Subtasks {
		plan.Subtasks[i].Status = analysis.TaskPending
	}
	for _, level := range plan.Levels() {
		var wg sync.WaitGroup
		sem := make(chan struct{}, 2)
		for _, id := range level {
			t := plan.Task(id)
			if r.blocked(t) {
				r.setStatus(t, analysis.TaskSkipped)
				continue
			}
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				r.runTask(ctx, t)
			})
		}
		wg.Wait()
	}
	r.setStage(ctx, stageDelivering)
	dctx, cancel := graceContext(ctx, deliverGrace)
	defer cancel()
	err := r.stopped(dctx, r.deliver(dctx))
	if err != nil {
		r.res.Undelivered = append(r.res.Undelivered, "deliverables: "+quarry.ErrorMessage(err))
	}
	r.settle()
	return err
}

// makePlan asks the configured planner, then the recipe memory, then the
// offline planner.
func (r *run) makePlan(ctx context.Context) (*analysis.Plan, string, error) {
	in, perr := parseIntent(r.req.Intent, r.tables, r.a.Now())
	r.intent = in
	planner := r.a.Planner
	if planner == nil && r.a.Model != nil {
		planner = ModelPlanner(r.a.Model, r.a.Audit)
	}
	req := r.req
	// A planner a caller set (a replay's stored plan) answers for its
	// plan; the offline planner and a model answer only what was read.
	if r.a.Planner == nil {
		// Words that would change the answer and could not be applied:
		// a model, when there is one, may restate them in the data's
		// terms, and the restatement is read by the same parser; what is
		// still not understood is not answered, by any planner.
		if unclear(in, perr) && r.a.Model != nil {
			if text, rin, rerr := r.resolve(ctx, in, perr); text != "" {
				in, perr = rin, rerr
				r.intent = in
				restated := *r.req
				restated.Intent = text
				req = &restated
			}
		}
		if unclear(in, perr) {
			if in != nil && len(in.Unparsed) > 0 {
				r.res.RecipeNote = "recipes not consulted: the request has words not understood (" + strings.Join(in.Unparsed, ", ") + ")"
			}
			if perr != nil {
				if in != nil {
					r.res.Clarification, _ = clarify(in)
				}
				return nil, "offline", perr
			}
			c, err := clarify(in)
			r.res.Clarification = c
			return nil, "offline", err
		}
	}
	// A recipe of the request's shape, filled with its slots, saves the
	// planning; a replay runs its stored plan and nothing else.
	if perr == nil && r.a.planner != "replay" {
		p, note := r.fromRecipe(ctx, in, planner != nil)
		r.res.RecipeNote = note
		if p != nil {
			if verr := p.Validate(analysis.Tools, r.req.Constraints.TimeoutSeconds); verr == nil {
				return p, "recipe", nil
			} else {
				r.res.RecipeID = ""
				r.res.RecipeNote += "; its plan did not validate: " + quarry.ErrorMessage(verr)
			}
		}
	}
	if planner != nil {
		how := r.a.planner
		if how == "" {
			how = "model"
		}
		p, err := planner(ctx, req, r.tables)
		if err == nil {
			if verr := p.Validate(analysis.Tools, r.req.Constraints.TimeoutSeconds); verr == nil {
				return p, how, nil
			} else {
				err = verr
			}
		}
		if how == "replay" {
			return nil, how, err // a replay runs the stored plan or nothing
		}
		r.progress(analysis.Event{Step: "plan", Message: "the " + how + "'s plan was not usable (" + quarry.ErrorMessage(err) + "); planning offline"})
	}
	if perr != nil {
		if quarry.ErrorCode(perr) == quarry.ECodeNeedsClarification && in != nil {
			r.res.Clarification, _ = clarify(in)
		}
		return nil, "offline", perr
	}
	if c, err := clarify(in); err != nil {
		r.res.Clarification = c
		return nil, "offline", err
	}
	p, err := planFor(req, in, r.tables, slices.Contains(r.named, analysis.DeliverCharts))
	var na *notApplied
	if errors.As(err, &na) {
		r.res.Clarification = &analysis.Clarification{Understood: slices.Clone(in.Understood), NotUnderstood: na.words}
	}
	return p, "offline", err
}

// blocked reports whether a dependency of t did not succeed.
func (r *run) blocked(t *analysis.Subtask) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range t.Dependencies {
		if dt := r.plan.Task(d); dt == nil || dt.Status != analysis.TaskSucceeded {
			return true
		}
	}
	return false
}

func (r *run) setStatus(t *analysis.Subtask, status string) {
	r.mu.Lock()
	t.Status = status
	r.mu.Unlock()
	r.progress(analysis.Event{Step: "task", TaskID: t.TaskID, Status: status, Message: t.Description})
}

// settle decides the request's status: completed when every step
// succeeded over whole rows and every requested deliverable exists,
// partial_success when some did (or rows were cut at the row limit),
// failed when nothing did.
func (r *run) settle() {
	succeeded := 0
	for _, t := range r.plan.Subtasks {
		if t.Status == analysis.TaskSucceeded {
			succeeded++
		} else {
			r.res.Undelivered = append(r.res.Undelivered, fmt.Sprintf("step %s (%s) %s", t.TaskID, t.Description, t.Status))
			continue
		}
		// Rows cut at the row limit, and what was computed over them,
		// are not the whole data's: never completed.
		if c := r.outputs[t.TaskID].cut; c != nil && (c.From == "" || t.Deliverable != "") {
			what := fmt.Sprintf("%s rows kept, cut at the row limit of %s", c.of(), formatNumber(float64(c.Limit)))
			if c.From != "" {
				what = fmt.Sprintf("computed over the first %s rows of step %s, cut at the row limit of %s", c.of(), c.From, formatNumber(float64(c.Limit)))
			}
			r.res.Undelivered = append(r.res.Undelivered, fmt.Sprintf("step %s (%s): %s", t.TaskID, t.Description, what))
		}
	}
	have := map[string]bool{}
	for _, a := range r.res.Artifacts {
		have[a.ArtifactType] = true
	}
	kinds := map[string]string{analysis.DeliverTables: analysis.ArtifactTable, analysis.DeliverCharts: analysis.ArtifactChart,
		analysis.DeliverReports: analysis.ArtifactReport, analysis.DeliverSummary: analysis.ArtifactSummary}
	for _, d := range r.named {
		if !have[kinds[d]] && !slices.ContainsFunc(r.res.Undelivered, func(s string) bool { return strings.HasPrefix(s, d+":") }) {
			r.res.Undelivered = append(r.res.Undelivered, d+": no step produced one")
		}
	}
	switch {
	case succeeded == 0:
		r.req.Status = analysis.StatusFailed
		r.plan.Status = analysis.PlanAbandoned
	case len(r.res.Undelivered) > 0:
		r.req.Status = analysis.StatusPartialSuccess
		r.plan.Status = analysis.PlanCompleted
	default:
		r.req.Status = analysis.StatusCompleted
		r.plan.Status = analysis.PlanCompleted
	}
	r.progress(analysis.Event{Step: "done", Status: r.req.Status, Message: fmt.Sprintf("%s: %d of %d steps, %d artifacts", r.req.Status, succeeded, len(r.plan.Subtasks), len(r.res.Artifacts))})
}

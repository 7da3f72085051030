package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// period is an inclusive range of days.
type period struct {
	Start string `json:"start" jsonschema:"first day, YYYY-MM-DD"`
	End   string `json:"end" jsonschema:"last day, YYYY-MM-DD, inclusive"`
}

func newPeriod(r quarry.DateRange) period {
	return period{Start: r.Start.String(), End: r.End.String()}
}

// dateRange parses p; name says which period in errors.
func (p period) dateRange(name string) (quarry.DateRange, error) {
	start, err := quarry.ParseDate(p.Start)
	if err != nil {
		return quarry.DateRange{}, quarry.Errorf(quarry.ECodeInvalidDateRange, "the %s period's start %q is not a date (YYYY-MM-DD)", name, p.Start)
	}
	end, err := quarry.ParseDate(p.End)
	if err != nil {
		return quarry.DateRange{}, quarry.Errorf(quarry.ECodeInvalidDateRange, "the %s period's end %q is not a date (YYYY-MM-DD)", name, p.End)
	}
	return quarry.DateRange{Start: start, End: end}, nil
}

type startInvestigationIn struct {
	SessionID        string   `json:"session_id" jsonschema:"the session's ID"`
	MetricSQL        string   `json:"metric_sql" jsonschema:"the metric as one SELECT of one aggregate over the tables: SUM(x), COUNT(*), COUNT(DISTINCT x), AVG(x) or a ratio such as SUM(converted)*1.0/COUNT(*); JOIN and WHERE allowed; no GROUP BY and no date filter (the periods set the time)"`
	BaselinePeriod   period   `json:"baseline_period" jsonschema:"the period before the change, as the reference"`
	ComparisonPeriod period   `json:"comparison_period" jsonschema:"the period in which the metric moved; usually as long as the baseline and right after it"`
	BusinessContext  string   `json:"business_context,omitempty" jsonschema:"what the business is and anything known about the period (releases, campaigns, outages)"`
	Prompt           string   `json:"prompt,omitempty" jsonschema:"the question, e.g. why did revenue fall in the second half of March?"`
	TimeColumn       string   `json:"time_column,omitempty" jsonschema:"the time column as TABLE.COLUMN when the metric's table has several date columns; inferred otherwise"`
	TimeFormat       string   `json:"time_format,omitempty" jsonschema:"how the time column's dates are written, as a strptime layout such as %d/%m/%Y, or %Y, %s, %ms for numbers; detected otherwise"`
	IgnoreColumns    []string `json:"ignore_columns,omitempty" jsonschema:"columns never to slice by or check, as COLUMN or TABLE.COLUMN; columns that restate the date (a year or month beside it) are left out without being named"`
	Wait             bool     `json:"wait,omitempty" jsonschema:"wait for the investigation to end and return its result, instead of returning at once"`
	WaitSeconds      int      `json:"wait_seconds,omitempty" jsonschema:"with wait, the longest to wait in seconds (default 600, at most 3600); the investigation goes on after it"`
}

type startInvestigationOut struct {
	SessionID string `json:"session_id"`
	Status    string `json:"status" jsonschema:"running, or with wait: completed or failed"`
	Next      string `json:"next"`
	// With wait: the compact report of a completed run, or the error of a
	// failed one.
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// explanationInfo is a ranked explanation.
type explanationInfo struct {
	Rank          int            `json:"rank"`
	Title         string         `json:"title"`
	Likelihood    string         `json:"likelihood" jsonschema:"Most Likely, Likely, Possible or Less Likely"`
	Kind          string         `json:"kind" jsonschema:"what kind of cause: volume, rate, mix, data_quality, calendar or segment"`
	Segment       string         `json:"segment" jsonschema:"the rows it concerns, e.g. platform=android AND app_version=5.2, or all rows"`
	ShareOfChange float64        `json:"share_of_change" jsonschema:"the fraction of the metric's change it accounts for"`
	Change        float64        `json:"change" jsonschema:"the signed amount of the change it accounts for, in the metric's units"`
	Headline      string         `json:"headline,omitempty" jsonschema:"the change it accounts for and its share, as the report and the command line print them"`
	PValue        *float64       `json:"p_value,omitempty"`
	Significant   bool           `json:"significant"`
	Reasoning     string         `json:"reasoning"`
	CausalStory   string         `json:"causal_story,omitempty"`
	Evidence      []evidenceInfo `json:"evidence"`
}

// evidenceInfo is one piece of evidence with the SQL that produced it.
type evidenceInfo struct {
	Description   string             `json:"description"`
	SQL           string             `json:"sql,omitempty"`
	Values        map[string]float64 `json:"values,omitempty"`
	AuditSequence int                `json:"audit_sequence,omitempty" jsonschema:"the audit log entry recording the query's result"`
}

type explanationsOut struct {
	SessionID    string            `json:"session_id"`
	Explanations []explanationInfo `json:"explanations" jsonschema:"most likely first"`
}

type reportIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID"`
	Full      bool   `json:"full,omitempty" jsonschema:"the whole report with the plan, the memory loop and the SQL behind every number (tens of thousands of characters); by default a compact summary"`
}

type reportOut struct {
	SessionID   string    `json:"session_id"`
	Status      string    `json:"status" jsonschema:"completed, or no_findings when nothing explained the change"`
	GeneratedAt time.Time `json:"generated_at"`
	Full        bool      `json:"full"`
	Markdown    string    `json:"markdown"`
}

type askIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID; its investigation must have completed"`
	Question  string `json:"question" jsonschema:"a question about the investigation, its hypotheses, evidence or findings"`
}

type askOut struct {
	Answer         string   `json:"answer"`
	CitedArtifacts []string `json:"cited_artifacts" jsonschema:"the investigation artifacts the answer is drawn from, e.g. analysis/hypotheses/hyp_001.json"`
}

func (t *tools) addInvestigationTools(s *mcpsdk.Server) {
	add(s, t, &mcpsdk.Tool{
		Name: "start_investigation",
		Description: "Start investigating why a metric changed between a baseline and a comparison period, over an investigation's tables. " +
			"Quarry checks the request (metric SQL against the tables, dates, time column) and returns at once; the investigation runs in the background, " +
			"testing hypotheses with SQL, and ends with ranked explanations and a report. Poll get_investigation until status is completed or failed, " +
			"or pass wait=true to get the result in this call. The investigation goes on if the client disconnects. " +
			"An investigation runs once; to change the request, create a new one.",
		Annotations: changes("Start investigation"),
	}, t.startInvestigation)
	add(s, t, &mcpsdk.Tool{
		Name: "get_investigation_explanations",
		Description: "Get the ranked explanations of a completed investigation: which segment or effect moved the metric, how much of the change it accounts for, " +
			"its significance and the evidence with the SQL behind each number. Fails with INVESTIGATION_NOT_COMPLETE before the investigation has completed.",
		Annotations: readOnly("Get explanations"),
	}, t.getExplanations)
	add(s, t, &mcpsdk.Tool{
		Name: "get_investigation_report",
		Description: "Get the report of a completed investigation. By default a compact summary (the change, whether it is real, the answer in a paragraph, " +
			"each explanation with its numbers); with full=true the whole Markdown report with the plan, the memory loop and the SQL behind every number.",
		Annotations: readOnly("Get report"),
	}, t.getReport)
	add(s, t, &mcpsdk.Tool{
		Name: "ask_investigation",
		Description: "Ask a follow-up question about a completed investigation (why a hypothesis was ruled out, what the evidence for a segment is, ...). " +
			"The answer is drawn from the investigation's own record, offline, and cites the artifacts it used.",
		Annotations: changes("Ask about an investigation"),
	}, t.ask)
}

func (t *tools) startInvestigation(ctx context.Context, in startInvestigationIn) (startInvestigationOut, string, error) {
	base, err := in.BaselinePeriod.dateRange("baseline")
	if err != nil {
		return startInvestigationOut{}, "", err
	}
	comp, err := in.ComparisonPeriod.dateRange("comparison")
	if err != nil {
		return startInvestigationOut{}, "", err
	}
	c := investigation.Context{MetricSQL: in.MetricSQL, BaselinePeriod: base, ComparisonPeriod: comp,
		BusinessContext: in.BusinessContext, InvestigationPrompt: in.Prompt, TimeColumn: in.TimeColumn, TimeFormat: in.TimeFormat,
		IgnoreColumns: in.IgnoreColumns}
	if err := t.svc.Investigate(ctx, in.SessionID, c); err != nil {
		return startInvestigationOut{}, "", err
	}
	out := startInvestigationOut{SessionID: in.SessionID, Status: string(investigation.StatusRunning),
		Next: "call get_investigation every few seconds until status is completed or failed"}
	text := fmt.Sprintf("Investigation of session %s started: %s, baseline %s vs comparison %s. It runs in the background; %s.",
		in.SessionID, in.MetricSQL, base, comp, out.Next)
	if !in.Wait {
		return out, text, nil
	}
	wait := defaultWait
	if in.WaitSeconds > 0 {
		wait = time.Duration(min(in.WaitSeconds, maxWaitSeconds)) * time.Second
	}
	s, err := t.waitForRun(ctx, in.SessionID, wait)
	if err != nil {
		return out, text, nil // the client went away; the run goes on
	}
	out.Status = string(s.Status)
	switch s.Status {
	case investigation.StatusCompleted:
		out.Next = "get_investigation_explanations for the evidence, ask for follow-up questions"
		if out.Result, err = t.compactReport(ctx, in.SessionID); err != nil {
			return out, "", err
		}
		return out, out.Result, nil
	case investigation.StatusFailed:
		out.Next = "fix the request in a new investigation"
		if s.Error != nil {
			out.Error = s.Error.Code + ": " + s.Error.Message
		}
		return out, "The investigation failed: " + out.Error, nil
	}
	out.Next = "still running after the wait; " + out.Next
	return out, text + " It was still running when the wait ended.", nil
}

func (t *tools) getExplanations(ctx context.Context, in sessionIn) (explanationsOut, string, error) {
	exps, err := t.svc.Explanations(ctx, in.SessionID)
	if err != nil {
		return explanationsOut{}, "", err
	}
	out := explanationsOut{SessionID: in.SessionID, Explanations: make([]explanationInfo, 0, len(exps))}
	var b strings.Builder
	if len(exps) == 0 {
		b.WriteString("No explanation stood out: the change is within what the data's noise explains. See get_investigation_report.")
	}
	for _, e := range exps {
		x := explanationInfo{Rank: e.Rank, Title: e.Title, Likelihood: e.Likelihood, Kind: e.Kind, Segment: e.Segment.String(),
			ShareOfChange: e.ShareOfChange, Change: e.Change, Headline: e.Headline, PValue: e.PValue, Significant: e.Significant,
			Reasoning: e.Reasoning, CausalStory: e.CausalStory, Evidence: make([]evidenceInfo, 0, len(e.Evidence))}
		for _, ev := range e.Evidence {
			x.Evidence = append(x.Evidence, evidenceInfo{Description: ev.Description, SQL: ev.SQL, Values: ev.Values, AuditSequence: ev.AuditSequence})
		}
		out.Explanations = append(out.Explanations, x)

		fmt.Fprintf(&b, "%d. [%s] %s\n   %s; accounts for %s", x.Rank, x.Likelihood, x.Title, x.Kind, x.Headline)
		if x.PValue != nil {
			fmt.Fprintf(&b, ", p=%.4g", *x.PValue)
		}
		if x.Reasoning != "" {
			b.WriteString("\n   " + x.Reasoning)
		}
		for _, ev := range x.Evidence {
			b.WriteString("\n   - " + ev.Description)
			if ev.AuditSequence > 0 {
				fmt.Fprintf(&b, " (audit entry %d)", ev.AuditSequence)
			}
		}
		b.WriteString("\n")
	}
	return out, strings.TrimRight(b.String(), "\n"), nil
}

func (t *tools) getReport(ctx context.Context, in reportIn) (reportOut, string, error) {
	r, err := t.svc.Report(ctx, in.SessionID)
	if err != nil {
		return reportOut{}, "", err
	}
	out := reportOut{SessionID: r.SessionID, Status: r.Status, GeneratedAt: r.GeneratedAt, Full: in.Full, Markdown: r.Content}
	if !in.Full {
		if out.Markdown, err = t.compactReport(ctx, in.SessionID); err != nil {
			return reportOut{}, "", err
		}
	}
	return out, out.Markdown, nil
}

func (t *tools) ask(ctx context.Context, in askIn) (askOut, string, error) {
	a, err := t.svc.Chat(ctx, in.SessionID, in.Question)
	if err != nil {
		return askOut{}, "", err
	}
	out := askOut{Answer: a.Content, CitedArtifacts: a.ArtifactsReferenced}
	if out.CitedArtifacts == nil {
		out.CitedArtifacts = []string{}
	}
	text := a.Content
	if len(out.CitedArtifacts) > 0 {
		text += "\n\nSources: " + strings.Join(out.CitedArtifacts, ", ")
	}
	return out, text, nil
}

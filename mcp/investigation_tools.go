package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
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
	SessionID        string `json:"session_id" jsonschema:"the session's ID"`
	MetricSQL        string `json:"metric_sql" jsonschema:"the metric as one SELECT of one aggregate over the tables: SUM(x), COUNT(*), COUNT(DISTINCT x), AVG(x) or a ratio such as SUM(converted)*1.0/COUNT(*); JOIN and WHERE allowed; no GROUP BY and no date filter (the periods set the time)"`
	BaselinePeriod   period `json:"baseline_period" jsonschema:"the period before the change, as the reference"`
	ComparisonPeriod period `json:"comparison_period" jsonschema:"the period in which the metric moved; usually as long as the baseline and right after it"`
	BusinessContext  string `json:"business_context,omitempty" jsonschema:"what the business is and anything known about the period (releases, campaigns, outages)"`
	Prompt           string `json:"prompt,omitempty" jsonschema:"the question, e.g. why did revenue fall in the second half of March?"`
	TimeColumn       string `json:"time_column,omitempty" jsonschema:"the time column as TABLE.COLUMN when the metric's table has several date columns; inferred otherwise"`
}

type startInvestigationOut struct {
	SessionID string `json:"session_id"`
	Status    string `json:"status" jsonschema:"running"`
	Next      string `json:"next"`
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

type reportOut struct {
	SessionID   string    `json:"session_id"`
	Status      string    `json:"status" jsonschema:"completed, or no_findings when nothing explained the change"`
	GeneratedAt time.Time `json:"generated_at"`
	Markdown    string    `json:"markdown"`
}

type askIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID; its investigation must have completed"`
	Question  string `json:"question" jsonschema:"a question about the investigation, its hypotheses, evidence or findings"`
}

type askOut struct {
	Answer         string   `json:"answer"`
	CitedArtifacts []string `json:"cited_artifacts" jsonschema:"the session artifacts the answer is drawn from, e.g. analysis/hypotheses/hyp_001.json"`
}

func (t *tools) addInvestigationTools(s *mcpsdk.Server) {
	add(s, t, &mcpsdk.Tool{
		Name: "start_investigation",
		Description: "Start investigating why a metric changed between a baseline and a comparison period, over a session's tables. " +
			"Quarry checks the request (metric SQL against the tables, dates, time column) and returns at once; the investigation runs in the background, " +
			"testing hypotheses with SQL, and ends with ranked explanations and a report. Poll get_session until status is completed or failed. " +
			"A session is investigated once; to change the request, create a new session.",
		Annotations: changes("Start investigation"),
	}, t.startInvestigation)
	add(s, t, &mcpsdk.Tool{
		Name: "get_explanations",
		Description: "Get the ranked explanations of a completed investigation: which segment or effect moved the metric, how much of the change it accounts for, " +
			"its significance and the evidence with the SQL behind each number. Fails with INVESTIGATION_NOT_COMPLETE before the investigation has completed.",
		Annotations: readOnly("Get explanations"),
	}, t.getExplanations)
	add(s, t, &mcpsdk.Tool{
		Name:        "get_report",
		Description: "Get the Markdown report of a completed investigation: summary, the metric in both periods, ranked explanations with evidence, and what was ruled out.",
		Annotations: readOnly("Get report"),
	}, t.getReport)
	add(s, t, &mcpsdk.Tool{
		Name: "ask",
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
	c := quarry.InvestigationContext{MetricSQL: in.MetricSQL, BaselinePeriod: base, ComparisonPeriod: comp,
		BusinessContext: in.BusinessContext, InvestigationPrompt: in.Prompt, TimeColumn: in.TimeColumn}
	if err := t.svc.Investigate(ctx, in.SessionID, c); err != nil {
		return startInvestigationOut{}, "", err
	}
	out := startInvestigationOut{SessionID: in.SessionID, Status: string(quarry.SessionRunning),
		Next: "call get_session every few seconds until status is completed or failed"}
	text := fmt.Sprintf("Investigation of session %s started: %s, baseline %s vs comparison %s. It runs in the background; %s.",
		in.SessionID, in.MetricSQL, base, comp, out.Next)
	return out, text, nil
}

func (t *tools) getExplanations(ctx context.Context, in sessionIn) (explanationsOut, string, error) {
	exps, err := t.svc.Explanations(ctx, in.SessionID)
	if err != nil {
		return explanationsOut{}, "", err
	}
	out := explanationsOut{SessionID: in.SessionID, Explanations: make([]explanationInfo, 0, len(exps))}
	var b strings.Builder
	if len(exps) == 0 {
		b.WriteString("No explanation stood out: the change is within what the data's noise explains. See get_report.")
	}
	for _, e := range exps {
		x := explanationInfo{Rank: e.Rank, Title: e.Title, Likelihood: e.Likelihood, Kind: e.Kind, Segment: e.Segment.String(),
			ShareOfChange: e.ShareOfChange, Change: e.Change, PValue: e.PValue, Significant: e.Significant,
			Reasoning: e.Reasoning, CausalStory: e.CausalStory, Evidence: make([]evidenceInfo, 0, len(e.Evidence))}
		for _, ev := range e.Evidence {
			x.Evidence = append(x.Evidence, evidenceInfo{Description: ev.Description, SQL: ev.SQL, Values: ev.Values, AuditSequence: ev.AuditSequence})
		}
		out.Explanations = append(out.Explanations, x)

		fmt.Fprintf(&b, "%d. [%s] %s\n   %s; accounts for %.1f%% of the change (%+.2f)", x.Rank, x.Likelihood, x.Title, x.Kind, 100*x.ShareOfChange, x.Change)
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

func (t *tools) getReport(ctx context.Context, in sessionIn) (reportOut, string, error) {
	r, err := t.svc.Report(ctx, in.SessionID)
	if err != nil {
		return reportOut{}, "", err
	}
	return reportOut{SessionID: r.SessionID, Status: r.Status, GeneratedAt: r.GeneratedAt, Markdown: r.Content}, r.Content, nil
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

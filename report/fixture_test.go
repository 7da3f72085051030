package report

import (
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

var (
	fixedTime = time.Date(2024, 3, 15, 9, 30, 0, 0, time.UTC)
	day       = quarry.MustParseDate
)

func ptr(f float64) *float64 { return &f }

// completedInput is a conversion-rate investigation with three
// explanations: a rate change, a mix shift and a data-quality problem.
func completedInput() *Input {
	ctx := investigation.Context{
		SessionID:           "5f0c2a1e-8d4b-4c1a-9f4e-2b7d3c6a1e90",
		MetricSQL:           "SELECT COUNT(*) FILTER (WHERE o.order_id IS NOT NULL) * 1.0 / COUNT(*)\nFROM sessions s LEFT JOIN orders o ON o.session_id = s.session_id",
		BaselinePeriod:      quarry.DateRange{Start: day("2024-02-01"), End: day("2024-02-14")},
		ComparisonPeriod:    quarry.DateRange{Start: day("2024-02-15"), End: day("2024-02-28")},
		InvestigationPrompt: "Why did checkout conversion drop in the second half of February?",
		TimeColumn:          "sessions.started_at",
	}
	dm := investigation.DataModel{
		Tables: []investigation.TableInfo{
			{Name: "sessions", RowCount: 412803, Columns: []quarry.Column{
				{Name: "session_id", InferredType: quarry.RoleID, DataType: quarry.TypeString, Cardinality: 412803},
				{Name: "started_at", InferredType: quarry.RoleTimestamp, DataType: quarry.TypeDatetime, Cardinality: 402117},
				{Name: "device", InferredType: quarry.RoleDimension, DataType: quarry.TypeString, Cardinality: 3},
				{Name: "channel", InferredType: quarry.RoleDimension, DataType: quarry.TypeString, Cardinality: 6, NullCount: 1204, Nullable: true},
			}},
			{Name: "orders", RowCount: 16021, Columns: []quarry.Column{
				{Name: "order_id", InferredType: quarry.RoleID, DataType: quarry.TypeInteger, Cardinality: 16021},
				{Name: "session_id", InferredType: quarry.RoleID, DataType: quarry.TypeString, Cardinality: 15994},
				{Name: "amount", InferredType: quarry.RoleMeasure, DataType: quarry.TypeFloat, Cardinality: 9311},
			}},
			{Name: "campaigns", RowCount: 42, ColumnCount: 5},
		},
		Relationships: []investigation.Relationship{
			{FromTable: "orders", FromColumn: "session_id", ToTable: "sessions", ToColumn: "session_id", RelationshipType: investigation.RelForeignKey, Confidence: 0.99, Containment: 0.998, ToUnique: true},
			{FromTable: "sessions", FromColumn: "channel", ToTable: "campaigns", ToColumn: "channel_name", RelationshipType: investigation.RelSimilarValues, Confidence: 0.71, Containment: 0.83},
		},
		RecommendedDimensions: []string{"device", "channel"},
	}
	hyps := []investigation.Hypothesis{
		{HypothesisID: "hyp_001", Title: "Mobile checkout got worse", Kind: investigation.KindRate, Dimensions: []string{"device"}, Status: investigation.HypConfirmed, Verdict: "mobile conversion fell from 3.80% to 3.20% (p < 0.001)"},
		{HypothesisID: "hyp_002", Title: "Traffic shifted to low-intent channels", Kind: investigation.KindMix, Dimensions: []string{"channel"}, Status: investigation.HypConfirmed, Verdict: "paid social share of sessions rose from 12% to 21%"},
		{HypothesisID: "hyp_003", Title: "Bot sessions inflate the denominator", Kind: investigation.KindDataQuality, Dimensions: []string{"channel"}, Status: investigation.HypConfirmed, Verdict: "8,211 sessions with zero duration from one user agent"},
		{HypothesisID: "hyp_004", Title: "Fewer weekend days | calendar", Kind: investigation.KindCalendar, Status: investigation.HypRuledOut, Verdict: "both periods hold 4 weekend days"},
		{HypothesisID: "hyp_005", Title: "Desktop price test", Kind: investigation.KindRate, Dimensions: []string{"device"}, Status: investigation.HypRuledOut, Verdict: "desktop conversion is flat (p = 0.620)"},
	}
	iters := []investigation.IterationLog{
		{Iteration: 1, Decision: investigation.DecisionAnalyze, CompressedSummary: "Decomposed the change by device: mobile accounts for most of the drop.",
			HypothesisStatusChanges: map[string]investigation.HypothesisStatus{"hyp_005": investigation.HypInvestigating, "hyp_001": investigation.HypInvestigating}},
		{Iteration: 2, Decision: investigation.DecisionDrillDown, CompressedSummary: "Mobile rate fell 0.6 points; desktop is flat.",
			HypothesisStatusChanges: map[string]investigation.HypothesisStatus{"hyp_001": investigation.HypConfirmed, "hyp_005": investigation.HypRuledOut}},
		{Iteration: 3, Decision: investigation.DecisionPivot, CompressedSummary: "Channel mix moved toward paid social.",
			HypothesisStatusChanges: map[string]investigation.HypothesisStatus{"hyp_002": investigation.HypConfirmed}},
		{Iteration: 4, Decision: investigation.DecisionConclude, CompressedSummary: "Zero-duration sessions from one user agent since Feb 20.",
			HypothesisStatusChanges: map[string]investigation.HypothesisStatus{"hyp_003": investigation.HypConfirmed, "hyp_004": investigation.HypRuledOut}},
	}
	exps := []investigation.Explanation{
		{
			Rank: 1, Title: "Mobile checkout conversion fell", Likelihood: investigation.LikelihoodMostLikely, Kind: investigation.KindRate,
			Segment: investigation.Segment{{Column: "device", Value: "mobile"}}, Change: -0.0031, ShareOfChange: 0.62, PValue: ptr(0.0004), Significant: true,
			Evidence: []investigation.Evidence{{
				Description:   "Mobile conversion fell from 3.80% to 3.20%.",
				SQL:           "SELECT device, COUNT(o.order_id) * 1.0 / COUNT(*) AS rate\nFROM sessions s LEFT JOIN orders o USING (session_id)\nGROUP BY device",
				Values:        map[string]float64{"comparison": 0.032, "baseline": 0.038, "sessions_comparison": 121877, "rate_effect": -0.0031, "share_of_change": 0.62},
				AuditSequence: 14, FindingID: "F-002",
			}},
			Reasoning:        "The rate effect in mobile alone is 62% of the drop and survives the correction for 40 tested segments.",
			CausalStory:      "A release on Feb 15 changed the mobile payment form; fewer mobile sessions finish checkout.",
			SourceHypotheses: []string{"hyp_001"},
		},
		{
			Rank: 2, Title: "More traffic from paid social, which converts less", Likelihood: investigation.LikelihoodLikely, Kind: investigation.KindMix,
			Segment: investigation.Segment{{Column: "channel", Value: "paid_social"}}, Change: -0.0012, ShareOfChange: 0.24, PValue: ptr(0.012), Significant: true,
			Evidence: []investigation.Evidence{
				{Description: "Paid social's share of sessions rose from 12% to 21%.", SQL: "SELECT channel, COUNT(*) FROM sessions GROUP BY channel", Values: map[string]float64{"share_baseline": 0.12, "share_comparison": 0.21}, AuditSequence: 19},
				{Description: "Paid social converts at about half the site average.", Values: map[string]float64{"p_value": 0.012}},
			},
			Reasoning:        "A mix shift of this size explains about a quarter of the drop.",
			CausalStory:      "A new campaign bought cheap social traffic that browses but rarely buys.",
			SourceHypotheses: []string{"hyp_002"},
		},
		{
			Rank: 3, Title: "Bot sessions since Feb 20 inflate the denominator", Likelihood: investigation.LikelihoodLikely, Kind: investigation.KindDataQuality,
			Segment: investigation.Segment{{Column: "channel", Value: "direct"}, {Column: "device", Value: "desktop"}}, Change: -0.0005, ShareOfChange: 0.1,
			Evidence:         []investigation.Evidence{{Description: "8,211 zero-duration sessions share one user agent.", SQL: "SELECT user_agent, COUNT(*) FROM sessions WHERE duration_s = 0 GROUP BY 1 ORDER BY 2 DESC LIMIT 5", Values: map[string]float64{"sessions": 8211}}},
			Reasoning:        "Not a business change: removing these sessions recovers a tenth of the drop.",
			SourceHypotheses: []string{"hyp_003"},
		},
	}
	var mobileBase, mobileComp []Point
	for i := range 14 {
		mobileBase = append(mobileBase, Point{Date: ctx.BaselinePeriod.Start.AddDays(i), Value: 0.038 + 0.002*float64(i%7-3)/3})
		mobileComp = append(mobileComp, Point{Date: ctx.ComparisonPeriod.Start.AddDays(i), Value: 0.032 + 0.002*float64(i%7-3)/3})
	}
	return &Input{
		Title:   "Checkout Conversion",
		Context: ctx,
		Metric: investigation.Metric{
			SQL: ctx.MetricSQL, Kind: investigation.MetricRatio, Numerator: "COUNT(*) FILTER (WHERE o.order_id IS NOT NULL)", Denominator: "COUNT(*)",
			Scale: 1, Tables: []string{"sessions", "orders"}, TimeColumn: "sessions.started_at",
		},
		Overall:   investigation.OverallChange{BaselineValue: 0.041, ComparisonValue: 0.036, Change: -0.005, ChangePct: -12.2, Significant: true, PValue: 0.0001},
		Status:    investigation.OutcomeCompleted,
		DataModel: dm,
		Plan: investigation.Plan{Steps: []investigation.PlanStep{
			{StepNumber: 1, Phase: investigation.PhaseExploration, Description: "Profile sessions and orders; check daily volumes for gaps.", TablesInvolved: []string{"sessions", "orders"}},
			{StepNumber: 2, Phase: investigation.PhaseHypothesisGeneration, Description: "Generate hypotheses from the business context.", DimensionsToCheck: []string{"device", "channel"}},
			{StepNumber: 3, Phase: investigation.PhaseValidation, Description: "Split the change into rate and mix effects per segment.", TablesInvolved: []string{"sessions"}, DimensionsToCheck: []string{"device", "channel"}},
		}},
		Hypotheses: hyps,
		Ledger: investigation.FindingsLedger{
			Findings: []investigation.Finding{
				{FindingID: "F-001", Iteration: 1, Summary: "Mobile holds 70% of the drop; desktop and tablet move little."},
				{FindingID: "F-002", Iteration: 2, Summary: "Mobile conversion 3.80% -> 3.20% (p < 0.001); desktop flat at 4.9%."},
			},
			TotalIterations: 4,
			ExitReason:      investigation.ExitConclude,
		},
		Iterations:   iters,
		Explanations: exps,
		DataQuality:  []string{"sessions has 8,211 rows with duration 0 from one user agent since 2024-02-20; exclude them or fix the tracking."},
		Waterfall: []Bar{
			{Label: "device=mobile (rate)", Value: -0.0031, Kind: investigation.KindRate},
			{Label: "channel=paid_social (mix)", Value: -0.0012, Kind: investigation.KindMix},
			{Label: "Bot sessions in channel=direct AND device=desktop", Value: -0.0005, Kind: investigation.KindDataQuality},
			{Label: "Everything else", Value: -0.0002, Kind: KindOther},
		},
		Series:      []Series{{Name: "device=mobile", Baseline: mobileBase, Comparison: mobileComp}},
		AuditLog:    "audit/audit.jsonl",
		GeneratedAt: fixedTime,
	}
}

// noFindingsInput is a revenue investigation where every hypothesis was
// ruled out and the change is within noise.
func noFindingsInput() *Input {
	ctx := investigation.Context{
		MetricSQL:        "SELECT SUM(amount) FROM orders",
		BaselinePeriod:   quarry.DateRange{Start: day("2024-01-01"), End: day("2024-01-31")},
		ComparisonPeriod: quarry.DateRange{Start: day("2024-02-01"), End: day("2024-02-29")},
	}
	return &Input{
		Title:            "Revenue",
		Context:          ctx,
		Metric:           investigation.Metric{SQL: ctx.MetricSQL, Kind: investigation.MetricSum, Numerator: "SUM(amount)", Scale: 1, Tables: []string{"orders"}, TimeColumn: "orders.order_date"},
		Overall:          investigation.OverallChange{BaselineValue: 1234567.89, ComparisonValue: 1220004.5, Significant: false, PValue: 0.41},
		Status:           investigation.OutcomeNoFindings,
		NoFindingsReason: "Every region and product category moved by about the same percentage.",
		DataModel: investigation.DataModel{
			Tables: []investigation.TableInfo{{Name: "orders", RowCount: 58210, Columns: []quarry.Column{
				{Name: "order_date", InferredType: quarry.RoleTimestamp, DataType: quarry.TypeDate, Cardinality: 60},
				{Name: "region", InferredType: quarry.RoleDimension, DataType: quarry.TypeString, Cardinality: 4},
				{Name: "category", InferredType: quarry.RoleDimension, DataType: quarry.TypeString, Cardinality: 12},
				{Name: "amount", InferredType: quarry.RoleMeasure, DataType: quarry.TypeFloat, Cardinality: 20113},
			}}},
			RecommendedDimensions: []string{"region", "category"},
		},
		Plan: investigation.Plan{Steps: []investigation.PlanStep{
			{StepNumber: 1, Phase: investigation.PhaseValidation, Description: "Search region x category for concentrated change.", DimensionsToCheck: []string{"region", "category"}},
		}},
		Hypotheses: []investigation.Hypothesis{
			{HypothesisID: "hyp_001", Title: "One region lost sales", Kind: "segment", Dimensions: []string{"region"}, Status: investigation.HypRuledOut, Verdict: "all regions -1% to -2%"},
			{HypothesisID: "hyp_002", Title: "February is shorter", Kind: investigation.KindCalendar, Status: investigation.HypRuledOut, Verdict: "revenue per day is flat"},
			{HypothesisID: "hyp_003", Title: "Price test in electronics", Kind: investigation.KindRate, Dimensions: []string{"category", "channel"}, Status: investigation.HypPending},
		},
		Ledger:      investigation.FindingsLedger{Findings: []investigation.Finding{{FindingID: "F-001", Iteration: 1, Summary: "No segment holds more than 15% of the change."}}, TotalIterations: 3, ExitReason: investigation.ExitStall},
		AuditLog:    "audit/audit.jsonl",
		GeneratedAt: fixedTime,
	}
}

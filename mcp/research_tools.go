package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/room"
)

type researchIn struct {
	Question string `json:"question" jsonschema:"the question, 10 to 500 characters, e.g. What changed in Kestrel Dynamics' finances and legal exposure in 2024?"`
	Depth    string `json:"depth,omitempty" jsonschema:"quick (3-5 sub-questions), standard (5-7, the default) or comprehensive (7-10)"`
	Room     string `json:"room,omitempty" jsonschema:"the data room to research, by name or room_id as list_rooms gives them; needed unless web is true"`
	Web      bool   `json:"web,omitempty" jsonschema:"true searches the web too (or alone, without a room), when the server has a web search provider (QUARRY_SEARXNG_URL or QUARRY_BRAVE_API_KEY); pages that cannot be read, and a provider that fails, are listed in the report's limitations"`
}

// researchStages is how many progress notifications a research sends:
// two while planning, then one each for executing, verifying,
// synthesizing and completed.
const researchStages = 6

func (t *tools) addResearchTools(s *mcpsdk.Server) {
	if t.opt.Research == nil {
		return
	}
	ann := changes("Research a question")
	if w, ok := t.opt.Research.(interface{ WebSource() string }); ok && w.WebSource() != "" {
		// It reaches out to the web when asked to.
		ann.OpenWorldHint = ptr(true)
	}
	add(s, t, &mcpsdk.Tool{
		Name: "run_research",
		Description: "Research a question over a data room's documents, the web (web: true, when the server has a search provider) or both, and return a briefing: the plan of sub-questions, the facts read from the documents and pages (each with its source and passage), " +
			"the discrepancies where sources disagree (each side with its facts, the value to believe and why: correction, consensus, credibility or uncertainty), " +
			"names shared by different entities (ambiguities, not conflicts), and a report whose every claim carries [cite:fact-id] naming a fact. " +
			"Over a room it runs offline in seconds; the web takes longer. The result is saved under its id.",
		Annotations:  ann,
		OutputSchema: researchSchema(),
	}, asUser(t, t.research))
}

// researchSchema is the schema of research.View, where a fact's
// discrepancy_id is null when no source disputes it, as quarry research
// --json has it.
func researchSchema() *jsonschema.Schema {
	s := schemaFor[research.View]()
	id := s.Properties["facts"].Items.Properties["discrepancy_id"]
	id.Type, id.Types = "", []string{"null", "string"}
	return s
}

func (t *tools) research(ctx context.Context, u *room.User, in researchIn) (research.View, string, error) {
	n := 0
	res, err := t.opt.Research.Research(ctx, u.ID, in.Question, in.Depth, strings.TrimSpace(in.Room), in.Web, func(st research.Stage) {
		n++
		notifyProgress(ctx, n, researchStages, string(st.Status)+": "+st.Message)
	})
	if err != nil {
		return research.View{}, "", err
	}
	v := research.NewView(res)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s", v.Query, v.Report.ExecutiveSummary)
	fmt.Fprintf(&b, "\n\n%d sub-questions, %d facts, %d discrepancies, %d ambiguous names; %d report sections, %d sources, quality %.2f (research %s, %s).",
		len(v.Plan.SubQuestions), len(v.Facts), len(v.Discrepancies), len(v.Ambiguities), len(v.Report.Sections), v.Report.TotalSources, v.Report.QualityScore, v.ID, v.Status)
	for _, d := range v.Discrepancies {
		fmt.Fprintf(&b, "\n- %s: %s", d.Topic, d.Resolution)
	}
	b.WriteString("\n\nEach [cite:ID] names a fact in facts, whose source_url, source_title and passage show where it comes from.")
	return v, b.String(), nil
}

// notifyProgress tells the client how a long tool call goes, when it
// asked to hear (a progress token in the call).
func notifyProgress(ctx context.Context, done, total int, message string) {
	req, ok := ctx.Value(requestKey{}).(*mcpsdk.CallToolRequest)
	if !ok || req.Session == nil || req.Params == nil {
		return
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return
	}
	// A client gone meanwhile is not the research's failure.
	_ = req.Session.NotifyProgress(ctx, &mcpsdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(max(total, done)), Message: message})
}

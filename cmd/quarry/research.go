package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/researches"
	"github.com/quarry-dev/quarry/sqlite"
)

// runResearch implements "quarry research [--room R | --corpus DIR]
// [--web] [--depth quick|standard|comprehensive] QUESTION [--json]".
func runResearch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("research", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf roomFlags
	rf.register(fs, getenv)
	roomName := fs.String("room", "", "research the documents of this data room (its permissions apply)")
	corpus := fs.String("corpus", "", "research a folder of documents (indexed on first use)")
	useWeb := fs.Bool("web", false, "search the web too, or alone (needs QUARRY_SEARXNG_URL or QUARRY_BRAVE_API_KEY; see 'quarry help config')")
	depth := fs.String("depth", "standard", "quick (3-5 sub-questions), standard (5-7) or comprehensive (7-10)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	// Flags may follow the question.
	help, positional, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(positional) != 1 {
		return &usageError{`research takes one question in quotes: quarry research --corpus DIR "QUESTION"`}
	}
	if (*roomName != "" && *corpus != "") || (*roomName == "" && *corpus == "" && !*useWeb) {
		return &usageError{"research needs exactly one of --room ROOM or --corpus DIR, or --web, or one of them and --web"}
	}
	// Everything that can be checked is checked before anything is read
	// or written.
	req, err := research.NewRequest(positional[0], *depth, time.Now())
	if err != nil {
		return err
	}
	// A configured model plans, reads and writes, each checked; none is
	// offline.
	w, err := rf.model.open(getenv)
	if err != nil {
		return err
	}
	var wc app.WebConfig
	if *useWeb {
		if wc, err = rf.model.webConfig(getenv); err != nil {
			return err
		}
		// A web without a provider is refused before anything is written.
		if _, err := app.OpenWebCorpus(wc); err != nil {
			return err
		}
	}
	progress := func(format string, a ...any) { fmt.Fprintf(stderr, "research: "+format+"\n", a...) }
	stage := func(s research.Stage) { progress("%s: %s", s.Status, s.Message) }

	if err := os.MkdirAll(filepath.Join(rf.dataDir, "db"), 0o755); err != nil {
		return quarry.StorageError(err)
	}
	// Every research runs through the research service, as quarry
	// serve's does: its checks, its audit trail (logs/research.jsonl)
	// and its store, where serve lists it (with --db in PostgreSQL,
	// beside the rooms); a room's also its permissions and the user's
	// questions in the room.
	if *roomName != "" {
		svc, user, closeRooms, err := rf.open(ctx, getenv)
		if err != nil {
			return err
		}
		defer closeRooms()
		store, err := app.OpenResearchStore(ctx, rf.dataDir, rf.db)
		if err != nil {
			return err
		}
		rs := app.NewResearches(store, svc, nil, nil)
		defer rs.Close()
		if *useWeb {
			if err := app.ResearchWeb(rs, wc); err != nil {
				return err
			}
		}
		res, err := rs.Research(ctx, user.ID, req.Query, string(req.Depth), *roomName, *useWeb, stage)
		if err != nil {
			return err
		}
		return printResearchResult(stdout, res, *asJSON)
	}
	var folder *agent.Source
	if *corpus != "" {
		idx, err := sqlite.Open(filepath.Join(rf.dataDir, "quarry.db"))
		if err != nil {
			return err
		}
		defer idx.Close()
		c, err := app.OpenCorpus(ctx, rf.dataDir, *corpus, idx, progress)
		if err != nil {
			return err
		}
		folder = &agent.Source{Name: "the folder " + *corpus, Corpus: c}
	}
	store, err := app.OpenResearchStore(ctx, rf.dataDir, rf.db)
	if err != nil {
		return err
	}
	rs := app.NewFolderResearches(rf.dataDir, store, w.model, nil)
	defer rs.Close()
	if *useWeb {
		if err := app.ResearchWeb(rs, wc); err != nil {
			return err
		}
	}
	var res *research.Result
	if folder != nil {
		res, err = rs.ResearchFolder(ctx, "", req.Query, string(req.Depth), *folder, *useWeb, stage)
	} else {
		res, err = rs.Research(ctx, "", req.Query, string(req.Depth), "", true, stage)
	}
	if err != nil {
		return err
	}
	return printResearchResult(stdout, res, *asJSON)
}

// printResearchResult writes res as one JSON object with asJSON, else for a
// person (printResearch).
func printResearchResult(stdout io.Writer, res *research.Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(research.NewView(res))
	}
	printResearch(stdout, res)
	return nil
}

// useWeb lets rs research the web when wc has a provider (serve and mcp,
// whose requests ask for it with web: true), and says so in log. Errors: INVALID for a provider URL that is not http(s) or a
// credibility score outside 0-1.
func useWeb(rs *researches.Service, wc app.WebConfig, log *slog.Logger) error {
	if !wc.Configured() {
		return nil
	}
	if err := app.ResearchWeb(rs, wc); err != nil {
		return err
	}
	log.Info("research may search the web", "source", rs.WebSource(), "allow_private", wc.AllowPrivate)
	return nil
}

// printResearch writes the report for a person: the summary, the
// sections with numbered citations, and the sources they point to.
func printResearch(w io.Writer, res *research.Result) {
	facts := res.FactsByID()
	num := map[string]int{}
	var order []string
	number := func(text string) string {
		for _, id := range research.Markers(text) {
			if _, ok := num[id]; !ok {
				order = append(order, id)
				num[id] = len(order)
			}
			text = strings.ReplaceAll(text, research.Cite(id), fmt.Sprintf("[%d]", num[id]))
		}
		return text
	}
	rep := res.Report
	fmt.Fprintf(w, "# %s\n\n", res.Request.Query)
	fmt.Fprintf(w, "## Executive summary\n\n%s\n\n", number(rep.ExecutiveSummary))
	for _, s := range rep.Sections {
		fmt.Fprintf(w, "## %s\n\n%s\n\n", s.Title, number(s.Content))
	}
	if len(rep.Limitations) > 0 {
		fmt.Fprintf(w, "## Limitations\n\n")
		for _, l := range rep.Limitations {
			fmt.Fprintf(w, "- %s\n", l)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## Citations\n\n")
	for _, id := range order {
		f := facts[id]
		fmt.Fprintf(w, "[%d] %s — %s: %q\n", num[id], f.SourceTitle, f.SourceURL, f.Passage)
	}
	fmt.Fprintf(w, "\n%d words, %d sources, quality %.2f; research %s saved as %s\n", rep.TotalWordCount, rep.TotalSources, rep.QualityScore, res.Request.Status, res.Request.ID)
}

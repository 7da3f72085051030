// Command quarry is an AI data analyst that answers questions over a
// workspace of data with evidence a skeptic can check.
//
// Usage:
//
//	quarry investigate --file PATH[=DESCRIPTION] ... --metric SQL \
//	    --baseline FROM..TO --comparison FROM..TO [flags]
//	quarry serve [--addr localhost:8080] [--data-dir DIR]
//	quarry mcp [--http ADDR] [--data-dir DIR]
//	quarry demo [--data-dir DIR]
//	quarry doctor
//	quarry help config
//	quarry audit verify [PATH | --all] [--data-dir DIR] [--anchor FILE_OR_HASH]
//	quarry audit anchor [--data-dir DIR] [--json]
//	quarry bench rca [--data DIR] [--json]
//
// Run "quarry help" for the full list.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/quarry-dev/quarry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError marks an error in how the command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseFlags parses a command's flags; commands take no positional
// arguments. help is true when -h printed the flags and the command should
// stop without error.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return false, &usageError{fmt.Sprintf("%s takes no arguments, got %q", fs.Name(), fs.Arg(0))}
	}
	return false, nil
}

// parseInterspersed parses a command's flags wherever they stand among
// its positional arguments, which it returns in order.
func parseInterspersed(fs *flag.FlagSet, args []string) (help bool, positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return true, nil, nil
			}
			return false, nil, &usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			return false, positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// exitCode prints err for a person and returns the process exit status:
// 0 success, 2 usage, 1 any other failure.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var u *usageError
	if errors.As(err, &u) {
		fmt.Fprintf(stderr, "quarry: %s\nRun 'quarry help' for usage.\n", u.msg)
		return 2
	}
	var qe *quarry.Error
	if errors.As(err, &qe) {
		fmt.Fprintf(stderr, "quarry: error %s: %s\n", qe.Code, qe.Message)
		if qe.Hint != "" {
			fmt.Fprintf(stderr, "hint: %s\n", qe.Hint)
		}
		return 1
	}
	fmt.Fprintf(stderr, "quarry: %v\n", err)
	return 1
}

// run is the whole program; main only supplies the process's environment.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stdout)
		return nil
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "investigate":
		return runInvestigate(ctx, rest, getenv, stdout, stderr)
	case "serve":
		return runServe(ctx, rest, getenv, stdout, stderr)
	case "mcp":
		return runMCP(ctx, rest, getenv, stdin, stdout, stderr)
	case "demo":
		return runDemo(ctx, rest, getenv, stdout, stderr)
	case "analyze":
		return runAnalyze(ctx, rest, getenv, stdout, stderr)
	case "recipes":
		return runRecipes(ctx, rest, getenv, stdout, stderr)
	case "doctor":
		return runDoctor(ctx, rest, getenv, stdout, stderr)
	case "audit":
		return runAudit(ctx, rest, getenv, stdout, stderr)
	case "bench":
		return runBench(ctx, rest, getenv, stdout, stderr)
	case "room":
		return runRoom(ctx, rest, getenv, stdout, stderr)
	case "ingest":
		return runIngest(ctx, rest, getenv, stdout, stderr)
	case "ask":
		return runAsk(ctx, rest, getenv, stdout, stderr)
	case "research":
		return runResearch(ctx, rest, getenv, stdout, stderr)
	case "worker":
		return runWorker(ctx, rest, getenv, stdout, stderr)
	case "user":
		return runUser(ctx, rest, getenv, stdin, stdout, stderr)
	case "token":
		return runToken(ctx, rest, getenv, stdout, stderr)
	case "help", "-h", "--help":
		if len(rest) > 0 && rest[0] == "config" {
			printConfigHelp(stdout)
			return nil
		}
		printUsage(stdout)
		return nil
	}
	return &usageError{fmt.Sprintf("unknown command %q", cmd)}
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `quarry: an AI data analyst that shows its evidence

Commands:
  serve         the web app and JSON API, with a finished sample investigation
  mcp           serve the tools to an AI agent over MCP (stdio, or --http ADDR)
  investigate   explain why a metric moved between two periods
  demo          run an investigation on the embedded sample data
  analyze       answer a request in plain words over files and databases with a
                validated plan, tables, charts and a summary
                (analyze replay ID re-runs one and compares its artifacts)
  recipes       list, show or delete the analyses kept for reuse
  room          create, list or delete a data room, add or remove a member (room create NAME,
                room list, room members ROOM, room add-member ROOM USER --role viewer,
                room remove-member ROOM USER, room delete ROOM)
  ingest        add documents to a room: quarry ingest --room ROOM FILE...
  ask           ask a room a question: quarry ask --room ROOM "QUESTION" [--json]
  research      sub-questions, facts, discrepancies and a cited briefing over a room or a
                folder, and the web too or alone (--web: QUARRY_SEARXNG_URL or QUARRY_BRAVE_API_KEY):
                quarry research [--room R | --corpus DIR] [--web] "QUESTION" [--depth D] [--json]
  worker        process the data rooms' documents queued in PostgreSQL: quarry worker --db postgres://...
  user          add a user who signs in to the rooms, set a password, list or delete them
                (user add NAME [--password-stdin], user passwd NAME --password-stdin, user list,
                user delete NAME);
                --db postgres://... for rooms kept in PostgreSQL
  token         API tokens for programs: token create --user NAME [--name LABEL] prints a new one;
                token list --user NAME shows them by ID; token revoke --user NAME ID stops one
  doctor        show what is configured (model, code sandbox, web search) and whether it answers
  audit verify  check a hash-chained audit log (PATH), or without PATH every log of the
                data dir: investigations, analyses, data rooms, research
  audit anchor  print each log's head (path, entries, last hash, hash_v2) to keep outside the data dir;
                quarry audit verify --anchor FILE_OR_HASH checks the logs still extend it
  bench rca     score the investigation's segment search on the root-cause benchmarks
  bench dabench ask the DABench data-analysis questions as analyses and score them
                (right, refused, wrong; on all questions and on the held-out half)
  bench financebench
                ingest the FinanceBench filings into a room and score page retrieval
  bench scifact ingest the SciFact abstracts into a room and score retrieval (nDCG@10, recall@100)
  bench ramdocs research each RAMDocs question over its own documents and score answers and
                conflict detection
  bench scale   time an investigation over a large generated file beside the floor
  help          this text

Run 'quarry COMMAND -h' for a command's flags and 'quarry help config' for
every setting (models: QUARRY_LLM_PROVIDER, QUARRY_LLM_MODEL, ...).
`)
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// roomFlags are what every data-room command takes: the data dir and who
// acts (the local owner unless --as names another member).
type roomFlags struct {
	dataDir string
	as      string
	db      string
	// sample makes the sample room on a data dir that never had a room
	// (ask, room list: what a newcomer tries first).
	sample bool
	model  modelFlags
}

func (f *roomFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(getenv), "where rooms and documents are stored (env QUARRY_DATA_DIR)")
	fs.StringVar(&f.as, "as", room.LocalOwner, "the user to act as (single-user mode: the local owner)")
	fs.StringVar(&f.db, "db", getenv("QUARRY_DB"), "postgres://... keeps the rooms and research results in PostgreSQL, documents processed by quarry worker (env QUARRY_DB); files stay in --data-dir")
	f.model.register(fs, getenv)
}

// open wires the rooms and returns the acting user.
func (f *roomFlags) open(ctx context.Context, getenv func(string) string) (*rooms.Service, *room.User, func() error, error) {
	w, err := f.model.open(getenv)
	if err != nil {
		return nil, nil, nil, err
	}
	// With --db this process also works the queue, so an ingest finishes
	// even when no quarry worker runs.
	svc, owner, closeFn, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: f.dataDir, DB: f.db, Workers: 1,
		Embedder: w.embedder, EmbeddingModel: w.embedModel, Model: w.model})
	if err != nil {
		return nil, nil, nil, err
	}
	if f.sample {
		if _, err := app.SeedSampleRoom(ctx, svc, owner, f.dataDir); err != nil {
			closeFn()
			return nil, nil, nil, err
		}
	}
	if f.as == room.LocalOwner {
		return svc, owner, closeFn, nil
	}
	u, _, err := svc.Store.UserByName(room.WithActor(ctx, room.System), f.as)
	if err != nil {
		closeFn()
		return nil, nil, nil, quarry.Errorf(quarry.ECodeNotFound, "no user %s", f.as).WithHint("quarry room add-member ROOM USER adds one")
	}
	return svc, u, closeFn, nil
}

// runRoom implements "quarry room create NAME | list | members ROOM |
// add-member ROOM USER [--role R] | remove-member ROOM USER | delete
// ROOM | access ROOM".
func runRoom(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"room needs a subcommand: create NAME, list, members ROOM, add-member ROOM USER, remove-member ROOM USER, delete ROOM or access ROOM"}
	}
	sub := args[0]
	fs := flag.NewFlagSet("room "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf roomFlags
	rf.register(fs, getenv)
	desc := fs.String("description", "", "what the room holds (create)")
	role := fs.String("role", room.RoleViewer, "owner, editor or viewer (add-member)")
	asJSON := fs.Bool("json", false, "print JSON")
	flags, rest := splitArgs(args[1:])
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	want := map[string]int{"create": 1, "list": 0, "members": 1, "add-member": 2, "remove-member": 2, "delete": 1, "access": 1}
	n, ok := want[sub]
	if !ok {
		return &usageError{fmt.Sprintf("unknown room subcommand %q: want create, list, members, add-member, remove-member, delete or access", sub)}
	}
	if len(rest) != n {
		return &usageError{fmt.Sprintf("room %s takes %d argument(s), got %d", sub, n, len(rest))}
	}
	rf.sample = sub == "list"
	svc, user, closeFn, err := rf.open(ctx, getenv)
	if err != nil {
		return err
	}
	defer closeFn()
	// Each subcommand gives its result for --json and its lines for a
	// person.
	var out any
	var lines []string
	switch sub {
	case "create":
		r, err := svc.CreateRoom(ctx, user.ID, rest[0], *desc)
		if err != nil {
			return err
		}
		out = r
		lines = []string{fmt.Sprintf("created room %s (%s); add documents with: quarry ingest --room %q FILE...", r.Name, r.ID, r.Name)}
	case "list":
		rs, err := svc.Rooms(ctx, user.ID)
		if err != nil {
			return err
		}
		out, lines = rs, []string{"NAME\tID\tROLE\tDOCUMENTS"}
		for _, r := range rs {
			lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%d", r.Name, r.ID, r.Role, r.Documents))
		}
	case "delete", "remove-member":
		out, lines, err = changeRoom(ctx, svc, user, sub, rest)
		if err != nil {
			return err
		}
	case "access":
		out, lines, err = accessLines(ctx, svc, user, rest[0])
		if err != nil {
			return err
		}
	case "members", "add-member":
		r, err := svc.Room(ctx, user.ID, rest[0])
		if err != nil {
			return err
		}
		if sub == "add-member" {
			m, err := svc.AddMember(ctx, user.ID, r.ID, rest[1], *role)
			if err != nil {
				return err
			}
			out, lines = m, []string{fmt.Sprintf("%s is now a %s of %s", m.UserName, m.Role, r.Name)}
			break
		}
		ms, err := svc.Members(ctx, user.ID, r.ID)
		if err != nil {
			return err
		}
		out, lines = ms, []string{"USER\tROLE\tADDED"}
		for _, m := range ms {
			lines = append(lines, fmt.Sprintf("%s\t%s\t%s", m.UserName, m.Role, m.AddedAt.Format("2006-01-02")))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	return tw.Flush()
}

// accessLines runs "room access ROOM": the room's access log, for its
// owners, with the members' names.
func accessLines(ctx context.Context, svc *rooms.Service, user *room.User, name string) (any, []string, error) {
	r, err := svc.Room(ctx, user.ID, name)
	if err != nil {
		return nil, nil, err
	}
	log, err := svc.AccessLog(ctx, user.ID, r.ID)
	if err != nil {
		return nil, nil, err
	}
	names := map[string]string{}
	if ms, err := svc.Members(ctx, user.ID, r.ID); err == nil {
		for _, m := range ms {
			names[m.UserID] = m.UserName
		}
	}
	lines := []string{"TIME	USER	ACTION	DOCUMENT	DETAIL"}
	for _, a := range log {
		who := names[a.UserID]
		if who == "" {
			who = a.UserID // no longer a member
		}
		lines = append(lines, rooms.AccessLine(a, who))
	}
	return log, lines, nil
}

// changeRoom runs "room delete ROOM" and "room remove-member ROOM USER"
// as user, and returns what --json prints and the lines for a person.
func changeRoom(ctx context.Context, svc *rooms.Service, user *room.User, sub string, args []string) (any, []string, error) {
	r, err := svc.Room(ctx, user.ID, args[0])
	if err != nil {
		return nil, nil, err
	}
	if sub == "remove-member" {
		if err := svc.RemoveMember(ctx, user.ID, r.ID, args[1]); err != nil {
			return nil, nil, err
		}
		return map[string]string{"room_id": r.ID, "removed": args[1]}, []string{fmt.Sprintf("%s is no longer a member of %s", args[1], r.Name)}, nil
	}
	docs, err := svc.Documents(ctx, user.ID, r.ID)
	if err != nil {
		return nil, nil, err
	}
	if err := svc.DeleteRoom(ctx, user.ID, r.ID); err != nil {
		return nil, nil, err
	}
	return map[string]any{"room_id": r.ID, "deleted": true, "documents": len(docs)},
		[]string{fmt.Sprintf("deleted room %s (%s) with its %d document(s), their files and every question asked in it", r.Name, r.ID, len(docs))}, nil
}

// runIngest implements "quarry ingest --room R FILE...": each file is
// uploaded and processed before the command returns, with progress on
// stderr. A file that fails is reported and the others go on; the exit
// status is 1 when any failed. A file whose content the room has already
// is reported (CONFLICT, with the document there) and skipped.
func runIngest(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf roomFlags
	rf.register(fs, getenv)
	roomName := fs.String("room", "", "the room (name or id)")
	flags, files := splitArgs(args)
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	if *roomName == "" || len(files) == 0 {
		return &usageError{`ingest needs --room and at least one file, e.g. quarry ingest --room deals report.pdf`}
	}
	svc, user, closeFn, err := rf.open(ctx, getenv)
	if err != nil {
		return err
	}
	defer closeFn()
	r, err := svc.Room(ctx, user.ID, *roomName)
	if err != nil {
		return err
	}
	svc.Progress = func(p room.Progress) {
		if p.Of > 0 {
			fmt.Fprintf(stderr, "  %s %d/%d\n", p.Message, p.Done, p.Of)
		}
	}
	failed := 0
	for _, path := range files {
		name := filepath.Base(path)
		d, err := app.UploadFile(ctx, svc, user.ID, r.ID, path)
		var dup *room.Duplicate
		if errors.As(err, &dup) {
			// The content is in the room already: reported, not stored
			// twice, and not a failure, so that an ingest can be run again.
			fmt.Fprintf(stderr, "%s: skipped: %s\n", name, oneLineError(err))
			continue
		}
		if err == nil {
			fmt.Fprintf(stderr, "%s: processing\n", name)
			err = app.ProcessUpload(ctx, svc, user.ID, d.ID)
		}
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "%s: failed: %s\n", name, oneLineError(err))
			continue
		}
		d, _ = svc.Document(ctx, user.ID, d.ID)
		fmt.Fprintf(stdout, "%s: %d pages, %d chunks%s\n", name, d.PageCount, d.ChunkCount, describeMeta(d.Meta))
		for _, n := range d.Notes {
			fmt.Fprintf(stdout, "  note: %s\n", n)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed", failed, len(files))
	}
	return nil
}

func describeMeta(m room.DocMeta) string {
	var parts []string
	if m.Company != "" {
		parts = append(parts, m.Company)
	}
	if m.FormType != "" {
		parts = append(parts, m.FormType)
	}
	if m.Period != "" {
		parts = append(parts, m.Period)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// askOutput is the --json shape of quarry ask.
type askOutput struct {
	QueryID         string          `json:"query_id"`
	AnswerType      string          `json:"answer_type"`
	Answer          string          `json:"answer"`
	Citations       []room.Citation `json:"citations"`
	RetrievalTimeMS int             `json:"retrieval_time_ms"`
	TotalTimeMS     int             `json:"total_time_ms"`
}

// runAsk implements "quarry ask --room R QUESTION".
func runAsk(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf roomFlags
	rf.register(fs, getenv)
	roomName := fs.String("room", "", "the room (name or id)")
	asJSON := fs.Bool("json", false, "print the answer as one JSON object")
	flags, rest := splitArgs(args)
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	if *roomName == "" || len(rest) != 1 {
		return &usageError{`ask needs --room and one question in quotes, e.g. quarry ask --room deals "what was FY2022 capex?"`}
	}
	rf.sample = true
	svc, user, closeFn, err := rf.open(ctx, getenv)
	if err != nil {
		return err
	}
	defer closeFn()
	r, err := svc.Room(ctx, user.ID, *roomName)
	if err != nil {
		return err
	}
	q, err := svc.Ask(room.WithActor(ctx, user.ID), user.ID, r.ID, rest[0])
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(askOutput{q.ID, q.AnswerType, q.Answer, q.Citations, q.RetrievalMS, q.TotalMS})
	}
	fmt.Fprintf(stdout, "%s\n\n", q.Answer)
	for _, c := range q.Citations {
		fmt.Fprintf(stdout, "[%d] %s, page %d (relevance %.2f)\n    %s\n", c.Rank, c.DocumentName, c.PageNumber, c.RelevanceScore, c.TextPreview)
	}
	fmt.Fprintf(stdout, "\n%s · %d ms · query %s\n", q.AnswerType, q.TotalMS, q.ID)
	return nil
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/web"
)

// envTrustForwardedFor says the server is behind a reverse proxy that
// appends the client's address to X-Forwarded-For.
const envTrustForwardedFor = "QUARRY_TRUST_FORWARDED_FOR"

// parseBoolSetting reads a true/false setting of the environment; "" is
// false.
func parseBoolSetting(name, v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, &usageError{fmt.Sprintf("%s=%q: want true or false", name, v)}
	}
	return b, nil
}

// Values of quarry serve --auth.
const (
	authLocal    = "local"
	authPassword = "password"
)

// webAuth is who the server's data rooms answer (quarry serve --auth):
// the local owner for every request, or the people who sign in with a
// password (and programs with a token), their cookies signed with a key
// kept in the data dir.
func webAuth(mode, dataDir string, svc *rooms.Service, owner *room.User, getenv func(string) string) (web.Authenticator, error) {
	switch mode {
	case authLocal:
		return web.LocalUser{Owner: owner}, nil
	case authPassword:
		key, err := web.LoadSessionKey(filepath.Join(dataDir, "secrets", "session.key"))
		if err != nil {
			return nil, err
		}
		trust, err := parseBoolSetting(envTrustForwardedFor, getenv(envTrustForwardedFor))
		if err != nil {
			return nil, err
		}
		return web.NewPasswordAuth(svc, key, web.PasswordAuthOptions{TrustForwardedFor: trust})
	}
	return nil, &usageError{fmt.Sprintf("--auth %q: want %s or %s", mode, authLocal, authPassword)}
}

// runUser implements "quarry user add NAME [--password-stdin] | passwd
// NAME [--password-stdin] | list | delete NAME": the people who may sign
// in to the data rooms with --auth password. Whoever can run quarry on the data dir
// manages them; nothing here is reachable over the network.
func runUser(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"user needs a subcommand: add NAME, passwd NAME, list or delete NAME"}
	}
	sub := args[0]
	fs := flag.NewFlagSet("user "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where rooms and users are stored (env QUARRY_DATA_DIR)")
	db := fs.String("db", getenv("QUARRY_DB"), "postgres://... the rooms' PostgreSQL database, as quarry serve --db (env QUARRY_DB)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input (add, passwd)")
	asJSON := fs.Bool("json", false, "print JSON (list)")
	flags, rest := splitArgs(args[1:])
	if help, err := parseFlags(fs, flags); help || err != nil {
		return err
	}
	want := map[string]int{"add": 1, "passwd": 1, "list": 0, "delete": 1}
	n, ok := want[sub]
	if !ok {
		return &usageError{fmt.Sprintf("unknown user subcommand %q: want add, passwd, list or delete", sub)}
	}
	if len(rest) != n {
		return &usageError{fmt.Sprintf("user %s takes %d argument(s), got %d", sub, n, len(rest))}
	}
	if sub == "passwd" && !*fromStdin {
		return &usageError{"user passwd needs --password-stdin, e.g. printf '%s\\n' \"$PASSWORD\" | quarry user passwd NAME --password-stdin"}
	}
	password := ""
	if *fromStdin {
		var err error
		if password, err = readPassword(stdin); err != nil {
			return err
		}
	}
	svc, _, closeFn, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: *dataDir, DB: *db})
	if err != nil {
		return err
	}
	defer closeFn()
	// Managing users is the application's own work, not a member's.
	ctx = room.WithActor(ctx, room.System)
	switch sub {
	case "add":
		u, err := svc.AddUser(ctx, rest[0], password)
		if err != nil {
			return err
		}
		how := "they sign in with their password (quarry serve --auth password)"
		if password == "" {
			how = "they have no password: give them an API token (quarry token create --user " + u.Name + ")"
		}
		fmt.Fprintf(stdout, "added user %s (%s); %s\n", u.Name, u.ID, how)
		return nil
	case "passwd":
		u, _, err := svc.Store.UserByName(ctx, rest[0])
		if err != nil {
			return noUser(rest[0], err)
		}
		if err := svc.SetPassword(ctx, u.ID, password); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "changed the password of %s; their earlier sign-ins have ended\n", u.Name)
		return nil
	case "delete":
		u, _, err := svc.Store.UserByName(ctx, rest[0])
		if err != nil {
			return noUser(rest[0], err)
		}
		if err := svc.DeleteUser(ctx, room.System, u.ID); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "deleted user %s (%s) with their memberships, tokens, questions and feedback, and the rooms they alone were in\n", u.Name, u.ID)
		return nil
	}
	users, err := svc.Store.ListUsers(ctx)
	if err != nil {
		return err
	}
	type row struct {
		Name     string `json:"name"`
		ID       string `json:"id"`
		Password bool   `json:"password"`
		Rooms    int    `json:"rooms"`
		Created  string `json:"created_at"`
	}
	rows := []row{}
	for _, u := range users {
		_, hash, err := svc.Store.UserByName(ctx, u.Name)
		if err != nil {
			return err
		}
		rs, err := svc.Rooms(ctx, u.ID)
		if err != nil {
			return err
		}
		rows = append(rows, row{u.Name, u.ID, hash != "", len(rs), u.CreatedAt.UTC().Format("2006-01-02")})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tID\tPASSWORD\tROOMS\tCREATED")
	for _, r := range rows {
		pw := "no"
		if r.Password {
			pw = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", r.Name, r.ID, pw, r.Rooms, r.Created)
	}
	return tw.Flush()
}

// readPassword reads the first line of r, without its line ending.
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", &usageError{"--password-stdin read no password: send it as the first line of standard input"}
	}
	return line, nil
}

// noUser turns a failed look-up by name into a NOT_FOUND that says how to
// add the user.
func noUser(name string, err error) error {
	if quarry.ErrorCode(err) != quarry.ECodeNotFound {
		return err
	}
	return quarry.Errorf(quarry.ECodeNotFound, "no user %s", name).WithHint("quarry user add " + name + " adds them; quarry user list shows who exists")
}

// runToken implements "quarry token create --user NAME [--name LABEL]":
// an API token for programs (Authorization: Bearer TOKEN on the API, or
// on quarry mcp --http --auth token), printed once, alone on stdout, only
// its hash kept; "quarry token list --user NAME": the user's tokens by ID,
// name and date; and "quarry token revoke --user NAME ID": that token
// stops working at once.
func runToken(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	const usage = "token needs a subcommand: create --user NAME [--name LABEL], list --user NAME, or revoke --user NAME ID"
	if len(args) == 0 || (args[0] != "create" && args[0] != "list" && args[0] != "revoke") {
		return &usageError{usage}
	}
	sub := args[0]
	fs := flag.NewFlagSet("token "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", defaultDataDir(getenv), "where rooms and users are stored (env QUARRY_DATA_DIR)")
	db := fs.String("db", getenv("QUARRY_DB"), "postgres://... the rooms' PostgreSQL database, as quarry serve --db (env QUARRY_DB)")
	userName := fs.String("user", "", "the user the tokens act for")
	label := ""
	if sub == "create" {
		fs.StringVar(&label, "name", "", "a label that says what the token is for (default: the date)")
	}
	help, positional, err := parseInterspersed(fs, args[1:])
	if help || err != nil {
		return err
	}
	if *userName == "" {
		return &usageError{"token " + sub + " needs --user NAME"}
	}
	if want := map[string]int{"create": 0, "list": 0, "revoke": 1}[sub]; len(positional) != want {
		if sub == "revoke" {
			return &usageError{"token revoke needs one token ID (quarry token list --user " + *userName + " shows them)"}
		}
		return &usageError{fmt.Sprintf("token %s takes no arguments, got %q", sub, positional)}
	}
	svc, _, closeFn, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: *dataDir, DB: *db})
	if err != nil {
		return err
	}
	defer closeFn()
	u, _, err := svc.Store.UserByName(room.WithActor(ctx, room.System), *userName)
	if err != nil {
		return noUser(*userName, err)
	}
	switch sub {
	case "list":
		ts, err := svc.ListTokens(ctx, u.ID)
		if err != nil {
			return err
		}
		if len(ts) == 0 {
			fmt.Fprintf(stderr, "%s has no API tokens (quarry token create --user %s makes one)\n", u.Name, u.Name)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCREATED")
		for _, t := range ts {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", t.ID, t.Name, t.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
		}
		return tw.Flush()
	case "revoke":
		if err := svc.RevokeToken(ctx, u.ID, positional[0]); err != nil {
			if quarry.ErrorCode(err) == quarry.ECodeNotFound {
				return quarry.Errorf(quarry.ECodeNotFound, "%s has no token %s", u.Name, positional[0]).
					WithHint("quarry token list --user " + u.Name + " shows their tokens")
			}
			return err
		}
		fmt.Fprintf(stderr, "Revoked token %s of %s; programs using it are refused from now on.\n", positional[0], u.Name)
		return nil
	}
	token, err := svc.CreateToken(ctx, u.ID, label)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintf(stderr, "This token acts as %s in the rooms they are a member of. It is shown only now; keep it secret.\n", u.Name)
	return nil
}

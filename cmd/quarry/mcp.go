package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/mcp"
)

// runMCP serves Quarry's tools to an AI agent over the Model Context
// Protocol: over stdin and stdout by default, for a client that starts
// quarry itself, or over streamable HTTP at /mcp with --http. In stdio
// mode stdout carries the protocol alone; the log goes to stderr.
func runMCP(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address instead of stdio, e.g. localhost:8765 (a bare :PORT binds localhost)")
	db := fs.String("db", getenv("QUARRY_DB"), "postgres://... reads the data rooms and keeps research results in PostgreSQL, as quarry serve --db (env QUARRY_DB)")
	authMode := fs.String("auth", "local", "who the data-room tools act for: local (the local owner) or token (with --http, every request needs Authorization: Bearer TOKEN from quarry token create, and acts for its user)")
	var af appFlags
	af.register(fs, getenv)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *authMode != "local" && (*authMode != "token" || *httpAddr == "") {
		return &usageError{fmt.Sprintf("--auth %s: want local, or token with --http", *authMode)}
	}
	wc, err := af.model.webConfig(getenv)
	if err != nil {
		return err
	}
	a, closeApp, err := af.open(ctx, getenv, stderr)
	if err != nil {
		return err
	}
	defer closeApp()
	w, err := af.model.open(getenv)
	if err != nil {
		return err
	}
	roomSvc, owner, closeRooms, err := app.OpenRoomsDB(ctx, app.RoomsOptions{DataDir: af.dataDir, DB: *db,
		Embedder: w.embedder, EmbeddingModel: w.embedModel, Model: w.model})
	if err != nil {
		return err
	}
	defer closeRooms()
	store, err := app.OpenResearchStore(ctx, af.dataDir, *db)
	if err != nil {
		return err
	}
	research := app.NewResearches(store, roomSvc, a.Runner, a.Log)
	defer research.Close()
	if err := useWeb(research, wc, a.Log); err != nil {
		return err
	}

	if *httpAddr == "" {
		// The client runs on this machine for its user, so it may name
		// files by path.
		srv := mcp.NewServer(a.Investigations, mcp.Options{AllowPaths: true, Log: a.Log, Analyses: a.Analyses, Rooms: roomSvc, RoomUser: owner, Research: research})
		err := srv.Run(ctx, mcp.NewIOTransport(stdin, stdout))
		if ctx.Err() != nil {
			return nil
		}
		// The client has gone; an investigation it started finishes
		// before the process exits (an interrupt still stops it).
		if n := a.Investigations.Drain(ctx); n > 0 {
			a.Log.Warn("stopped before investigations finished", "running", n)
		}
		return err
	}
	opt := mcp.Options{Log: a.Log, Analyses: a.Analyses, Rooms: roomSvc, RoomUser: owner, Research: research}
	if *authMode == "token" {
		opt.RoomUser = nil
	}
	h := mcp.NewHTTPHandler(mcp.NewServer(a.Investigations, opt), a.Log)
	if *authMode == "token" {
		h = mcp.RequireToken(h, roomSvc.UserByToken)
	}
	return serveMCPHTTP(ctx, h, *httpAddr, af.dataDir, stdout, a.Log)
}

// serveMCPHTTP serves h at /mcp on addr until ctx is done.
func serveMCPHTTP(ctx context.Context, h http.Handler, addr, dataDir string, stdout io.Writer, log *slog.Logger) error {
	ln, err := net.Listen("tcp", localByDefault(addr))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	fmt.Fprintf(stdout, "Quarry MCP server on http://%s/mcp (data in %s)\n", displayAddr(ln.Addr()), dataDir)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// localByDefault binds an address without a host (":8765") to localhost:
// without --auth token the MCP server has no authentication, so listening
// on every interface must be asked for by name ("0.0.0.0:8765").
func localByDefault(addr string) string {
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		return net.JoinHostPort("localhost", port)
	}
	return addr
}

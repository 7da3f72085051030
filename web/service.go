// Package web serves Quarry over HTTP: the JSON API of the specification,
// server-sent progress events, and the server-rendered pages (html/template
// with htmx, vendored and embedded). It talks to sessions through the
// Service interface; sessions.Manager implements it.
package web

import (
	"context"
	"io"

	"github.com/quarry-dev/quarry/investigation"
)

// Service is what the server needs from the session manager. Errors are
// *quarry.Error values carrying the specification's codes.
type Service interface {
	Create(ctx context.Context) (*investigation.Investigation, error)
	// Session returns a session; one past its expiry reads as expired.
	Session(ctx context.Context, id string) (*investigation.Investigation, error)
	// Sessions lists every session, newest first.
	Sessions(ctx context.Context) ([]*investigation.Investigation, error)
	Delete(ctx context.Context, id string) error

	// AddFile streams an upload into a session and profiles it.
	AddFile(ctx context.Context, id, name, description string, r io.Reader) (*investigation.UploadedFile, error)
	Files(ctx context.Context, id string) ([]*investigation.UploadedFile, error)
	DescribeFile(ctx context.Context, id, fileID, description string) (*investigation.UploadedFile, error)
	RemoveFile(ctx context.Context, id, fileID string) error

	// Investigate checks the request and starts the investigation in the
	// background.
	Investigate(ctx context.Context, id string, c investigation.Context) error
	// Context is the investigation request, nil before one was made.
	Context(ctx context.Context, id string) (*investigation.Context, error)
	// Subscribe replays the progress events so far and streams the rest;
	// the channel closes when the run ends (at once if none is running).
	Subscribe(ctx context.Context, id string) (past []investigation.Event, live <-chan investigation.Event, cancel func(), err error)
	Iterations(ctx context.Context, id string) ([]investigation.IterationLog, error)
	// DataModel is the inferred data model, nil before the schema step.
	DataModel(ctx context.Context, id string) (*investigation.DataModel, error)

	// Report is the report of a completed investigation; before that
	// INVESTIGATION_NOT_COMPLETE (SESSION_EXPIRED once expired).
	Report(ctx context.Context, id string) (*investigation.Report, error)
	Explanations(ctx context.Context, id string) ([]investigation.Explanation, error)
	// ArtifactPath is the file on disk of a session artifact such as
	// "charts/waterfall.png".
	ArtifactPath(ctx context.Context, id, rel string) (string, error)

	Chat(ctx context.Context, id, message string) (*investigation.ChatMessage, error)
	History(ctx context.Context, id string) ([]investigation.ChatMessage, error)
}

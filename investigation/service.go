package investigation

import (
	"context"
	"io"

	"github.com/quarry-dev/quarry"
)

// Service is the investigate job as the web server, the MCP server and
// the command line call it; investigations.Service implements it. The
// specification calls an investigation a session, hence the method names
// Session and Sessions. Errors are *quarry.Error values carrying the
// specification's codes.
type Service interface {
	// Create makes a session owned by the user ownerID ("" for the local
	// owner). The server, not the service, shows a session to its owner
	// alone (Server.mayUse).
	Create(ctx context.Context, ownerID string) (*Investigation, error)
	// Session returns a session; one past its expiry reads as expired.
	Session(ctx context.Context, id string) (*Investigation, error)
	// Sessions lists every session, newest first.
	Sessions(ctx context.Context) ([]*Investigation, error)
	Delete(ctx context.Context, id string) error

	// AddFile streams an upload into a session and profiles it.
	AddFile(ctx context.Context, id, name, description string, r io.Reader) (*UploadedFile, error)
	Files(ctx context.Context, id string) ([]*UploadedFile, error)
	DescribeFile(ctx context.Context, id, fileID, description string) (*UploadedFile, error)
	RemoveFile(ctx context.Context, id, fileID string) error

	// Investigate checks the request and starts the investigation in the
	// background.
	Investigate(ctx context.Context, id string, c Context) error
	// Context is the investigation request, nil before one was made.
	Context(ctx context.Context, id string) (*Context, error)
	// Subscribe replays the progress events so far and streams the rest;
	// the channel closes when the run ends (at once if none is running).
	Subscribe(ctx context.Context, id string) (past []Event, live <-chan Event, cancel func(), err error)
	Iterations(ctx context.Context, id string) ([]IterationLog, error)
	// DataModel is the inferred data model, nil before the schema step.
	DataModel(ctx context.Context, id string) (*DataModel, error)

	// Report is the report of a completed investigation; before that
	// INVESTIGATION_NOT_COMPLETE (SESSION_EXPIRED once expired).
	Report(ctx context.Context, id string) (*Report, error)
	Explanations(ctx context.Context, id string) ([]Explanation, error)
	// ArtifactPath is the file on disk of a session artifact such as
	// "charts/waterfall.png".
	ArtifactPath(ctx context.Context, id, rel string) (string, error)

	Chat(ctx context.Context, id, message string) (*ChatMessage, error)
	History(ctx context.Context, id string) ([]ChatMessage, error)
	// Tables returns the files of an investigation that may still be
	// queried, each with its SQL table name and profiled columns.
	Tables(ctx context.Context, id string) ([]*UploadedFile, error)
	// Query runs one audited, sandboxed, read-only SELECT over the tables.
	Query(ctx context.Context, id, sql string) (*quarry.QueryResult, error)
	// Wait waits for the run this process started to end and returns its
	// whole result; a failed run returns its recorded error.
	Wait(ctx context.Context, id string) (*Result, error)
}

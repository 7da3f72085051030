package analysis

import (
	"context"

	"github.com/quarry-dev/quarry"
)

// Service is the analyze job as the web server and the MCP server call it;
// analyses.Service implements it. Errors are *quarry.Error values.
type Service interface {
	// Start checks a request, stores its uploads and runs it in the
	// background, owned by the user ownerID ("" for the local owner).
	Start(ctx context.Context, ownerID string, req Request, uploads []Upload) (*Result, error)
	Get(ctx context.Context, id string) (*Result, error)
	List(ctx context.Context) ([]Summary, error)
	Subscribe(ctx context.Context, id string) (past []Event, live <-chan Event, cancel func(), err error)
	Audit(ctx context.Context, id string) ([]quarry.AuditEntry, error)
	VerifyAudit(ctx context.Context) (*AuditCheck, error)
	Artifact(ctx context.Context, id, artifactID string) (*Artifact, string, error)
	Recipes(ctx context.Context) ([]Recipe, error)
	// Wait waits for an analysis to end and returns its record.
	Wait(ctx context.Context, id string) (*Result, error)
}

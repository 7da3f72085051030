package web

import (
	"context"

	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/research"
)

// ResearchService is what the research API needs (researches.Service).
// Every method takes the acting user's id: a research belongs to the
// user who started it, and is NOT_FOUND to anyone else. Errors are
// *quarry.Error values.
type ResearchService interface {
	// Start checks the question and depth, opens the room idOrName
	// through its membership checks and runs the research in the
	// background, returning its request at once. Errors: INVALID for a
	// question outside 10-500 characters, an unknown depth or no room,
	// NOT_FOUND for a room userID is not a member of, EMPTY_FILE for a
	// room without a processed document.
	Start(ctx context.Context, userID, question, depth, idOrName string) (*research.Request, error)
	// Get returns a research: while it runs, its request alone (the
	// status of its current stage); then its result.
	Get(ctx context.Context, userID, id string) (*research.Result, error)
	// Subscribe returns the stages so far and a channel of those to
	// come, closed when the research ends.
	Subscribe(ctx context.Context, userID, id string) (past []agent.Stage, live <-chan agent.Stage, cancel func(), err error)
	// List returns userID's researches, newest first, those still
	// running included (as of their current stage).
	List(ctx context.Context, userID string) ([]research.Request, error)
}

// WebResearchService is a ResearchService that can search the web too
// (researches.Service), an optional capability: the API's {"web": true}
// needs it, and a server without it answers INVALID. The research form
// offers the web when WebSource names a provider.
type WebResearchService interface {
	ResearchService
	// WebSource names the web as a source with its provider, "the web
	// (SearxNG at ...)", or is "" when no provider is configured.
	WebSource() string
	// StartWeb is Start over the room idOrName ("" for none) and the
	// web. Errors: those of Start, and INVALID when no web search
	// provider is configured (its hint names the settings).
	StartWeb(ctx context.Context, userID, question, depth, idOrName string) (*research.Request, error)
}

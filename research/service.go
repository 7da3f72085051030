package research

import "context"

// Service is the research job as the web server, the MCP server and the
// command line call it; researches.Service implements it. Every method
// takes the acting user's id: a research belongs to the user who started
// it, and is NOT_FOUND to anyone else. Errors are *quarry.Error values.
type Service interface {
	// Start checks the question and depth, opens the room idOrName
	// through its membership checks and runs the research in the
	// background, returning its request at once. Errors: INVALID for a
	// question outside 10-500 characters, an unknown depth or no room,
	// NOT_FOUND for a room userID is not a member of, EMPTY_FILE for a
	// room without a processed document.
	Start(ctx context.Context, userID, question, depth, idOrName string) (*Request, error)
	// Get returns a research: while it runs, its request alone (the
	// status of its current stage); then its result.
	Get(ctx context.Context, userID, id string) (*Result, error)
	// Subscribe returns the stages so far and a channel of those to
	// come, closed when the research ends.
	Subscribe(ctx context.Context, userID, id string) (past []Stage, live <-chan Stage, cancel func(), err error)
	// List returns userID's researches, newest first, those still
	// running included (as of their current stage).
	List(ctx context.Context, userID string) ([]Request, error)
	// Research researches question for userID over the room idOrName
	// ("" for none) and, when web is set, the web, to its end, saves the
	// result and returns it; progress, when set, hears each stage.
	// Errors: INVALID for a question outside 10-500 characters, an
	// unknown depth, neither a room nor the web, or the web when no
	// search provider is configured (its hint names the settings);
	// NOT_FOUND for a room userID is not a member of, EMPTY_FILE for a
	// room without a processed document; UNAVAILABLE when every source
	// failed.
	Research(ctx context.Context, userID, question, depth, idOrName string, web bool, progress func(Stage)) (*Result, error)
}

// WebService is a Service that can search the web too, an optional
// capability: the API's {"web": true} needs it, and a server without it
// answers INVALID. The research form offers the web when WebSource names
// a provider.
type WebService interface {
	Service
	// WebSource names the web as a source with its provider, "the web
	// (SearxNG at ...)", or is "" when no provider is configured.
	WebSource() string
	// StartWeb is Start over the room idOrName ("" for none) and the
	// web. Errors: those of Start, and INVALID when no web search
	// provider is configured (its hint names the settings).
	StartWeb(ctx context.Context, userID, question, depth, idOrName string) (*Request, error)
}

package room

import "context"

// System is the actor of the application's own work: document processing
// by workers, start-up, sweeping stale rate-limit windows, administration
// from the command line. A store with row-level security lets it see every
// room.
const System = "system"

type actorKey struct{}

// WithActor returns ctx naming who the store works for: a user's id, or
// System. rooms.Service names the user on every call it makes for one, so
// a store with its own access rules (postgres.Rooms, whose row-level
// security policies are a second wall behind the service's membership
// checks) sees only that user's rooms.
func WithActor(ctx context.Context, userID string) context.Context {
	return context.WithValue(ctx, actorKey{}, userID)
}

// ActorOf returns the actor WithActor put in ctx, and whether there is one.
func ActorOf(ctx context.Context) (string, bool) {
	a, ok := ctx.Value(actorKey{}).(string)
	return a, ok && a != ""
}

package mcp

import (
	"context"
	"io"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/room"
)

// tokenUser is the user whose token the HTTP request of this tool call
// carried (RequireToken), nil over stdio and without tokens: then the
// server is single-user and its local owner owns everything.
func tokenUser(ctx context.Context) *room.User {
	if req, ok := ctx.Value(requestKey{}).(*mcpsdk.CallToolRequest); ok && req.Extra != nil && req.Extra.TokenInfo != nil {
		if u, ok := req.Extra.TokenInfo.Extra[tokenUserKey].(*room.User); ok {
			return u
		}
	}
	return nil
}

// owned is the investigations as a tool call's user may see them: with a
// token, only the user's own (room.Owns), another's answering
// SESSION_NOT_FOUND exactly as a missing one; without, every one. New
// investigations are the caller's. It is the web's access rule
// (web/access.go) for the MCP tools, which call the service through it.
type owned struct{ investigation.Service }

func (o owned) check(ctx context.Context, id string) error {
	u := tokenUser(ctx)
	if u == nil {
		return nil
	}
	s, err := o.Service.Session(ctx, id)
	if err != nil {
		return err
	}
	if !room.Owns(u, s.OwnerID) {
		return quarry.Errorf(quarry.ECodeSessionNotFound, "session %s does not exist", id)
	}
	return nil
}

func (o owned) Create(ctx context.Context, _ string) (*investigation.Investigation, error) {
	owner := ""
	if u := tokenUser(ctx); u != nil {
		owner = u.ID
	}
	return o.Service.Create(ctx, owner)
}

func (o owned) Sessions(ctx context.Context) ([]*investigation.Investigation, error) {
	all, err := o.Service.Sessions(ctx)
	u := tokenUser(ctx)
	if err != nil || u == nil {
		return all, err
	}
	var mine []*investigation.Investigation
	for _, s := range all {
		if room.Owns(u, s.OwnerID) {
			mine = append(mine, s)
		}
	}
	return mine, nil
}

func (o owned) Session(ctx context.Context, id string) (*investigation.Investigation, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Session(ctx, id)
}

func (o owned) Delete(ctx context.Context, id string) error {
	if err := o.check(ctx, id); err != nil {
		return err
	}
	return o.Service.Delete(ctx, id)
}

func (o owned) AddFile(ctx context.Context, id, name, description string, r io.Reader) (*investigation.UploadedFile, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.AddFile(ctx, id, name, description, r)
}

func (o owned) Tables(ctx context.Context, id string) ([]*investigation.UploadedFile, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Tables(ctx, id)
}

func (o owned) Query(ctx context.Context, id, sql string) (*quarry.QueryResult, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Query(ctx, id, sql)
}

func (o owned) Investigate(ctx context.Context, id string, c investigation.Context) error {
	if err := o.check(ctx, id); err != nil {
		return err
	}
	return o.Service.Investigate(ctx, id, c)
}

func (o owned) Context(ctx context.Context, id string) (*investigation.Context, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Context(ctx, id)
}

func (o owned) Subscribe(ctx context.Context, id string) ([]investigation.Event, <-chan investigation.Event, func(), error) {
	if err := o.check(ctx, id); err != nil {
		return nil, nil, nil, err
	}
	return o.Service.Subscribe(ctx, id)
}

func (o owned) Report(ctx context.Context, id string) (*investigation.Report, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Report(ctx, id)
}

func (o owned) Explanations(ctx context.Context, id string) ([]investigation.Explanation, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Explanations(ctx, id)
}

func (o owned) Chat(ctx context.Context, id, message string) (*investigation.ChatMessage, error) {
	if err := o.check(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Chat(ctx, id, message)
}

// ownedAnalyses is the analyses as a tool call's user may see them, as
// owned is for investigations: another's analysis is NOT_FOUND.
type ownedAnalyses struct{ analysis.Service }

func (o ownedAnalyses) Start(ctx context.Context, _ string, req analysis.Request, uploads []analysis.Upload) (*analysis.Result, error) {
	owner := ""
	if u := tokenUser(ctx); u != nil {
		owner = u.ID
	}
	return o.Service.Start(ctx, owner, req, uploads)
}

func (o ownedAnalyses) Get(ctx context.Context, id string) (*analysis.Result, error) {
	res, err := o.Service.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if u := tokenUser(ctx); u != nil && !room.Owns(u, res.Request.OwnerID) {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no analysis %s", id)
	}
	return res, nil
}

func (o ownedAnalyses) Wait(ctx context.Context, id string) (*analysis.Result, error) {
	if _, err := o.Get(ctx, id); err != nil {
		return nil, err
	}
	return o.Service.Wait(ctx, id)
}

package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// roomInstructions are added to the server's instructions when it has the
// room tools.
const roomInstructions = `

Data rooms hold documents (filings, contracts, board packs) and the people allowed to ask about them. list_rooms shows the rooms you are a member of with their documents; ask_room answers a question from a room's documents, quoting the passages with their document and page; get_room_page reads a cited page whole; delete_room and remove_room_member delete a room or take a member out, for good, and only when the user asked for it. An answer of type insufficient_evidence means the room does not say: do not guess beyond it.`

type listRoomsIn struct{}

type roomDocument struct {
	DocumentID string `json:"document_id"`
	Name       string `json:"name"`
	Format     string `json:"format"`
	Status     string `json:"processing_status" jsonschema:"pending, processing, completed or failed; only completed documents are searched"`
	Pages      int    `json:"page_count"`
	Error      string `json:"error,omitempty"`
}

type roomInfo struct {
	RoomID      string         `json:"room_id"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Role        string         `json:"role" jsonschema:"your role: owner, editor or viewer"`
	Documents   []roomDocument `json:"documents"`
}

type listRoomsOut struct {
	Rooms []roomInfo `json:"rooms"`
}

type askRoomIn struct {
	Room     string `json:"room" jsonschema:"the room's name or room_id, as list_rooms gives them"`
	Question string `json:"question" jsonschema:"the question, 5 to 2000 characters, e.g. What was capex in 2023?"`
}

type roomCitation struct {
	Rank         int     `json:"rank"`
	DocumentID   string  `json:"document_id"`
	DocumentName string  `json:"document_name"`
	PageNumber   int     `json:"page_number"`
	Relevance    float64 `json:"relevance_score" jsonschema:"0 to 1"`
	Preview      string  `json:"text_preview" jsonschema:"the cited passage, about 240 characters"`
}

type askRoomOut struct {
	QueryID    string         `json:"query_id"`
	AnswerType string         `json:"answer_type" jsonschema:"grounded, insufficient_evidence (the room does not say; the answer says what was searched) or error"`
	Answer     string         `json:"answer"`
	Citations  []roomCitation `json:"citations"`
	Next       string         `json:"next"`
}

type getPageIn struct {
	DocumentID string `json:"document_id" jsonschema:"the document's id, from a citation or list_rooms"`
	PageNumber int    `json:"page_number" jsonschema:"the page, from 1"`
}

type deleteRoomIn struct {
	Room    string `json:"room" jsonschema:"the room's name or room_id, as list_rooms gives them"`
	Confirm string `json:"confirm" jsonschema:"the room's name again, exactly, to confirm its deletion"`
}

type removeMemberIn struct {
	Room   string `json:"room" jsonschema:"the room's name or room_id, as list_rooms gives them"`
	Member string `json:"member" jsonschema:"the member's user name; your own to leave the room"`
}

type changedOut struct {
	RoomID string `json:"room_id"`
	Done   string `json:"done"`
}

type getPageOut struct {
	DocumentID   string `json:"document_id"`
	DocumentName string `json:"document_name"`
	PageNumber   int    `json:"page_number"`
	PageCount    int    `json:"page_count"`
	Text         string `json:"text"`
}

func (t *tools) addRoomTools(s *mcpsdk.Server) {
	if t.opt.Rooms == nil {
		return
	}
	addRoomTool(s, t, "list_rooms", readOnly("List data rooms"), t.listRooms,
		"List the data rooms you are a member of, with your role and each room's documents (document_id, name, processing status, pages). "+
			"A room you are not a member of does not appear and cannot be reached by any tool.")
	addRoomTool(s, t, "ask_room", changes("Ask a data room"), t.askRoom,
		"Ask a data room a question about its documents. The answer quotes the passages it rests on, each cited with its document, page, relevance and a preview; "+
			"insufficient_evidence means the room does not say, with what was searched. Each question is recorded in your history and counts against 60 per hour per room.")
	addRoomTool(s, t, "get_room_page", readOnly("Read a document page"), t.getPage,
		"Read one page of a data-room document whole, by its document_id and page_number (as a citation gives them), to check a cited passage in its context.")
	addRoomTool(s, t, "delete_room", destroys("Delete a data room"), t.deleteRoom,
		"Delete a data room you own, for good: its documents with their files, its members and every question asked in it. "+
			"Give the room's name in confirm too. Only the room's owners may; ask the user before calling it.")
	addRoomTool(s, t, "remove_room_member", destroys("Remove a room member"), t.removeMember,
		"Take a member out of a data room: an owner removes anyone, a member themselves (leaving the room). "+
			"The room's last owner cannot be removed (CONFLICT).")
}

// addRoomTool adds a room tool that acts for the caller (asUser).
func addRoomTool[In, Out any](s *mcpsdk.Server, t *tools, name string, a *mcpsdk.ToolAnnotations,
	h func(ctx context.Context, u *room.User, in In) (Out, string, error), description string) {
	add(s, t, &mcpsdk.Tool{Name: name, Description: description, Annotations: a}, asUser(t, h))
}

// asUser adapts a room tool to the handler add takes: the tool runs for
// the caller (roomUser), named as the store's actor too (room.WithActor,
// for a store with row-level security), or the call fails UNAUTHORIZED.
func asUser[In, Out any](t *tools, h func(ctx context.Context, u *room.User, in In) (Out, string, error)) handler[In, Out] {
	return func(ctx context.Context, in In) (Out, string, error) {
		u, err := t.roomUser(ctx)
		if err != nil {
			var zero Out
			return zero, "", err
		}
		return h(room.WithActor(ctx, u.ID), u, in)
	}
}

func (t *tools) listRooms(ctx context.Context, u *room.User, _ listRoomsIn) (listRoomsOut, string, error) {
	rs, err := t.opt.Rooms.Rooms(ctx, u.ID)
	if err != nil {
		return listRoomsOut{}, "", err
	}
	out := listRoomsOut{Rooms: []roomInfo{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d room(s) of %s", len(rs), u.Name)
	for _, r := range rs {
		docs, err := t.opt.Rooms.Documents(ctx, u.ID, r.ID)
		if err != nil {
			return listRoomsOut{}, "", err
		}
		info := roomInfo{RoomID: r.ID, Name: r.Name, Description: r.Description, Role: r.Role, Documents: []roomDocument{}}
		fmt.Fprintf(&b, "\n\n%s (room_id %s, you are %s), %d document(s)", r.Name, r.ID, r.Role, len(docs))
		for _, d := range docs {
			info.Documents = append(info.Documents, roomDocument{DocumentID: d.ID, Name: d.Name, Format: d.Format, Status: d.Status, Pages: d.PageCount, Error: d.Error})
			fmt.Fprintf(&b, "\n- %s (document_id %s): %s, %d page(s)", d.Name, d.ID, d.Status, d.PageCount)
		}
		out.Rooms = append(out.Rooms, info)
	}
	return out, b.String(), nil
}

func (t *tools) askRoom(ctx context.Context, u *room.User, in askRoomIn) (askRoomOut, string, error) {
	r, err := t.opt.Rooms.Room(ctx, u.ID, strings.TrimSpace(in.Room))
	if err != nil {
		return askRoomOut{}, "", err
	}
	q, err := t.opt.Rooms.Ask(ctx, u.ID, r.ID, in.Question)
	if err != nil {
		return askRoomOut{}, "", err
	}
	out := askRoomOut{QueryID: q.ID, AnswerType: q.AnswerType, Answer: q.Answer, Citations: []roomCitation{},
		Next: "get_room_page with a citation's document_id and page_number reads the cited page whole"}
	var b strings.Builder
	b.WriteString(q.Answer)
	for _, c := range q.Citations {
		out.Citations = append(out.Citations, roomCitation{Rank: c.Rank, DocumentID: c.DocumentID, DocumentName: c.DocumentName,
			PageNumber: c.PageNumber, Relevance: c.RelevanceScore, Preview: c.TextPreview})
		fmt.Fprintf(&b, "\n\n[%d] %s, page %d (document_id %s, relevance %.2f):\n%s", c.Rank, c.DocumentName, c.PageNumber, c.DocumentID, c.RelevanceScore, c.TextPreview)
	}
	fmt.Fprintf(&b, "\n\n(%s; query %s)", q.AnswerType, q.ID)
	return out, b.String(), nil
}

func (t *tools) getPage(ctx context.Context, u *room.User, in getPageIn) (getPageOut, string, error) {
	d, err := t.opt.Rooms.Document(ctx, u.ID, strings.TrimSpace(in.DocumentID))
	if err != nil {
		return getPageOut{}, "", err
	}
	if in.PageNumber < 1 || in.PageNumber > d.PageCount {
		return getPageOut{}, "", quarry.Errorf(quarry.ECodeNotFound, "%s has no page %d", d.Name, in.PageNumber).
			WithHint(fmt.Sprintf("its pages are 1 to %d", d.PageCount))
	}
	p, err := t.opt.Rooms.View(ctx, u.ID, d.ID, in.PageNumber) // a page read is in the access log
	if err != nil {
		return getPageOut{}, "", err
	}
	out := getPageOut{DocumentID: d.ID, DocumentName: d.Name, PageNumber: p.Number, PageCount: d.PageCount, Text: p.Text}
	return out, fmt.Sprintf("%s, page %d of %d:\n\n%s", d.Name, p.Number, d.PageCount, p.Text), nil
}

// requestKey carries a tool call's request in its context (add puts it
// there), for the room tools to find the caller's verified token.
type requestKey struct{}

func withRequest(ctx context.Context, req *mcpsdk.CallToolRequest) context.Context {
	return context.WithValue(ctx, requestKey{}, req)
}

// tokenUserKey is where RequireToken keeps the token's user in the
// SDK's TokenInfo.
const tokenUserKey = "quarry_user"

// roomUser is who a room tool acts for: the user of the request's
// verified Bearer token (RequireToken), else Options.RoomUser. Errors:
// UNAUTHORIZED when there is neither.
func (t *tools) roomUser(ctx context.Context) (*room.User, error) {
	if u := tokenUser(ctx); u != nil {
		return u, nil
	}
	if t.opt.RoomUser != nil {
		return t.opt.RoomUser, nil
	}
	return nil, quarry.Errorf(quarry.ECodeUnauthorized, "the data-room tools need to know who you are").
		WithHint("connect with Authorization: Bearer TOKEN, a token from quarry token create --user NAME")
}

// RequireToken makes every request to h (NewHTTPHandler's) carry
// "Authorization: Bearer TOKEN" of a user; others get 401. The room tools
// then act for the token's user, and the SDK keeps each MCP session to
// the user that opened it. userByToken answers UNAUTHORIZED for a token
// that is not valid (rooms.Service.UserByToken).
func RequireToken(h http.Handler, userByToken func(ctx context.Context, token string) (*room.User, error)) http.Handler {
	verify := func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		u, err := userByToken(ctx, token)
		if quarry.ErrorCode(err) == quarry.ECodeUnauthorized {
			return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, quarry.ErrorMessage(err))
		}
		if err != nil {
			// The detail is not for the client: the SDK would send it.
			return nil, errors.New("the token could not be checked")
		}
		return &auth.TokenInfo{UserID: u.ID, Extra: map[string]any{tokenUserKey: u}}, nil
	}
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}

func (t *tools) deleteRoom(ctx context.Context, u *room.User, in deleteRoomIn) (changedOut, string, error) {
	return t.changeRoom(ctx, u, in.Room, func(r *room.Room) (string, error) {
		if strings.TrimSpace(in.Confirm) != r.Name {
			return "", quarry.Errorf(quarry.ECodeInvalid, "confirm %q is not the room's name, %s", in.Confirm, r.Name)
		}
		return fmt.Sprintf("deleted room %s (room_id %s) with its documents, members and questions", r.Name, r.ID),
			t.opt.Rooms.DeleteRoom(ctx, u.ID, r.ID)
	})
}

func (t *tools) removeMember(ctx context.Context, u *room.User, in removeMemberIn) (changedOut, string, error) {
	return t.changeRoom(ctx, u, in.Room, func(r *room.Room) (string, error) {
		return fmt.Sprintf("%s is no longer a member of %s", strings.TrimSpace(in.Member), r.Name),
			t.opt.Rooms.RemoveMember(ctx, u.ID, r.ID, in.Member)
	})
}

// changeRoom finds the room ref names for u and makes a change to it,
// which says what it did.
func (t *tools) changeRoom(ctx context.Context, u *room.User, ref string, change func(*room.Room) (string, error)) (changedOut, string, error) {
	r, err := t.opt.Rooms.Room(ctx, u.ID, strings.TrimSpace(ref))
	if err != nil {
		return changedOut{}, "", err
	}
	done, err := change(r)
	if err != nil {
		return changedOut{}, "", err
	}
	return changedOut{RoomID: r.ID, Done: done}, done, nil
}

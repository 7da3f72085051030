package rooms

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// roomDir is the folder of a room's files: its documents' uploads.
func (s *Service) roomDir(roomID string) string {
	return filepath.Join(s.Dir, "rooms", roomID)
}

// DeleteRoom deletes roomID with everything in it, as the data model
// cascades: its members, documents with their pages and chunks (and so
// whatever a search could find of them), and the questions asked in it
// with their citations and feedback; then the documents' files. Only an
// owner may. Errors: NOT_FOUND for a room userID is not in, FORBIDDEN for
// a member who is not an owner.
func (s *Service) DeleteRoom(ctx context.Context, userID, roomID string) error {
	ctx = act(ctx, userID)
	m, err := s.access(ctx, userID, roomID, room.RoleViewer)
	if err != nil {
		return err
	}
	if m.Role != room.RoleOwner {
		return s.refused(roomID, userID, "delete_room", roomID,
			quarry.Errorf(quarry.ECodeForbidden, "deleting a room needs the owner role in it; you are a %s", m.Role))
	}
	return s.deleteRoom(ctx, userID, roomID)
}

// deleteRoom deletes a room and then its files, its decision recorded
// as userID's (or the administrator's, room.System).
func (s *Service) deleteRoom(ctx context.Context, userID, roomID string) error {
	r, err := s.Store.Room(ctx, roomID)
	if err != nil {
		return err
	}
	docs, err := s.Store.ListDocuments(ctx, roomID)
	if err != nil {
		return err
	}
	decision := map[string]any{"action": "delete_room", "room_id": roomID, "name": r.Name, "documents": len(docs)}
	if err := s.change(roomID, userID, decision, func() error { return s.Store.DeleteRoom(ctx, roomID) }); err != nil {
		return err
	}
	return s.removeRoomFiles(roomID)
}

// removeRoomFiles removes a deleted room's folder. The room is gone from
// the store already; a folder that cannot be removed is logged, and the
// caller told the files could not all be removed.
func (s *Service) removeRoomFiles(roomID string) error {
	err := os.RemoveAll(s.roomDir(roomID))
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return nil
	}
	s.log().Error("remove a deleted room's files", "room", roomID, "err", err)
	return quarry.Errorf(quarry.ECodeInternal, "the room was deleted, but not all of its files could be removed").
		WithHint("the server's log names the folder to remove")
}

// DeleteUser deletes the user userID with what the data model cascades
// from them (the right to erasure): their memberships, API tokens,
// questions with their citations and feedback, and rate-limit windows.
// A room they alone are a member of goes too, files and all; documents
// they uploaded to rooms that others keep stay in those rooms. actorID
// is who asks: the user themselves, or the administrator (room.System,
// the command line's quarry user delete). Errors: NOT_FOUND for an
// unknown user; FORBIDDEN for anyone else, and for the local owner,
// whom single-user mode and the command line act as; CONFLICT when the
// user is the last owner of a room that has other members (it must keep
// an owner: make one of them an owner, or delete the room, first).
func (s *Service) DeleteUser(ctx context.Context, actorID, userID string) error {
	ctx = act(ctx, room.System)
	if actorID != userID && actorID != room.System {
		return quarry.Errorf(quarry.ECodeForbidden, "only the user themselves or the administrator may delete a user")
	}
	u, err := s.Store.User(ctx, userID)
	if err != nil {
		return err
	}
	if u.Name == room.LocalOwner {
		return quarry.Errorf(quarry.ECodeForbidden, "the local owner (%s) acts for the command line and single-user mode; it cannot be deleted", u.Name).
			WithHint("quarry serve --auth password gives people accounts of their own")
	}
	alone, err := s.roomsToDelete(ctx, u)
	if err != nil {
		return err
	}
	for _, id := range alone {
		if err := s.deleteRoom(ctx, actorID, id); err != nil {
			return err
		}
	}
	decision := map[string]any{"action": "delete_user", "member_id": u.ID, "member_name": u.Name, "rooms_deleted": len(alone)}
	return s.change(u.ID, actorID, decision, func() error { return s.Store.DeleteUser(ctx, u.ID) })
}

// roomsToDelete lists the rooms u alone is a member of, which go with
// them. Errors: CONFLICT, naming the rooms, when u is the last owner of
// rooms that others are members of.
func (s *Service) roomsToDelete(ctx context.Context, u *room.User) ([]string, error) {
	rs, err := s.Store.RoomsOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	var alone, kept []string
	for _, r := range rs {
		if r.Role != room.RoleOwner {
			continue
		}
		ms, err := s.Store.Members(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		owners := 0
		for _, m := range ms {
			if m.Role == room.RoleOwner {
				owners++
			}
		}
		switch {
		case len(ms) == 1:
			alone = append(alone, r.ID)
		case owners == 1:
			kept = append(kept, r.Name+" ("+r.ID+")")
		}
	}
	if len(kept) > 0 {
		return nil, quarry.Errorf(quarry.ECodeConflict, "%s is the last owner of %s, which others are members of; a room must keep an owner",
			u.Name, strings.Join(kept, ", ")).
			WithHint("make another member an owner of each, or delete them, first")
	}
	return alone, nil
}

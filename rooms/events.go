package rooms

import (
	"context"
	"sync"

	"github.com/quarry-dev/quarry/room"
)

// watchBuffer is how many steps a watcher may fall behind before it is
// dropped; it can watch again and gets the latest step of each document.
const watchBuffer = 64

// feed fans processing steps out to the watchers of each room and keeps
// the latest step of every document still being processed, so a page
// opened mid-way shows where each document is. The zero value is ready.
type feed struct {
	mu     sync.Mutex
	rooms  map[string]map[chan room.Progress]struct{} // watchers by room
	latest map[string]room.Progress                   // unfinished documents by id
}

func (f *feed) publish(p room.Progress) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.latest == nil {
		f.latest = map[string]room.Progress{}
	}
	if p.Status == room.StatusCompleted || p.Status == room.StatusFailed {
		delete(f.latest, p.DocumentID)
	} else {
		f.latest[p.DocumentID] = p
	}
	for c := range f.rooms[p.RoomID] {
		select {
		case c <- p:
		default: // too slow: drop it rather than stall processing
			delete(f.rooms[p.RoomID], c)
			close(c)
		}
	}
}

func (f *feed) subscribe(roomID string) (latest []room.Progress, live chan room.Progress) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.latest {
		if p.RoomID == roomID {
			latest = append(latest, p)
		}
	}
	if f.rooms == nil {
		f.rooms = map[string]map[chan room.Progress]struct{}{}
	}
	if f.rooms[roomID] == nil {
		f.rooms[roomID] = map[chan room.Progress]struct{}{}
	}
	live = make(chan room.Progress, watchBuffer)
	f.rooms[roomID][live] = struct{}{}
	return latest, live
}

func (f *feed) unsubscribe(roomID string, c chan room.Progress) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.rooms[roomID][c]; ok {
		delete(f.rooms[roomID], c)
		close(c)
	}
	if len(f.rooms[roomID]) == 0 {
		delete(f.rooms, roomID)
	}
}

// Watch streams how the processing of a room's documents goes, for a
// user who may read the room: the latest step of each document being
// processed now, then every step as this process's workers take it. The
// channel closes when cancel is called or the watcher falls too far
// behind. Errors: NOT_FOUND for a room the user is not in.
func (s *Service) Watch(ctx context.Context, userID, roomID string) (latest []room.Progress, live <-chan room.Progress, cancel func(), err error) {
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return nil, nil, nil, err
	}
	latest, c := s.events.subscribe(roomID)
	return latest, c, func() { s.events.unsubscribe(roomID, c) }, nil
}

// Latest returns the latest processing step of a document being
// processed by this process, nil when there is none (pending, finished,
// or processed elsewhere). Errors: NOT_FOUND as Document.
func (s *Service) Latest(ctx context.Context, userID, documentID string) (*room.Progress, error) {
	if _, err := s.document(ctx, userID, documentID, room.RoleViewer); err != nil {
		return nil, err
	}
	s.events.mu.Lock()
	defer s.events.mu.Unlock()
	p, ok := s.events.latest[documentID]
	if !ok {
		return nil, nil
	}
	return &p, nil
}

package rooms

import (
	"context"
	"fmt"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// TakeQuestion counts one question of userID in the room roomID against
// the room's hourly limit, as Ask does: a research over the room is a
// question asked there (researches.Service takes one per research).
// Errors: NOT_FOUND for a room the user is not in, RATE_LIMITED as
// *room.RateLimited (with the seconds until the window ends) past
// room.QueriesPerHour.
func (s *Service) TakeQuestion(ctx context.Context, userID, roomID string) error {
	ctx = act(ctx, userID)
	if _, err := s.access(ctx, userID, roomID, room.RoleViewer); err != nil {
		return err
	}
	return s.takeQuota(ctx, userID, roomID, s.now())
}

// takeQuota takes one question of userID's quota in roomID at start.
// Errors: RATE_LIMITED as *room.RateLimited past room.QueriesPerHour,
// which the audit log records.
func (s *Service) takeQuota(ctx context.Context, userID, roomID string, start time.Time) error {
	window := start.UTC().Truncate(time.Hour)
	ok, n, err := s.Store.TakeQuota(ctx, userID, roomID, window, room.QueriesPerHour)
	if err != nil {
		return err
	}
	if n == 1 {
		// A user's first question of an hour sweeps the windows past the
		// specification's two hours of keeping them.
		if _, err := s.Store.CleanQuotas(room.WithActor(ctx, room.System), start.Add(-room.QuotaRetention)); err != nil {
			s.log().Warn("cleaning old rate-limit windows failed", "err", err)
		}
	}
	if !ok {
		s.recordLimited(userID, roomID)
		retry := int(window.Add(time.Hour).Sub(start).Seconds()) + 1
		return &room.RateLimited{RetryAfter: retry, Err: quarry.Errorf(quarry.ECodeRateLimited,
			"%d questions in this room this hour is the limit", room.QueriesPerHour).WithHint(fmt.Sprintf("ask again in %d minutes", (retry+59)/60))}
	}
	return nil
}

package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// CreateUser implements room.Users. Errors: CONFLICT for a taken name
// (names are case-insensitive).
func (s *Rooms) CreateUser(ctx context.Context, u *room.User, passwordHash string) error {
	_, err := s.exec(ctx, "INSERT INTO users (id, name, email, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
		u.ID, u.Name, u.Email, passwordHash, u.CreatedAt)
	if quarry.ErrorCode(dbError(err, "")) == quarry.ECodeConflict {
		return quarry.Errorf(quarry.ECodeConflict, "a user called %s exists", u.Name)
	}
	return dbError(err, "user")
}

const userColumns = "u.id, u.name, u.email, u.created_at"

func scanUser(row pgx.Row, u *room.User, extra ...any) error {
	return row.Scan(append([]any{&u.ID, &u.Name, &u.Email, &u.CreatedAt}, extra...)...)
}

// User implements room.Users.
func (s *Rooms) User(ctx context.Context, id string) (*room.User, error) {
	if !isID(id) {
		return nil, noSuch("user", id)
	}
	var u room.User
	err := s.one(ctx, "user", id, func(r pgx.Row) error { return scanUser(r, &u) }, "SELECT "+userColumns+" FROM users u WHERE u.id = $1", id)
	return orNil(&u, err)
}

// UserByName implements room.Users.
func (s *Rooms) UserByName(ctx context.Context, name string) (*room.User, string, error) {
	var u room.User
	var hash string
	err := s.one(ctx, "user", name, func(r pgx.Row) error { return scanUser(r, &u, &hash) },
		"SELECT "+userColumns+", u.password_hash FROM users u WHERE lower(u.name) = lower($1)", name)
	if err != nil {
		return nil, "", err
	}
	return &u, hash, nil
}

// ListUsers implements room.Users.
func (s *Rooms) ListUsers(ctx context.Context) ([]room.User, error) {
	return list(s, ctx, func(r pgx.Row, u *room.User) error { return scanUser(r, u) }, "SELECT "+userColumns+" FROM users u ORDER BY u.name")
}

// DeleteUser implements room.Users: memberships, tokens, queries with
// their citations and feedback, and rate-limit windows go with the user.
func (s *Rooms) DeleteUser(ctx context.Context, id string) error {
	if !isID(id) {
		return noSuch("user", id)
	}
	return s.execOne(ctx, "user", id, "DELETE FROM users WHERE id = $1", id)
}

// CreateToken implements room.Users.
func (s *Rooms) CreateToken(ctx context.Context, userID, name, tokenHash string) error {
	_, err := s.exec(ctx, "INSERT INTO api_tokens (token_hash, user_id, name) VALUES ($1, $2, $3)", tokenHash, userID, name)
	return dbError(err, "token")
}

// UserByToken implements room.Users.
func (s *Rooms) UserByToken(ctx context.Context, tokenHash string) (*room.User, error) {
	var u room.User
	err := s.one(ctx, "token", "", func(r pgx.Row) error { return scanUser(r, &u) },
		"SELECT "+userColumns+" FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1", tokenHash)
	return orNil(&u, err)
}

// ListTokens implements room.Users.
func (s *Rooms) ListTokens(ctx context.Context, userID string) ([]room.Token, error) {
	if !isID(userID) {
		return nil, nil
	}
	return list(s, ctx, func(r pgx.Row, t *room.Token) error { return r.Scan(&t.ID, &t.UserID, &t.Name, &t.CreatedAt) },
		`SELECT left(token_hash, $2), user_id::text, name, created_at FROM api_tokens WHERE user_id = $1
		ORDER BY created_at DESC, token_hash`, userID, room.TokenIDLength)
}

// DeleteToken implements room.Users.
func (s *Rooms) DeleteToken(ctx context.Context, userID, id string) error {
	if !isID(userID) || len(id) != room.TokenIDLength {
		return noSuch("token", id)
	}
	return s.execOne(ctx, "token", id, "DELETE FROM api_tokens WHERE user_id = $1 AND left(token_hash, $2) = $3", userID, room.TokenIDLength, id)
}

// EndSession implements room.Users.
func (s *Rooms) EndSession(ctx context.Context, userID, id string, expires time.Time) error {
	if !isID(userID) {
		return noSuch("user", userID)
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM ended_sessions WHERE expires_at <= now()"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO ended_sessions (id, user_id, expires_at) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`, id, userID, expires)
		return dbError(err, "user")
	})
}

// SessionEnded implements room.Users.
func (s *Rooms) SessionEnded(ctx context.Context, id string) (bool, error) {
	var ended bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM ended_sessions WHERE id = $1)", id).Scan(&ended)
	})
	return ended, err
}

var _ room.PasswordSetter = (*Rooms)(nil)

// SetPassword implements room.PasswordSetter. Errors: NOT_FOUND for an
// unknown user.
func (s *Rooms) SetPassword(ctx context.Context, userID, passwordHash string) error {
	if !isID(userID) {
		return noSuch("user", userID)
	}
	return s.execOne(ctx, "user", userID, "UPDATE users SET password_hash = $1 WHERE id = $2", passwordHash, userID)
}

// FailLogin implements room.Users. The count of key starts again within
// the upsert when its window is over; other keys' windows over are swept
// a hundred at a time, skipping rows another sign-in holds, so that
// concurrent sweeps never wait on each other.
func (s *Rooms) FailLogin(ctx context.Context, key string, now time.Time, window time.Duration) (room.LoginFailures, error) {
	var f room.LoginFailures
	cutoff := now.Add(-window)
	err := s.tx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO login_failures (key, failures, since) VALUES ($1, 1, $2)
			ON CONFLICT (key) DO UPDATE SET
				failures = CASE WHEN login_failures.since <= $3 THEN 1 ELSE login_failures.failures + 1 END,
				since = CASE WHEN login_failures.since <= $3 THEN excluded.since ELSE login_failures.since END
			RETURNING failures, since`, key, now, cutoff).Scan(&f.Count, &f.Since)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM login_failures WHERE key IN (
			SELECT key FROM login_failures WHERE since <= $1 ORDER BY since LIMIT 100 FOR UPDATE SKIP LOCKED)`, cutoff)
		return err
	})
	return f, err
}

// LoginFailures implements room.Users.
func (s *Rooms) LoginFailures(ctx context.Context, key string, now time.Time, window time.Duration) (room.LoginFailures, error) {
	var f room.LoginFailures
	err := s.tx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, "SELECT failures, since FROM login_failures WHERE key = $1 AND since > $2", key, now.Add(-window)).Scan(&f.Count, &f.Since)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return f, err
}

// ClearLoginFailures implements room.Users.
func (s *Rooms) ClearLoginFailures(ctx context.Context, key string) error {
	_, err := s.exec(ctx, "DELETE FROM login_failures WHERE key = $1", key)
	return err
}

// CreateRoom implements room.Rooms. Errors: CONFLICT when the creator
// has a room of that name already (names are unique per creator, so
// that a refusal says nothing of other people's rooms).
func (s *Rooms) CreateRoom(ctx context.Context, r *room.Room, owner string) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO data_rooms (id, name, description, created_by, created_at) VALUES ($1, $2, $3, $4, $5)",
			r.ID, r.Name, r.Description, r.CreatedBy, r.CreatedAt)
		if quarry.ErrorCode(dbError(err, "")) == quarry.ECodeConflict {
			return quarry.Errorf(quarry.ECodeConflict, "you have a room called %s already", r.Name)
		}
		if err != nil {
			return dbError(err, "room")
		}
		_, err = tx.Exec(ctx, "INSERT INTO data_room_members (data_room_id, user_id, role, added_at) VALUES ($1, $2, 'owner', $3)",
			r.ID, owner, r.CreatedAt)
		return dbError(err, "member")
	})
}

const roomColumns = "r.id, r.name, r.description, r.created_by, r.created_at, (SELECT count(*) FROM documents d WHERE d.data_room_id = r.id)"

func scanRoom(row pgx.Row, r *room.Room, extra ...any) error {
	return row.Scan(append([]any{&r.ID, &r.Name, &r.Description, &r.CreatedBy, &r.CreatedAt, &r.Documents}, extra...)...)
}

// Room implements room.Rooms.
func (s *Rooms) Room(ctx context.Context, id string) (*room.Room, error) {
	if !isID(id) {
		return nil, noSuch("room", id)
	}
	var r room.Room
	err := s.one(ctx, "room", id, func(row pgx.Row) error { return scanRoom(row, &r) }, "SELECT "+roomColumns+" FROM data_rooms r WHERE r.id = $1", id)
	return orNil(&r, err)
}

// RoomsOf implements room.Rooms.
func (s *Rooms) RoomsOf(ctx context.Context, userID string) ([]room.Room, error) {
	if !isID(userID) {
		return nil, nil
	}
	return list(s, ctx, func(row pgx.Row, r *room.Room) error { return scanRoom(row, r, &r.Role) },
		"SELECT "+roomColumns+", m.role FROM data_rooms r JOIN data_room_members m ON m.data_room_id = r.id WHERE m.user_id = $1 ORDER BY r.name", userID)
}

// DeleteRoom implements room.Rooms: its documents, members and queries go
// with it.
func (s *Rooms) DeleteRoom(ctx context.Context, id string) error {
	if !isID(id) {
		return noSuch("room", id)
	}
	return s.execOne(ctx, "room", id, "DELETE FROM data_rooms WHERE id = $1", id)
}

// PutMember implements room.Rooms. Errors: INVALID for an unknown role,
// NOT_FOUND for an unknown room or user, CONFLICT when it would leave
// the room without an owner.
func (s *Rooms) PutMember(ctx context.Context, m room.Member) error {
	if !isID(m.RoomID) {
		return noSuch("room", m.RoomID)
	}
	return s.changeMembers(ctx, m.RoomID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO data_room_members (data_room_id, user_id, role, added_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (data_room_id, user_id) DO UPDATE SET role = excluded.role`, m.RoomID, m.UserID, m.Role, m.AddedAt)
		return dbError(err, "member")
	})
}

// RemoveMember implements room.Rooms. Errors: NOT_FOUND for one who is
// not a member, CONFLICT for the room's last owner.
func (s *Rooms) RemoveMember(ctx context.Context, roomID, userID string) error {
	if !isID(roomID) || !isID(userID) {
		return noSuch("member", userID)
	}
	return s.changeMembers(ctx, roomID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM data_room_members WHERE data_room_id = $1 AND user_id = $2", roomID, userID)
		if err != nil {
			return dbError(err, "member")
		}
		if tag.RowsAffected() == 0 {
			return noSuch("member", userID)
		}
		return nil
	})
}

// changeMembers runs change in a transaction and commits it unless it
// left roomID without an owner. The room's owners are locked first, so
// that two owners demoting each other at once take turns and the second
// finds itself the last.
func (s *Rooms) changeMembers(ctx context.Context, roomID string, change func(tx pgx.Tx) error) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT 1 FROM data_room_members WHERE data_room_id = $1 AND role = 'owner' FOR UPDATE", roomID); err != nil {
			return dbError(err, "member")
		}
		if err := change(tx); err != nil {
			return err
		}
		var owners int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM data_room_members WHERE data_room_id = $1 AND role = 'owner'", roomID).Scan(&owners); err != nil {
			return err
		}
		if owners == 0 {
			return quarry.Errorf(quarry.ECodeConflict, "this is the room's last owner; a room must keep one").
				WithHint("make another member an owner first")
		}
		return nil
	})
}

const memberColumns = "m.data_room_id, m.user_id, u.name, m.role, m.added_at FROM data_room_members m JOIN users u ON u.id = m.user_id"

func scanMember(row pgx.Row, m *room.Member) error {
	return row.Scan(&m.RoomID, &m.UserID, &m.UserName, &m.Role, &m.AddedAt)
}

// Member implements room.Rooms.
func (s *Rooms) Member(ctx context.Context, roomID, userID string) (*room.Member, error) {
	if !isID(roomID) || !isID(userID) {
		return nil, noSuch("member", userID)
	}
	var m room.Member
	err := s.one(ctx, "member", userID, func(r pgx.Row) error { return scanMember(r, &m) },
		"SELECT "+memberColumns+" WHERE m.data_room_id = $1 AND m.user_id = $2", roomID, userID)
	return orNil(&m, err)
}

// Members implements room.Rooms.
func (s *Rooms) Members(ctx context.Context, roomID string) ([]room.Member, error) {
	if !isID(roomID) {
		return nil, nil
	}
	return list(s, ctx, scanMember, "SELECT "+memberColumns+" WHERE m.data_room_id = $1 ORDER BY u.name", roomID)
}

// orNil returns v, or nil with err.
func orNil[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// list runs a query acting for the context's actor and scans every row.
func list[T any](s *Rooms, ctx context.Context, scan func(pgx.Row, *T) error, query string, args ...any) ([]T, error) {
	var out []T
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		out, err = collect(ctx, tx, scan, query, args...)
		return err
	})
	return out, err
}

// collect runs a query in tx and scans every row.
func collect[T any](ctx context.Context, tx pgx.Tx, scan func(pgx.Row, *T) error, query string, args ...any) ([]T, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

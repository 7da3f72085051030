package app

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry/audit"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/postgres"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// RoomsPath is the data rooms' store under a data dir.
func RoomsPath(dataDir string) string { return filepath.Join(dataDir, "db", "rooms.db") }

// RoomsAuditLog is the data rooms' hash-chained audit log under a data
// dir, which every process using the data dir appends to (audit.Shared):
// with the rooms in PostgreSQL, a worker on another machine writes the
// log of the data dir it was given.
func RoomsAuditLog(dataDir string) string { return filepath.Join(dataDir, "logs", "rooms.jsonl") }

// OpenRooms wires the data rooms over a data dir's embedded store, with
// the local owner of single-user mode created on first use. Close the
// store when done.
func OpenRooms(ctx context.Context, dataDir string) (*rooms.Service, *room.User, func() error, error) {
	return OpenRoomsDB(ctx, RoomsOptions{DataDir: dataDir})
}

// RoomsOptions say where the data rooms live.
type RoomsOptions struct {
	// DataDir holds the uploaded files (and, without DB, the SQLite
	// store). With DB, every process of one deployment must see the same
	// directory: one machine, or a shared file system.
	DataDir string
	// DB, a postgres:// URL, keeps the rooms in PostgreSQL (postgres.Rooms)
	// and queues documents in River there for quarry worker processes
	// (postgres.Queue); empty keeps them in SQLite in DataDir.
	DB string
	// Workers processes that many queued documents at once in this
	// process (DB only); 0 only queues them.
	Workers int
	// Embedder, with EmbeddingModel, embeds chunks and questions, so
	// answers fuse meaning with words; Model writes answers from the
	// passages found (NewEmbedder, NewModel). Without them the rooms are
	// searched by words and answered by extracts.
	Embedder       llm.Embedder
	EmbeddingModel string
	Model          llm.Model
	// Lease is how long a worker's claim on a document lasts unless
	// renewed (rooms.DefaultLease when 0).
	Lease time.Duration
}

// OpenRoomsDB wires the data rooms as opt says, with the local owner of
// single-user mode created on first use. With opt.Workers the queue's
// workers, and the rescuer of documents whose worker died, run until
// close; close hands running documents back, pending, to another worker
// (waiting up to 10 s for that).
func OpenRoomsDB(ctx context.Context, opt RoomsOptions) (*rooms.Service, *room.User, func() error, error) {
	log := audit.NewShared(RoomsAuditLog(opt.DataDir), nil)
	svc := rooms.New(rooms.Config{Dir: opt.DataDir, Embedder: opt.Embedder, EmbeddingModel: opt.EmbeddingModel, Model: opt.Model, Lease: opt.Lease, Audit: log})
	var closeFn func() error
	if opt.DB == "" {
		st, err := sqlite.OpenRooms(RoomsPath(opt.DataDir))
		if err != nil {
			return nil, nil, nil, err
		}
		svc.Store = st
		closeFn = func() error {
			err := st.Close()
			return errors.Join(err, log.Close())
		}
	} else {
		st, err := postgres.OpenRooms(ctx, opt.DB)
		if err != nil {
			return nil, nil, nil, err
		}
		q, err := postgres.OpenQueue(ctx, opt.DB, opt.Workers, svc.ProcessQueued)
		if err != nil {
			st.Close()
			return nil, nil, nil, err
		}
		svc.Store, svc.Queue = st, q
		closeFn = func() error {
			stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			// The workers stop, handing their documents back, before
			// the log their last entries go to is closed.
			err := q.Close(stop)
			st.Close()
			return errors.Join(err, log.Close())
		}
		if opt.Workers > 0 {
			if err := q.Start(ctx); err != nil {
				closeFn()
				return nil, nil, nil, err
			}
			rescue, stop := context.WithCancel(context.WithoutCancel(ctx))
			done := make(chan struct{})
			go func() {
				defer close(done)
				svc.RunRescuer(rescue)
			}()
			closeQueue := closeFn
			closeFn = func() error {
				stop()
				<-done
				return closeQueue()
			}
		}
		if opt.Workers > 0 {
			// As every worker's start: documents left pending (by a
			// worker that stopped, or refused them) are queued again.
			if _, err := svc.EnqueuePending(ctx); err != nil {
				closeFn()
				return nil, nil, nil, err
			}
		}
	}
	owner, err := svc.EnsureUser(ctx, room.LocalOwner)
	if err != nil {
		closeFn()
		return nil, nil, nil, err
	}
	return svc, owner, closeFn, nil
}

package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/atomicfile"
	"github.com/quarry-dev/quarry/internal/sampleroom"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// SampleRoom is the name of the data room a fresh data dir gets.
const SampleRoom = "sample"

// sampleRoomMarker is the file that says the sample room was made, or was
// not needed, in a data dir: once it exists the sample room is never made
// again, so a person who deleted it keeps it deleted.
func sampleRoomMarker(dataDir string) string { return filepath.Join(dataDir, "db", "sample-room.json") }

// sampleMark is what the marker records.
type sampleMark struct {
	RoomID    string    `json:"room_id,omitempty"`
	Skipped   string    `json:"skipped,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// SeedSampleRoom gives a data dir whose owner has no room yet the sample
// room: SampleRoom, owned by owner, with the documents of
// internal/sampleroom uploaded and processed before it returns (here, or
// by the queue's workers: ProcessUpload), so that a question works at
// once. It returns the room, or nil when the data dir had rooms already or
// had its sample room before. A document that fails (a PDF without
// poppler-utils installed) is logged, and the room keeps the others.
// Without a Queue, call it before this process's workers start
// (rooms.Service.Start), which would process the uploads a second time.
func SeedSampleRoom(ctx context.Context, svc *rooms.Service, owner *room.User, dataDir string) (*room.Room, error) {
	marker := sampleRoomMarker(dataDir)
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	mark := func(m sampleMark) error {
		m.CreatedAt = time.Now().UTC()
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(marker), 0o755); err != nil {
			return err
		}
		return atomicfile.Write(marker, append(b, '\n'))
	}
	have, err := svc.Rooms(ctx, owner.ID)
	if err != nil {
		return nil, err
	}
	if len(have) > 0 {
		return nil, mark(sampleMark{Skipped: "the data dir had rooms already"})
	}
	r, err := svc.CreateRoom(ctx, owner.ID, SampleRoom, "Fictional public-domain documents to try questions on: an annual report, a supply agreement and a board pack")
	if quarry.ErrorCode(err) == quarry.ECodeConflict {
		// Another process made it at the same moment, or a room of
		// that name belongs to someone else.
		return nil, mark(sampleMark{Skipped: "a room called " + SampleRoom + " exists"})
	}
	if err != nil {
		return nil, err
	}
	log := svc.Log
	if log == nil {
		log = slog.Default()
	}
	for _, name := range sampleroom.Documents {
		if err := addSample(ctx, svc, owner.ID, r.ID, name); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			log.Warn("a sample document could not be added", "document", name, "err", err)
		}
	}
	return r, mark(sampleMark{RoomID: r.ID})
}

// addSample uploads one embedded document and processes it.
func addSample(ctx context.Context, svc *rooms.Service, userID, roomID, name string) error {
	f, err := sampleroom.FS.Open(name)
	if err != nil {
		return fmt.Errorf("the embedded %s: %w", name, err)
	}
	defer f.Close()
	d, err := svc.Upload(ctx, userID, roomID, name, f)
	if err != nil {
		return err
	}
	return ProcessUpload(ctx, svc, userID, d.ID)
}

// UploadFile uploads the file at path into a room under its base name.
// Errors: NOT_FOUND for a file that cannot be opened, and Upload's.
func UploadFile(ctx context.Context, svc *rooms.Service, userID, roomID, path string) (*room.Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "%s: %v", filepath.Base(path), err)
	}
	defer f.Close()
	return svc.Upload(ctx, userID, roomID, filepath.Base(path), f)
}

// IngestFiles uploads and processes files into a room, one after another,
// stopping at the first that fails.
func IngestFiles(ctx context.Context, svc *rooms.Service, userID, roomID string, paths []string) error {
	for _, p := range paths {
		d, err := UploadFile(ctx, svc, userID, roomID, p)
		if err != nil {
			return err
		}
		if err := ProcessUpload(ctx, svc, userID, d.ID); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
	}
	return nil
}

// ProcessUpload processes an uploaded document here, or, when the service
// has a Queue, waits for a worker (this process's among them) to finish
// it. Errors: the document's own failure, with its code.
func ProcessUpload(ctx context.Context, svc *rooms.Service, userID, documentID string) error {
	if svc.Queue == nil {
		return svc.Process(ctx, documentID)
	}
	for {
		d, err := svc.Document(ctx, userID, documentID)
		switch {
		case err != nil:
			return err
		case d.Status == room.StatusCompleted:
			return nil
		case d.Status == room.StatusFailed:
			return quarry.Errorf(d.ErrorCode, "%s", d.Error)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

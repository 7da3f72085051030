package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/atomicfile"
	"github.com/quarry-dev/quarry/internal/sampleresearch"
	"github.com/quarry-dev/quarry/internal/sampleroom"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
)

// SampleRoom is the name of the data room a fresh data dir gets.
const SampleRoom = "sample"

// ResearchSampleRoom is the name of the data room a fresh data dir gets
// beside SampleRoom to try research on: the Kestrel Dynamics corpus of
// internal/sampleresearch, with its planted contradictions.
const ResearchSampleRoom = "sample-kestrel"

// sampleRoomMarker is the file that says the sample rooms were made, or
// were not needed, in a data dir: once it exists they are never made
// again, so a person who deleted one keeps it deleted.
func sampleRoomMarker(dataDir string) string { return filepath.Join(dataDir, "db", "sample-room.json") }

// sampleMark is what the marker records.
type sampleMark struct {
	RoomID         string    `json:"room_id,omitempty"`
	ResearchRoomID string    `json:"research_room_id,omitempty"`
	Skipped        string    `json:"skipped,omitempty"`
	CreatedAt      time.Time `json:"created_at"`
}

// SeedSampleRoom gives a data dir whose owner has no room yet the sample
// rooms, owned by owner: SampleRoom, with the documents of
// internal/sampleroom to ask questions of, and ResearchSampleRoom, with
// the corpus of internal/sampleresearch to research. Their documents are
// uploaded and processed before it returns (here, or by the queue's
// workers: ProcessUpload), so that a question or a research works at
// once. It returns SampleRoom, or nil when the data dir had rooms already
// or had its sample rooms before. A document that fails (a PDF without
// poppler-utils installed) is logged, and the room keeps the others; so is
// a ResearchSampleRoom that cannot be made, and SampleRoom is kept.
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
	log := svc.Log
	if log == nil {
		log = slog.Default()
	}
	r, err := seedRoom(ctx, svc, owner.ID, log, SampleRoom,
		"Fictional public-domain documents to try questions on: an annual report, a supply agreement and a board pack",
		sampleroom.FS, sampleroom.Documents)
	if err != nil {
		return nil, err
	}
	if r == nil {
		// Another process made it at the same moment, or a room of
		// that name belongs to someone else.
		return nil, mark(sampleMark{Skipped: "a room called " + SampleRoom + " exists"})
	}
	m := sampleMark{RoomID: r.ID}
	kestrel, err := seedRoom(ctx, svc, owner.ID, log, ResearchSampleRoom,
		"Kestrel Dynamics, a fictional drone maker: its filings and press releases, with contradictions planted for research to find",
		sampleresearch.FS, sampleresearch.Documents)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		log.Warn("the research sample room could not be made", "room", ResearchSampleRoom, "err", err)
	case kestrel == nil:
		log.Warn("the research sample room was not made: a room of its name exists", "room", ResearchSampleRoom)
	default:
		m.ResearchRoomID = kestrel.ID
	}
	return r, mark(m)
}

// seedRoom makes a room of the documents names of fsys, processed. It
// returns nil and no error when a room of that name exists.
func seedRoom(ctx context.Context, svc *rooms.Service, userID string, log *slog.Logger, name, description string, fsys fs.FS, names []string) (*room.Room, error) {
	r, err := svc.CreateRoom(ctx, userID, name, description)
	if quarry.ErrorCode(err) == quarry.ECodeConflict {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, doc := range names {
		if err := addSample(ctx, svc, userID, r.ID, fsys, doc); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			log.Warn("a sample document could not be added", "room", name, "document", doc, "err", err)
		}
	}
	return r, nil
}

// addSample uploads one embedded document and processes it.
func addSample(ctx context.Context, svc *rooms.Service, userID, roomID string, fsys fs.FS, name string) error {
	f, err := fsys.Open(name)
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
		return nil, quarry.Errorf(quarry.ECodeNotFound, "%s: %w", filepath.Base(path), err)
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

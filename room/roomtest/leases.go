package roomtest

import (
	"slices"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// testLeases: a document is processed under one worker's lease at a
// time; another worker can take it only once that lease ran out, and a
// document handed back or rescued is pending again in its next round. A
// lease that ran out is given by a negative duration, so that nothing
// waits on a clock.
func testLeases(t *testing.T, f *fixture) {
	ctx, s := f.ctx, f.s
	d := f.pending(t, f.a, "lease.txt")
	modelled := &room.Document{ID: quarry.NewID(), RoomID: f.a.ID, Name: "vectors.txt", Format: "text", SizeBytes: 1, SHA256: d.SHA256,
		Status: room.StatusPending, UploadedBy: f.alice.ID, EmbeddingModel: "nomic-embed-text", CreatedAt: f.next(), UpdatedAt: f.next()}
	Must(t, s.CreateDocument(ctx, modelled))
	if got, err := s.Document(ctx, modelled.ID); err != nil || got.EmbeddingModel != "nomic-embed-text" || got.Round != 0 {
		t.Errorf("Document = %+v, %v; want the embedding model it was created with, round 0", got, err)
	}

	got, err := s.ClaimDocument(ctx, d.ID, "w1", time.Hour)
	Must(t, err)
	if got.ID != d.ID || got.Status != room.StatusProcessing || got.Round != 0 {
		t.Errorf("ClaimDocument = %+v; want the document, processing, round 0", got)
	}
	_, err = s.ClaimDocument(ctx, d.ID, "w2", time.Hour)
	WantCode(t, "ClaimDocument(held by another)", err, quarry.ECodeConflict)
	Must(t, s.RenewLease(ctx, d.ID, "w1", time.Hour))
	WantCode(t, "RenewLease(not the holder)", s.RenewLease(ctx, d.ID, "w2", time.Hour), quarry.ECodeConflict)
	WantCode(t, "RenewLease(unknown)", s.RenewLease(ctx, quarry.NewID(), "w1", time.Hour), quarry.ECodeNotFound)
	_, err = s.ReleaseDocument(ctx, d.ID, "w2")
	WantCode(t, "ReleaseDocument(not the holder)", err, quarry.ECodeConflict)
	if ds, err := s.RescueExpired(ctx); err != nil || len(ds) != 0 {
		t.Errorf("RescueExpired = %v, %v; want nothing while the lease runs", ds, err)
	}

	// A graceful stop hands the document back.
	got, err = s.ReleaseDocument(ctx, d.ID, "w1")
	Must(t, err)
	if got.Status != room.StatusPending || got.Round != 1 {
		t.Errorf("ReleaseDocument = %+v; want pending, round 1", got)
	}
	WantCode(t, "RenewLease(released)", s.RenewLease(ctx, d.ID, "w1", time.Hour), quarry.ECodeConflict)

	// A worker that dies leaves its lease to run out: another may claim
	// the document, and the dead one's renewal is refused.
	_, err = s.ClaimDocument(ctx, d.ID, "w1", -time.Second)
	Must(t, err)
	got, err = s.ClaimDocument(ctx, d.ID, "w2", time.Hour)
	Must(t, err)
	if got.Status != room.StatusProcessing || got.Round != 1 {
		t.Errorf("ClaimDocument(lease ran out) = %+v; want processing for the new holder, round 1", got)
	}
	WantCode(t, "RenewLease(taken over)", s.RenewLease(ctx, d.ID, "w1", time.Hour), quarry.ECodeConflict)

	// The rescuer hands back documents whose lease ran out, once.
	_, err = s.ClaimDocument(ctx, modelled.ID, "w3", -time.Second)
	Must(t, err)
	ds, err := s.RescueExpired(ctx)
	Must(t, err)
	if len(ds) != 1 || ds[0].ID != modelled.ID || ds[0].Status != room.StatusPending || ds[0].Round != 1 || ds[0].EmbeddingModel != "nomic-embed-text" {
		t.Errorf("RescueExpired = %+v; want vectors.txt alone (lease.txt's lease runs), pending in round 1", ds)
	}
	if ds, err := s.RescueExpired(ctx); err != nil || len(ds) != 0 {
		t.Errorf("RescueExpired again = %v, %v; want nothing: each document is rescued once", ds, err)
	}
	// A document left processing without a lease (by an older version)
	// is rescued too.
	old := f.pending(t, f.b, "old.txt")
	Must(t, s.SetStatus(ctx, old.ID, room.StatusProcessing, "", ""))
	ds, err = s.RescueExpired(ctx)
	Must(t, err)
	if got := ids(ds, func(d room.Document) string { return d.Name }); !slices.Equal(got, []string{"old.txt"}) {
		t.Errorf("RescueExpired = %v; want old.txt, processing without a lease", got)
	}

	// Completed and failed documents are not claimed.
	Must(t, s.SetStatus(ctx, d.ID, room.StatusFailed, quarry.ECodeMalformedDocument, "damaged"))
	_, err = s.ClaimDocument(ctx, d.ID, "w4", time.Hour)
	WantCode(t, "ClaimDocument(failed)", err, quarry.ECodeConflict)
	_, err = s.ClaimDocument(ctx, quarry.NewID(), "w4", time.Hour)
	WantCode(t, "ClaimDocument(unknown)", err, quarry.ECodeNotFound)
	_, err = s.ClaimDocument(ctx, "lease.txt", "w4", time.Hour)
	WantCode(t, "ClaimDocument(not-an-id)", err, quarry.ECodeNotFound)
	_, err = s.ReleaseDocument(ctx, quarry.NewID(), "w4")
	WantCode(t, "ReleaseDocument(unknown)", err, quarry.ECodeNotFound)
}

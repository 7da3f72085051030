package rooms

import (
	"fmt"
	"math"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/room"
)

// AuditLog is the hash-chained log the rooms write their tool calls and
// decisions to: an audit.Shared over DATA_DIR/logs/rooms.jsonl, which the
// wiring (internal/app) opens, as the server, the command line and the
// workers of one data dir append to it together. The service is given it
// rather than opening it, as the analyses are given theirs.
//
// Personal data is masked in what it holds, as in the stores (MaskPII).
//
// What goes in it, each entry naming the room, the user and the query or
// document it is about (its request id is the query's, the document's or,
// for a room's own changes, the room's):
//   - for a question: request_submitted; the retrieval as a tool_called
//     entry (the question searched, the chunks kept with their scores);
//     the model's answer, when a model wrote it, as another (model, token
//     counts, the answer's SHA-256); and the evidence decision as a
//     policy_decision (grounded, insufficient_evidence or error, why, the
//     citations with whether each was verified). A question refused by
//     the hourly limit is a policy_decision too.
//   - for a document: one tool_called entry per tool (docparse, ocr when
//     it ran, chunk, embed when an embedder is set), never one per page or
//     chunk, and an observation_recorded entry with how processing ended.
//   - for a change to a room (its creation or deletion, a member added,
//     given another role or removed, a document uploaded, refused as a
//     duplicate or deleted) and a user's deletion: a policy_decision
//     made by the acting user before the change, and another should the
//     change then fail; a change a member's role does not allow is a
//     policy_decision too, refused.
type AuditLog interface {
	AppendFor(requestID, eventType, actor string, data map[string]any) (quarry.AuditEntry, error)
}

// auditWorker is the actor of a document's processing, which is the
// application's own work whoever uploaded it (the entries name them).
const auditWorker = "worker"

// record appends one entry to the audit log; a Service without one
// records nothing. The log's own error names the server's files, so it is
// logged here, and a user is told only that the log could not be written:
// CONFLICT for a log that is broken or held by another process too long,
// STORAGE_FULL, or INTERNAL.
func (s *Service) record(requestID, eventType, actor string, data map[string]any) error {
	if s.Audit == nil {
		return nil
	}
	if _, err := s.Audit.AppendFor(requestID, eventType, actor, data); err != nil {
		s.log().Error("write the rooms' audit log", "request", requestID, "event", eventType, "err", err)
		code := quarry.ErrorCode(err)
		if code != quarry.ECodeConflict && code != quarry.ECodeStorageFull {
			code = quarry.ECodeInternal
		}
		return quarry.Errorf(code, "the rooms' audit log could not be written").
			WithHint("quarry audit verify checks the log; the server's log says why it failed")
	}
	return nil
}

// change records userID's decision to make a change to a room, makes it,
// and records its failure should it fail. A change whose decision cannot
// be recorded is not made.
func (s *Service) change(requestID, userID string, data map[string]any, do func() error) error {
	data["user_id"] = userID
	data["decision"] = "allowed"
	if err := s.record(requestID, quarry.EventPolicyDecision, userID, data); err != nil {
		return err
	}
	if err := do(); err != nil {
		s.record(requestID, quarry.EventPolicyDecision, userID, map[string]any{
			"action": data["action"], "room_id": data["room_id"], "user_id": userID,
			"decision": "failed", "error_code": quarry.ErrorCode(err),
		})
		return err
	}
	return nil
}

// refused records a change to a room that userID's role does not allow
// (err is FORBIDDEN), and returns err. Other errors are returned as they
// are: a room the user is not a member of does not exist for them, so
// there is no decision about it to record.
func (s *Service) refused(requestID, userID, action, roomID string, err error) error {
	if quarry.ErrorCode(err) != quarry.ECodeForbidden {
		return err
	}
	data := map[string]any{"action": action, "user_id": userID, "decision": "refused", "reason": quarry.ErrorMessage(err)}
	if roomID != "" {
		data["room_id"] = roomID
	}
	s.record(requestID, quarry.EventPolicyDecision, userID, data)
	return err
}

// recordQuestion records a question accepted for an answer.
func (s *Service) recordQuestion(q *room.Query) error {
	return s.record(q.ID, quarry.EventRequestSubmitted, q.UserID, map[string]any{
		"job": "room_question", "room_id": q.RoomID, "user_id": q.UserID, "query_id": q.ID, "question": MaskPII(q.Question),
	})
}

// recordLimited records a question the hourly limit refused.
func (s *Service) recordLimited(userID, roomID string) {
	s.record(roomID, quarry.EventPolicyDecision, userID, map[string]any{
		"action": "ask", "room_id": roomID, "user_id": userID, "decision": "rate_limited",
		"reason": fmt.Sprintf("%d questions in this room this hour is the limit", room.QueriesPerHour),
	})
}

// recordAnswer records how q was answered, once it has been: the
// retrieval (which failed with retrieveErr, if it did), the model's call
// when one was made, and the evidence decision.
func (s *Service) recordAnswer(q *room.Query, pages []ask.PageHit, vectorModel string, retrieveErr error) error {
	about := func(data map[string]any) map[string]any {
		data["room_id"], data["user_id"], data["query_id"] = q.RoomID, q.UserID, q.ID
		return data
	}
	chunks := []any{}
	for _, p := range pages {
		for _, c := range p.Chunks {
			chunks = append(chunks, map[string]any{"chunk_id": c.ID, "document_id": c.DocumentID, "page_number": c.PageNumber, "score": round4(c.Score)})
		}
	}
	retrieval := about(map[string]any{"tool": "retrieve", "query": MaskPII(q.Question), "pages": len(pages), "chunks": chunks})
	if vectorModel != "" {
		retrieval["vector_model"] = vectorModel
	}
	outcome(retrieval, retrieveErr)
	if err := s.record(q.ID, quarry.EventToolCalled, q.UserID, retrieval); err != nil {
		return err
	}
	by := "extract"
	if q.ModelUsed != "" {
		call := about(map[string]any{"tool": "model", "purpose": "ask", "model": q.ModelUsed,
			"tokens_input": q.TokensInput, "tokens_output": q.TokensOutput})
		if q.ErrorType == "model_error" {
			call["outcome"], call["error"] = "error", q.ErrorMessage
		} else {
			call["outcome"], call["answer_sha256"] = "ok", quarry.SHA256Hex([]byte(q.Answer))
			by = "model"
		}
		if err := s.record(q.ID, quarry.EventToolCalled, q.UserID, call); err != nil {
			return err
		}
	}
	cited := make([]any, len(q.Citations))
	unverified := 0
	for i, c := range q.Citations {
		cited[i] = map[string]any{"chunk_id": c.ChunkID, "document_id": c.DocumentID, "page_number": c.PageNumber, "verified": c.Verified}
		if !c.Verified {
			unverified++
		}
	}
	decision := about(map[string]any{"action": "answer", "decision": q.AnswerType, "answered_by": by,
		"citations": cited, "unverified_citations": unverified, "answer_sha256": quarry.SHA256Hex([]byte(q.Answer))})
	switch q.AnswerType {
	case room.AnswerGrounded:
		decision["reason"] = fmt.Sprintf("%d cited passage(s) hold the question's words", len(q.Citations))
		if by == "model" {
			decision["reason"] = fmt.Sprintf("the model's answer cites %d passage(s); every number was checked against the passages its sentence cites, %d citation(s) unverified", len(q.Citations), unverified)
		}
	case room.AnswerInsufficient:
		decision["reason"] = firstLine(MaskPII(q.Answer))
	default:
		decision["answered_by"] = "none"
		decision["reason"], decision["error_code"] = MaskPII(q.ErrorMessage), q.ErrorType
	}
	return s.record(q.ID, quarry.EventPolicyDecision, q.UserID, decision)
}

// withhold replaces q's answer by the error that its audit entries could
// not be written: an answer the log does not account for is not given.
func withhold(q *room.Query, err error) {
	q.AnswerType, q.ErrorType, q.ErrorMessage = room.AnswerError, quarry.ErrorCode(err), quarry.ErrorMessage(err)
	q.Answer = "The answer was withheld: " + q.ErrorMessage
	q.Citations = []room.Citation{}
}

// recordTool records one tool a document's processing called, with how
// it went (err), and returns the log's error.
func (s *Service) recordTool(d *room.Document, tool string, err error, data map[string]any) error {
	data["tool"], data["document_id"], data["room_id"], data["uploaded_by"] = tool, d.ID, d.RoomID, d.UploadedBy
	outcome(data, err)
	return s.record(d.ID, quarry.EventToolCalled, auditWorker, data)
}

// recordParse records the parsing of a document (doc, or err when it
// failed) and its OCR when tesseract ran, and returns err, or else the
// log's error.
func (s *Service) recordParse(d *room.Document, doc *docparse.Document, err error) error {
	data := map[string]any{"name": d.Name, "size_bytes": d.SizeBytes}
	if doc != nil {
		data["format"], data["pages"] = doc.Format, len(doc.Pages)
	}
	rerr := s.recordTool(d, "docparse", err, data)
	if err != nil {
		return err
	}
	if rerr != nil || !doc.OCRAttempted {
		return rerr
	}
	read, sum := 0, 0.0
	for _, p := range doc.Pages {
		if p.OCR {
			read++
			if p.OCRConfidence != nil {
				sum += *p.OCRConfidence
			}
		}
	}
	ocr := map[string]any{"pages": len(doc.Pages), "pages_read": read}
	if read > 0 {
		ocr["mean_confidence"] = round4(sum / float64(read))
	}
	return s.recordTool(d, "ocr", nil, ocr)
}

// recordProcessed records how a document's processing ended: completed,
// failed (err), handed back, pending, to another worker, or lease_lost
// when another worker took it over. A failure to
// write it is logged only: the document's state is already stored.
func (s *Service) recordProcessed(d *room.Document, status string, err error) {
	data := map[string]any{"observation": "document_processed", "document_id": d.ID, "room_id": d.RoomID,
		"uploaded_by": d.UploadedBy, "status": status}
	switch status {
	case room.StatusCompleted:
		data["pages"], data["chunks"] = d.PageCount, d.ChunkCount
	case room.StatusFailed:
		data["error_code"], data["error"] = quarry.ErrorCode(err), quarry.ErrorMessage(err)
	}
	s.record(d.ID, quarry.EventObservationRecorded, auditWorker, data)
}

// outcome sets data's outcome to ok, or to error with err's code and
// message.
func outcome(data map[string]any, err error) {
	if err == nil {
		data["outcome"] = "ok"
		return
	}
	data["outcome"], data["error_code"], data["error"] = "error", quarry.ErrorCode(err), quarry.ErrorMessage(err)
}

// round4 keeps four decimals of a score, which is all a reader of the
// log needs of it; a score that is not a number (which JSON cannot
// hold) is 0.
func round4(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1e4) / 1e4
}

// firstLine is the first line of s, at most 300 characters.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

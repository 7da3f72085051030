package web

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/room"
)

// roomHandler is a data-room handler: it gets the request's user, and
// passes the user's id to the RoomService, which decides access.
type roomHandler func(w http.ResponseWriter, r *http.Request, u *room.User) error

// withUser resolves the request's user before h runs. Errors:
// UNAUTHORIZED from the Authenticator.
func (s *Server) withUser(h roomHandler) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, err := s.user(r)
		if err != nil {
			return err
		}
		return h(w, r, u)
	}
}

func (s *Server) listRooms(w http.ResponseWriter, r *http.Request, u *room.User) error {
	rs, err := s.opt.Rooms.Rooms(r.Context(), u.ID)
	if err != nil {
		return err
	}
	if rs == nil {
		rs = []room.Room{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"rooms": rs})
	return nil
}

func (s *Server) createRoom(w http.ResponseWriter, r *http.Request, u *room.User) error {
	var req struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	rm, err := s.opt.Rooms.CreateRoom(r.Context(), u.ID, req.Name, req.Description)
	if err != nil {
		return err
	}
	w.Header().Set("Location", roomAPI(rm.ID))
	writeJSON(w, http.StatusCreated, rm)
	return nil
}

// inRoomHandler is a handler of a path under a room: it gets the room
// too, resolved by id or name for the user.
type inRoomHandler func(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error

// inRoom resolves the {room} of the path before h runs. Errors: NOT_FOUND
// for a room the user is not in.
func (s *Server) inRoom(h inRoomHandler) roomHandler {
	return func(w http.ResponseWriter, r *http.Request, u *room.User) error {
		rm, err := s.opt.Rooms.Room(r.Context(), u.ID, r.PathValue("room"))
		if err != nil {
			return err
		}
		return h(w, r, u, rm)
	}
}

func (s *Server) getRoom(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	writeJSON(w, http.StatusOK, rm)
	return nil
}

func (s *Server) listMembers(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	ms, err := s.opt.Rooms.Members(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"members": ms})
	return nil
}

// addMember adds {user_name, role}: 201 with the membership.
func (s *Server) addMember(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	var req struct {
		UserName string `json:"user_name"`
		Role     string `json:"role"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	return s.putMembership(w, r, u, rm, req.UserName, req.Role, http.StatusCreated)
}

// putMember sets the role of the user named in the path, adding them
// when they are not a member yet.
func (s *Server) putMember(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	var req struct {
		Role string `json:"role"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	return s.putMembership(w, r, u, rm, r.PathValue("user"), req.Role, http.StatusOK)
}

func (s *Server) putMembership(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room, name, role string, status int) error {
	m, err := s.opt.Rooms.AddMember(r.Context(), u.ID, rm.ID, name, role)
	if err != nil {
		return err
	}
	writeJSON(w, status, m)
	return nil
}

func (s *Server) listDocuments(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	docs, err := s.opt.Rooms.Documents(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	if docs == nil {
		docs = []room.Document{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"documents": docs})
	return nil
}

// uploadDocument streams the multipart field "file" into the room: 202
// with the pending document, which the workers then process.
func (s *Server) uploadDocument(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.receiveDocument(w, r, u, rm)
	if err != nil {
		return err
	}
	w.Header().Set("Location", documentAPI(rm.ID, d.ID))
	writeJSON(w, http.StatusAccepted, documentResponse{Document: d})
	return nil
}

// receiveDocument reads a multipart upload part by part, so the file goes
// straight to the rooms' store, and cuts off a body past the server's
// upload limit (MaxUploadBytes, as for every other upload).
func (s *Server) receiveDocument(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) (*room.Document, error) {
	const formSlack = 1 << 20
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUploadBytes+formSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, quarry.Errorf(codeBadRequest, "send the document as multipart/form-data with a field named \"file\"")
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "no file in the upload; send it in a multipart field named \"file\"")
		}
		if err != nil {
			return nil, uploadError(err, s.opt.MaxUploadBytes)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		d, err := s.opt.Rooms.Upload(r.Context(), u.ID, rm.ID, part.FileName(), &limitedReader{r: part, limit: s.opt.MaxUploadBytes})
		part.Close()
		if err != nil {
			return nil, uploadError(err, s.opt.MaxUploadBytes)
		}
		return d, nil
	}
}

// limitedReader fails with FILE_TOO_LARGE once more than limit bytes
// were read, so a document is held to the server's upload limit, which
// may be lower than the rooms' own.
type limitedReader struct {
	r           io.Reader
	read, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.read += int64(n)
	if l.read > l.limit {
		return n, quarry.Errorf(quarry.ECodeFileTooLarge, "the upload is larger than the %d MB limit", l.limit>>20)
	}
	return n, err
}

// documentResponse is a document with its current processing step while
// it is being processed.
type documentResponse struct {
	*room.Document
	Progress *room.Progress `json:"progress,omitempty"`
}

// documentOf resolves {doc} within the path's {room}: a document of
// another room is not found here, even for a member of both.
func (s *Server) documentOf(r *http.Request, u *room.User, rm *room.Room) (*room.Document, error) {
	id := r.PathValue("doc")
	d, err := s.opt.Rooms.Document(r.Context(), u.ID, id)
	if err != nil {
		return nil, err
	}
	if d.RoomID != rm.ID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no document %s in room %s", id, rm.Name)
	}
	return d, nil
}

func (s *Server) getDocument(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	p, err := s.opt.Rooms.Latest(r.Context(), u.ID, d.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, documentResponse{Document: d, Progress: p})
	return nil
}

func (s *Server) deleteDocument(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	if err := s.opt.Rooms.DeleteDocument(r.Context(), u.ID, d.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

// downloadTypes are the content types a document is sent back with; an
// uploaded HTML file is sent as an attachment of no type the browser
// would run.
var downloadTypes = map[string]string{
	"pdf":      "application/pdf",
	"docx":     "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"csv":      "text/csv; charset=utf-8",
	"markdown": "text/markdown; charset=utf-8",
	"text":     "text/plain; charset=utf-8",
}

// downloadDocument sends the original file as an attachment.
func (s *Server) downloadDocument(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	path, _, err := s.opt.Rooms.Download(r.Context(), u.ID, d.ID)
	if err != nil {
		return err
	}
	return serveFile(w, r, path, d)
}

func (s *Server) listPages(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return err
	}
	pages, err := s.opt.Rooms.Pages(r.Context(), u.ID, d.ID)
	if err != nil {
		return err
	}
	type pageSummary struct {
		ID            string   `json:"id"`
		Number        int      `json:"page_number"`
		Chars         int      `json:"chars"`
		OCRConfidence *float64 `json:"ocr_confidence,omitempty"`
	}
	out := make([]pageSummary, 0, len(pages))
	for _, p := range pages {
		out = append(out, pageSummary{ID: p.ID, Number: p.Number, Chars: len([]rune(p.Text)), OCRConfidence: p.OCRConfidence})
	}
	writeJSON(w, http.StatusOK, map[string]any{"document_id": d.ID, "format": d.Format, "pages": out})
	return nil
}

// viewPage is pageOf for a reader: the view is in the room's access log.
func (s *Server) viewPage(r *http.Request, u *room.User, rm *room.Room) (*room.Document, *room.Page, error) {
	d, p, err := s.pageOf(r, u, rm)
	if err != nil {
		return nil, nil, err
	}
	if _, err := s.opt.Rooms.View(r.Context(), u.ID, d.ID, p.Number); err != nil {
		return nil, nil, err
	}
	return d, p, nil
}

// accessLog sends a room's access log to its owners: JSON, or CSV with
// ?format=csv.
func (s *Server) accessLog(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	log, err := s.opt.Rooms.AccessLog(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	if r.URL.Query().Get("format") != "csv" {
		writeJSON(w, http.StatusOK, map[string]any{"room_id": rm.ID, "accesses": log})
		return nil
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="access-log.csv"`)
	cw := csv.NewWriter(w)
	cw.Write([]string{"at", "user_id", "action", "decision", "document_id", "page", "detail"})
	for _, a := range log {
		page := ""
		if a.Page > 0 {
			page = strconv.Itoa(a.Page)
		}
		cw.Write([]string{a.At.UTC().Format(time.RFC3339), a.UserID, a.Action, a.Decision, a.DocumentID, page, a.Detail})
	}
	cw.Flush()
	return cw.Error()
}

// pageOf resolves {doc} and {page} within the path's {room}.
func (s *Server) pageOf(r *http.Request, u *room.User, rm *room.Room) (*room.Document, *room.Page, error) {
	d, err := s.documentOf(r, u, rm)
	if err != nil {
		return nil, nil, err
	}
	n, err := strconv.Atoi(r.PathValue("page"))
	if err != nil || n < 1 {
		return nil, nil, quarry.Errorf(quarry.ECodeNotFound, "no page %q; pages are numbered from 1", r.PathValue("page"))
	}
	p, err := s.opt.Rooms.Page(r.Context(), u.ID, d.ID, n)
	if err != nil {
		return nil, nil, err
	}
	return d, p, nil
}

func (s *Server) getPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, p, err := s.viewPage(r, u, rm)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"page": p, "document_name": d.Name, "page_count": d.PageCount})
	return nil
}

// pageImage sends a PDF page as a PNG, ?dpi= from 36 to 300 (default
// pageDPI).
func (s *Server) pageImage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, p, err := s.pageOf(r, u, rm)
	if err != nil {
		return err
	}
	dpi := pageDPI
	if v := r.URL.Query().Get("dpi"); v != "" {
		if dpi, err = strconv.Atoi(v); err != nil || dpi < 36 || dpi > 300 {
			return quarry.Errorf(quarry.ECodeInvalid, "dpi %q: want a whole number from 36 to 300", v)
		}
	}
	path, err := s.pdfPath(r, u, d)
	if err != nil {
		return err
	}
	png, err := renderPage(r.Context(), path, p.Number, dpi)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("ETag", `"`+d.SHA256[:min(16, len(d.SHA256))]+"-"+strconv.Itoa(p.Number)+"-"+strconv.Itoa(dpi)+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(png))
	return nil
}

// pageHighlight gives the boxes, in PDF points, that cover the passage of
// ?chunk= on a PDF page (or only the sentence of it that ?quote= gives),
// with the page's size.
func (s *Server) pageHighlight(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, p, err := s.pageOf(r, u, rm)
	if err != nil {
		return err
	}
	c, err := s.chunkOn(r, u, d, p, r.URL.Query().Get("chunk"))
	if err != nil {
		return err
	}
	if c == nil {
		return quarry.Errorf(quarry.ECodeInvalid, "name the cited chunk with ?chunk=")
	}
	path, err := s.pdfPath(r, u, d)
	if err != nil {
		return err
	}
	hl, err := highlightOn(r.Context(), path, p, c, r.URL.Query().Get("quote"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, hl)
	return nil
}

// chunkOf resolves a chunk id within the path's {room}.
func (s *Server) chunkOf(r *http.Request, u *room.User, rm *room.Room, id string) (*room.Chunk, error) {
	c, err := s.opt.Rooms.Chunk(r.Context(), u.ID, id)
	if err != nil {
		return nil, err
	}
	d, err := s.opt.Rooms.Document(r.Context(), u.ID, c.DocumentID)
	if err != nil {
		return nil, err
	}
	if d.RoomID != rm.ID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no chunk %s in room %s", id, rm.Name)
	}
	return c, nil
}

// chunkOn resolves a chunk id that must lie on page p of d; "" is none.
func (s *Server) chunkOn(r *http.Request, u *room.User, d *room.Document, p *room.Page, id string) (*room.Chunk, error) {
	if id == "" {
		return nil, nil
	}
	c, err := s.opt.Rooms.Chunk(r.Context(), u.ID, id)
	if err != nil {
		return nil, err
	}
	if c.DocumentID != d.ID || c.PageNumber != p.Number {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no chunk %s on page %d of %s", id, p.Number, d.Name)
	}
	return c, nil
}

func (s *Server) getChunk(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	c, err := s.chunkOf(r, u, rm, r.PathValue("chunk"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c)
	return nil
}

// roomEvents streams the processing steps of the room's documents as
// server-sent events until the client goes away.
func (s *Server) roomEvents(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	latest, live, cancel, err := s.opt.Rooms.Watch(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	defer cancel()
	// The stream has no end of its own; a client dropped for being slow
	// reconnects and gets the latest steps again.
	r.Header.Del("Last-Event-ID")
	return stream(w, r, latest, live, func() any { return nil })
}

// askRoom answers {question} with the query as quarry ask --json prints
// it, and the rest of the record. Past the hourly limit: 429 with
// Retry-After.
func (s *Server) askRoom(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	var req struct {
		Question string `json:"question"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	q, err := s.ask(w, r, u, rm, req.Question)
	if err != nil {
		return err
	}
	w.Header().Set("Location", roomAPI(rm.ID)+"/queries/"+q.ID)
	writeJSON(w, http.StatusOK, q)
	return nil
}

// ask asks the service and sets Retry-After when it says to wait.
func (s *Server) ask(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room, question string) (*room.Query, error) {
	q, err := s.opt.Rooms.Ask(r.Context(), u.ID, rm.ID, question)
	var limited *room.RateLimited
	if errors.As(err, &limited) {
		w.Header().Set("Retry-After", strconv.Itoa(limited.RetryAfter))
	}
	return q, err
}

// queryOf resolves {query} within the path's {room}.
func (s *Server) queryOf(r *http.Request, u *room.User, rm *room.Room) (*room.Query, error) {
	id := r.PathValue("query")
	q, err := s.opt.Rooms.Query(r.Context(), u.ID, id)
	if err != nil {
		return nil, err
	}
	if q.RoomID != rm.ID {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "no query %s in room %s", id, rm.Name)
	}
	return q, nil
}

func (s *Server) getQuery(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	q, err := s.queryOf(r, u, rm)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, q)
	return nil
}

// putFeedback rates an answer {rating: helpful|not_helpful, comment},
// replacing an earlier rating.
func (s *Server) putFeedback(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	var req struct {
		Rating  string `json:"rating"`
		Comment string `json:"comment"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	q, err := s.queryOf(r, u, rm)
	if err != nil {
		return err
	}
	f, err := s.opt.Rooms.Feedback(r.Context(), u.ID, q.ID, req.Rating, req.Comment)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, f)
	return nil
}

// historyPage reads ?before= (RFC 3339, the next_before of the previous
// page) and ?limit= (1-100, default 20) and returns the page of history
// and where the next one starts ("" at the end).
func (s *Server) historyPage(r *http.Request, u *room.User, rm *room.Room) ([]room.Query, string, error) {
	var before time.Time
	if v := r.URL.Query().Get("before"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return nil, "", quarry.Errorf(quarry.ECodeInvalid, "before %q is not an RFC 3339 time", v)
		}
		before = t
	}
	limit := 20
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > room.MaxHistoryPage {
			return nil, "", quarry.Errorf(quarry.ECodeInvalid, "limit %q: want a whole number from 1 to %d", v, room.MaxHistoryPage)
		}
		limit = n
	}
	qs, err := s.opt.Rooms.History(r.Context(), u.ID, rm.ID, before, limit)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(qs) == limit {
		next = qs[len(qs)-1].CreatedAt.UTC().Format(time.RFC3339Nano)
	}
	if qs == nil {
		qs = []room.Query{}
	}
	return qs, next, nil
}

func (s *Server) history(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	qs, next, err := s.historyPage(r, u, rm)
	if err != nil {
		return err
	}
	out := map[string]any{"queries": qs}
	if next != "" {
		out["next_before"] = next
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) deleteHistory(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	n, err := s.opt.Rooms.DeleteHistory(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]int{"deleted": n})
	return nil
}

// exportHistory sends the user's history in the room as a JSON file,
// personal data masked.
func (s *Server) exportHistory(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	e, err := s.opt.Rooms.ExportHistory(r.Context(), u.ID, rm.ID)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "quarry-history-" + rm.Name + ".json"}))
	writeJSON(w, http.StatusOK, e)
	return nil
}

// roomAPI and documentAPI are the API addresses of a room and a document.
func roomAPI(roomID string) string { return "/api/rooms/" + roomID }

func documentAPI(roomID, docID string) string { return roomAPI(roomID) + "/documents/" + docID }

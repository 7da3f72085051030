package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/internal/app"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
	"github.com/quarry-dev/quarry/web"
)

// roomsEnv is a server with the data rooms over a real rooms.Service and
// SQLite store, with background workers: alice owns room A, bob owns room
// B, and vic is a viewer of A. Requests name their user in the X-User
// header (headerAuth).
type roomsEnv struct {
	t              testing.TB
	srv            *httptest.Server
	svc            *rooms.Service
	store          *sqlite.Rooms
	dir            string
	alice, bob     *room.User
	vic            *room.User
	a, b           *room.Room
	maxUploadBytes int64
}

// headerAuth says the request's user is the one X-User names; a
// request without the header is the user under "" (a browser's), if any.
type headerAuth map[string]*room.User

func (h headerAuth) User(r *http.Request) (*room.User, error) {
	if u, ok := h[r.Header.Get("X-User")]; ok && u != nil {
		return u, nil
	}
	return nil, quarry.Errorf(quarry.ECodeUnauthorized, "who are you?")
}

func newRoomsEnv(t testing.TB) *roomsEnv {
	t.Helper()
	return newRoomsEnvAs(t, "")
}

// newRoomsEnvAs is newRoomsEnv where requests without X-User come from
// browserUser ("" for nobody).
func newRoomsEnvAs(t testing.TB, browserUser string) *roomsEnv {
	t.Helper()
	needPoppler(t)
	ctx := context.Background()
	e := &roomsEnv{t: t, dir: t.TempDir(), maxUploadBytes: 256 << 10}
	st, err := sqlite.OpenRooms(filepath.Join(e.dir, "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	e.store = st
	e.svc = rooms.New(rooms.Config{Store: st, Dir: e.dir})
	workCtx, stop := context.WithCancel(ctx)
	if err := e.svc.Start(workCtx, 1); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(ctx, app.Options{DataDir: filepath.Join(e.dir, "sessions")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop()
		e.svc.Wait()
		a.Close()
		st.Close()
	})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	e.alice, err = e.svc.EnsureUser(ctx, "alice")
	must(err)
	e.bob, err = e.svc.EnsureUser(ctx, "bob")
	must(err)
	e.a, err = e.svc.CreateRoom(ctx, e.alice.ID, "deal-a", "the target's filings")
	must(err)
	e.b, err = e.svc.CreateRoom(ctx, e.bob.ID, "deal-b", "")
	must(err)
	m, err := e.svc.AddMember(ctx, e.alice.ID, e.a.ID, "vic", room.RoleViewer)
	must(err)
	e.vic, err = e.svc.Store.User(ctx, m.UserID)
	must(err)
	auth := headerAuth{"alice": e.alice, "bob": e.bob, "vic": e.vic}
	if browserUser != "" {
		auth[""] = auth[browserUser]
	}
	h := web.New(a.Investigations, web.Options{MaxUploadBytes: e.maxUploadBytes, Rooms: e.svc, Auth: auth})
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return e
}

// needPoppler skips a test that reads PDFs where poppler-utils is not
// installed, and fails it under CI=true, which installs it.
func needPoppler(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdftoppm", "pdfinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " not found; install poppler-utils"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// do sends a request as user ("" for nobody).
func (e *roomsEnv) do(user, method, path, contentType string, body io.Reader) response {
	e.t.Helper()
	return e.page(user, method, path, contentType, body, false)
}

func (e *roomsEnv) json(user, method, path string, v any) response {
	e.t.Helper()
	var body io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		body = bytes.NewReader(b)
	}
	return e.do(user, method, path, "application/json", body)
}

// upload sends content as the multipart field "file" named name.
func (e *roomsEnv) upload(user, roomID, name string, content []byte) response {
	e.t.Helper()
	ct, body := fileForm(name, content)
	return e.do(user, http.MethodPost, "/api/rooms/"+roomID+"/documents", ct, body)
}

// fileForm is a multipart body with content in the field "file".
func fileForm(name string, content []byte) (contentType string, body io.Reader) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	return mw.FormDataContentType(), &buf
}

// document uploads a document and waits until the workers completed it.
func (e *roomsEnv) document(user, roomID, name string, content []byte) *room.Document {
	e.t.Helper()
	r := e.upload(user, roomID, name, content)
	if r.status != http.StatusAccepted {
		e.t.Fatalf("upload %s: %d %s", name, r.status, r.body)
	}
	var d room.Document
	decode(e.t, r, &d)
	deadline := time.Now().Add(raceSlowdown * 30 * time.Second)
	for d.Status != room.StatusCompleted {
		if d.Status == room.StatusFailed || time.Now().After(deadline) {
			e.t.Fatalf("document %s is %s (%s); want completed", name, d.Status, d.Error)
		}
		time.Sleep(20 * time.Millisecond)
		decode(e.t, e.json(user, http.MethodGet, "/api/rooms/"+roomID+"/documents/"+d.ID, nil), &d)
	}
	return &d
}

func decode(t testing.TB, r response, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("%d %s: %v", r.status, r.body, err)
	}
}

// capexLine is the line of the sample filing's second page that answers
// the capital expenditure question; capex is its distinctive number.
const (
	capex     = "48.6"
	capexLine = "Capital expenditures in fiscal 2023 were $48.6 million, mostly for the new"
)

// filingPDF is a two-page filing: an overview on page 1, and on page 2 the
// capital expenditures with the distinctive number.
func filingPDF() []byte {
	return makePDF([][]string{
		{
			"Harbor Freight Logistics, Inc.",
			"Annual Report on Form 10-K for the fiscal year 2023",
			"",
			"Overview",
			"Harbor Freight Logistics operates twelve cross-dock terminals along",
			"the Gulf coast and moves container freight for retailers and grocers.",
			"Revenue grew because volumes at the Houston terminal recovered.",
		},
		{
			"Liquidity and Capital Resources",
			"",
			capexLine,
			"Mobile terminal cranes and yard automation, compared with $31.2",
			"million in fiscal 2022. We expect spending of about $40 million",
			"in fiscal 2024, funded from operating cash flow.",
		},
	})
}

// makePDF writes a PDF 1.4 file of US Letter pages holding the lines in
// 12-point Helvetica from the top, with a correct cross-reference table.
func makePDF(pages [][]string) []byte {
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	var objs []string
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, lines := range pages {
		var c strings.Builder
		c.WriteString("BT /F1 12 Tf 16 TL 72 720 Td\n")
		for _, l := range lines {
			fmt.Fprintf(&c, "(%s) Tj T*\n", esc.Replace(l))
		}
		c.WriteString("ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.String()))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

package roomstest

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/room/roomtest"
)

// Planted is a word every bad document with text holds and no good one
// does: asking for it must find nothing of them.
const Planted = "zanzibar"

// BadFile is an upload that must end in an error with Code, whose
// message holds Msg.
type BadFile struct {
	Name string
	Data []byte
	Code string
	Msg  string
}

// Refused are refused at upload (the service's Upload), before
// anything of them is kept.
func Refused() []BadFile {
	return []BadFile{
		{"empty.pdf", nil, quarry.ECodeEmptyFile, "empty.pdf is empty"},
		{"empty.txt", nil, quarry.ECodeEmptyFile, "empty.txt is empty"},
		{"setup.exe", []byte("MZ\x90\x00 " + Planted), quarry.ECodeInvalidFileType, "setup.exe is not a document Quarry reads"},
		{"report.pdf.exe", []byte("%PDF-1.4 " + Planted), quarry.ECodeInvalidFileType, "report.pdf.exe is not a document"},
		{"no-extension", []byte(Planted + " notes"), quarry.ECodeInvalidFileType, "no-extension is not a document"},
	}
}

// Failing are accepted at upload and fail when processed: zip bombs, a
// 5,000-page PDF, encrypted, damaged and disguised PDFs, an enormous
// page, files without text or without a passage long enough to search.
// Each holds the word Planted where it has text.
func Failing() []BadFile {
	var many []docparsetest.Page
	for i := range 5000 {
		many = append(many, docparsetest.TextPage(Planted+" ledger", "page "+strconv.Itoa(i+1)))
	}
	valid := docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage(Planted+" board minutes", "Revenue grew 12%")}, docparsetest.PDFOptions{})
	junk := make([]byte, 64<<10)
	rand.NewChaCha8([32]byte{1}).Read(junk)
	var pngData bytes.Buffer
	png.Encode(&pngData, image.NewGray(image.Rect(0, 0, 64, 64)))
	paragraph := "<w:p><w:r><w:t>" + Planted + " minutes of the board, paragraph after paragraph</w:t></w:r></w:p>"
	return []BadFile{
		// word/document.xml declares 60 MB, past docparse.MaxDOCXXML.
		{"bomb.docx", docparsetest.ZipBomb(" ", docparse.MaxDOCXXML+10<<20), quarry.ECodeMalformedDocument, "bomb.docx expands beyond 50 MB"},
		// It claims 100 bytes and inflates to 1 MB.
		{"liar.docx", docparsetest.LyingZip(), quarry.ECodeMalformedDocument, "liar.docx is not a valid Word document"},
		// 40 MB of paragraphs, within MaxDOCXXML, make some 9,500 pages.
		{"pages-bomb.docx", docparsetest.ZipBomb(paragraph, 40<<20), quarry.ECodeFileTooLarge, "pages; the limit is 2,000"},
		{"5000-pages.pdf", docparsetest.PDF(many, docparsetest.PDFOptions{}), quarry.ECodeFileTooLarge, "5000-pages.pdf has 5,000 pages; the limit is 2,000"},
		{"locked.pdf", docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage(Planted + " secret terms")}, docparsetest.PDFOptions{UserPassword: "hunter2"}),
			quarry.ECodeMalformedDocument, "locked.pdf is encrypted"},
		{"junk.pdf", append([]byte("%PDF-1.7\n"), junk...), quarry.ECodeMalformedDocument, "junk.pdf is damaged"},
		{"cut.pdf", valid[:len(valid)/2], quarry.ECodeMalformedDocument, "cut.pdf is damaged"},
		{"image.pdf", pngData.Bytes(), quarry.ECodeMalformedDocument, "its content looks like an image"},
		{"zip.pdf", docparsetest.DOCX("<w:p><w:r><w:t>"+Planted+"</w:t></w:r></w:p>", ""), quarry.ECodeMalformedDocument, "looks like a ZIP archive"},
		{"huge-page.txt", []byte(Planted + " cover page\f" + strings.Repeat("ledger ", docparse.DefaultMaxPageChars/7+1000)),
			quarry.ECodeFileTooLarge, "page 2 of huge-page.txt has"},
		{"blank.md", []byte(" \n\t\n\f\n"), quarry.ECodeEmptyFile, "blank.md contains no text"},
		{"short.txt", []byte(Planted + " too short"), quarry.ECodeEmptyFile, "short.txt has no passage of at least 50 characters"},
		{"latin1.txt", []byte(Planted + " caf\xe9 au lait, a paragraph long enough to be a passage of its own"), quarry.ECodeMalformedDocument, "latin1.txt is not UTF-8"},
	}
}

// testBadInput uploads each bad file through the service: refused ones
// leave nothing behind; the others end failed with their code and reason
// and without a page or chunk; nothing of any is found by asking; and the
// service goes on answering and processing.
func testBadInput(t *testing.T, f *fixture) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	ctx, svc := f.ctx, f.svc
	for _, b := range Refused() {
		d, err := svc.Upload(ctx, f.owner.ID, f.a.ID, b.Name, bytes.NewReader(b.Data))
		if err == nil {
			t.Errorf("upload %s = %+v; want %s", b.Name, d, b.Code)
			continue
		}
		wantMessage(t, "upload "+b.Name, err, b.Code, b.Msg)
	}
	var failed []string
	for _, b := range Failing() {
		d, err := svc.Upload(ctx, f.owner.ID, f.a.ID, b.Name, bytes.NewReader(b.Data))
		if err != nil {
			t.Errorf("upload %s: %v; want it accepted and failed when processed", b.Name, err)
			continue
		}
		failed = append(failed, d.ID)
		wantMessage(t, "process "+b.Name, svc.Process(ctx, d.ID), b.Code, b.Msg)
		d, err = svc.Document(ctx, f.owner.ID, d.ID)
		roomtest.Must(t, err)
		if d.Status != room.StatusFailed || d.ErrorCode != b.Code || !strings.Contains(d.Error, b.Msg) || d.PageCount != 0 || d.ChunkCount != 0 {
			t.Errorf("%s after processing: status %s, error %s %q, %d pages, %d chunks; want failed with %s %q and nothing else",
				b.Name, d.Status, d.ErrorCode, d.Error, d.PageCount, d.ChunkCount, b.Code, b.Msg)
		}
		if strings.Contains(d.Error, svc.Dir) {
			t.Errorf("%s: the reason %q shows the server's path", b.Name, d.Error)
		}
		if ps, err := svc.Pages(ctx, f.owner.ID, d.ID); err != nil || len(ps) != 0 {
			t.Errorf("%s: %d pages, %v; want none", b.Name, len(ps), err)
		}
	}

	// The room holds the report and the failed documents, and no file of
	// a refused upload.
	docs, err := svc.Documents(ctx, f.owner.ID, f.a.ID)
	roomtest.Must(t, err)
	if len(docs) != 1+len(failed) {
		t.Errorf("room A has %d documents; want the report and %d failed", len(docs), len(failed))
	}
	kept, _ := filepath.Glob(filepath.Join(svc.Dir, "rooms", f.a.ID, "documents", "*"))
	if len(kept) != len(docs) {
		t.Errorf("room A's directory holds %d documents; want %d (refused uploads leave nothing)", len(kept), len(docs))
	}

	// Nothing of them is found.
	q := f.ask(t, f.owner, f.a, "What does the "+Planted+" ledger say about the board minutes and secret terms?")
	for _, id := range failed {
		if cites(q, id) {
			t.Errorf("asking for the Planted word cites a failed document: %+v", q.Citations)
		}
	}
	if q.AnswerType == room.AnswerGrounded {
		t.Errorf("asking for the Planted word: %s %q; want insufficient evidence", q.AnswerType, q.Answer)
	}

	// The service goes on: it answers, and takes and processes documents.
	if q := f.ask(t, f.owner, f.a, questionA); !strings.Contains(q.Answer, answerA) {
		t.Errorf("asking after the bad input: %q; want %s", q.Answer, answerA)
	}
	memo := f.processed(t, f.owner, f.a, "../../outside.txt", "Memo on the Okapi warehouse lease, which runs until 2031 at 48,000 dollars a month.")
	if memo.Name != "outside.txt" {
		t.Errorf("a name with a path is kept as %q; want outside.txt", memo.Name)
	}
	path, _, err := svc.FilePath(ctx, f.owner.ID, memo.ID)
	roomtest.Must(t, err)
	if !strings.HasPrefix(path, filepath.Join(svc.Dir, "rooms", f.a.ID)+string(filepath.Separator)) {
		t.Errorf("the upload named ../../outside.txt is kept at %s, outside its room", path)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

// wantMessage fails unless err carries code and a message containing msg.
func wantMessage(t *testing.T, what string, err error, code, msg string) {
	t.Helper()
	roomtest.WantCode(t, what, err, code)
	if err != nil && !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: %q; want it to say %q", what, err, msg)
	}
}

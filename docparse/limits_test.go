package docparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// hangGuard bounds a test that would hang if a budget did not hold; it is
// never what a test asserts.
const hangGuard = 2 * time.Minute

// setBudget sets *b to v for the test.
func setBudget[T any](t *testing.T, b *T, v T) {
	old := *b
	*b = v
	t.Cleanup(func() { *b = old })
}

// fakeTools puts shell scripts named for programs first on the PATH,
// before the real ones.
func fakeTools(t *testing.T, scripts map[string]string) {
	dir := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// onePage is a PDF of one text page with the boxes of box.
func onePage(box docparsetest.Page) []byte {
	p := docparsetest.TextPage("Boxed page")
	p.MediaBox, p.CropBox, p.UserUnit, p.Rotate = box.MediaBox, box.CropBox, box.UserUnit, box.Rotate
	return docparsetest.PDF([]docparsetest.Page{p}, docparsetest.PDFOptions{})
}

// TestRenderPageBoxes renders pages whose boxes once made images far over
// the cap: a 100-point CropBox on a 3,000-point MediaBox (pdftoppm drew
// the MediaBox: 12,500 x 12,500 pixels at 300 dpi and 600 MB), a huge
// MediaBox alone, a UserUnit of 75,000 and a rotated strip. Each is drawn
// within 64 MB of address space, at the size of the box pdfinfo gives, or
// refused as RESOURCE_LIMIT.
func TestRenderPageBoxes(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftoppm")
	setBudget(t, &budgets.memory, 64<<20)
	tests := []struct {
		name          string
		box           docparsetest.Page
		dpi           int
		width, height int // 0: RESOURCE_LIMIT
	}{
		{"tiny CropBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 3000, 3000}, CropBox: [4]float64{0, 0, 100, 100}}, 300, 417, 417},
		{"offset CropBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 3000, 3000}, CropBox: [4]float64{1000, 1000, 1144, 1072}}, 100, 200, 100},
		{"huge MediaBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 14400, 14400}}, 100, 0, 0},
		{"huge MediaBox at 12 dpi", docparsetest.Page{MediaBox: [4]float64{0, 0, 14400, 14400}}, 12, 2400, 2400},
		{"UserUnit 75000", docparsetest.Page{MediaBox: [4]float64{0, 0, 100, 100}, UserUnit: 75000}, 300, 417, 417},
		{"rotated strip", docparsetest.Page{MediaBox: [4]float64{0, 0, 3000, 100}, Rotate: 90}, 72, 100, 3000},
		{"CropBox past the MediaBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 100, 100}, CropBox: [4]float64{-9e6, -9e6, 9e6, 9e6}}, 300, 417, 417},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			path := writeFile(t, "box.pdf", onePage(tt.box))
			img, err := RenderPage(ctx, path, 1, tt.dpi)
			if tt.width == 0 {
				if want := "page 1 of the PDF is too large to draw at 100 dpi: the limit is 50,000,000 pixels"; quarry.ErrorCode(err) != quarry.ECodeResourceLimit || message(err) != want {
					t.Fatalf("RenderPage(%s, %d dpi) = %v; want RESOURCE_LIMIT naming the pixel limit", tt.name, tt.dpi, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("RenderPage(%s, %d dpi) = %v", tt.name, tt.dpi, err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(img))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != tt.width || cfg.Height != tt.height {
				t.Errorf("RenderPage(%s, %d dpi) is %dx%d; want %dx%d", tt.name, tt.dpi, cfg.Width, cfg.Height, tt.width, tt.height)
			}
		})
	}
}

// TestRenderCut checks the cap that does not rest on pdfinfo: told a page
// is smaller than the box poppler draws, pdftoppm makes an image no larger
// than it was told.
func TestRenderCut(t *testing.T) {
	docparsetest.RequireTools(t, "pdftoppm")
	path := writeFile(t, "huge.pdf", onePage(docparsetest.Page{MediaBox: [4]float64{0, 0, 14400, 14400}}))
	r := pageRender{page: 1, dpi: 300, w: 120, h: 80}
	out, err := exec.Command("pdftoppm", append(r.args(), "-png", path)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 120 || cfg.Height != 80 {
		t.Errorf("pdftoppm %v is %dx%d; want 120x80", r.args(), cfg.Width, cfg.Height)
	}
	if err := r.check(cfg, "drawing"); err != nil {
		t.Errorf("check(%dx%d) = %v; want nil", cfg.Width, cfg.Height, err)
	}
	big := r
	big.w, big.h = 119, 80
	if err := big.check(cfg, "drawing page 1 of a.pdf"); quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
		t.Errorf("check of 120x80 against 119x80 = %v; want RESOURCE_LIMIT", err)
	}
}

func TestPlanRender(t *testing.T) {
	tests := []struct {
		w, h   float64
		rotate int
		dpi    int
		maxPx  int
		shrink bool
		want   pageRender
		code   string
	}{
		{612, 792, 0, 72, maxPixels, false, pageRender{page: 1, dpi: 72, w: 613, h: 793}, ""},
		{3000, 100, 90, 72, maxPixels, false, pageRender{page: 1, dpi: 72, w: 101, h: 3001}, ""},
		{14400, 14400, 0, 100, maxPixels, false, pageRender{}, quarry.ECodeResourceLimit},
		{1e300, 1e300, 0, 300, maxPixels, true, pageRender{}, quarry.ECodeResourceLimit},
		{0, 792, 0, 72, maxPixels, false, pageRender{}, quarry.ECodeMalformedDocument},
		{-5, 792, 0, 72, maxPixels, true, pageRender{}, quarry.ECodeMalformedDocument},
		{100, 100, 0, 300, ocrMaxPixels, true, pageRender{page: 1, dpi: 300, w: 418, h: 418}, ""},
	}
	for _, tt := range tests {
		info := pdfInfo{width: tt.w, height: tt.h, rotate: tt.rotate}
		got, err := planRender(info, 1, tt.dpi, tt.maxPx, tt.shrink, "a.pdf")
		if quarry.ErrorCode(err) != tt.code || (tt.code == "" && got != tt.want) {
			t.Errorf("planRender(%gx%g rot %d, %d dpi, shrink %v) = %+v, %v; want %+v, code %q", tt.w, tt.h, tt.rotate, tt.dpi, tt.shrink, got, err, tt.want, tt.code)
		}
	}
	// Shrinking finds the largest resolution within the cap, up to the
	// one asked for, for any page size.
	for _, side := range []float64{1, 100, 612, 3000, 14400, 200_000, 3e6} {
		for _, maxPx := range []int{maxPixels, ocrMaxPixels} {
			r, err := planRender(pdfInfo{width: side, height: side / 2}, 1, ocrDPI, maxPx, true, "a.pdf")
			if !fits(side, side/2, 1, maxPx) {
				if quarry.ErrorCode(err) != quarry.ECodeResourceLimit {
					t.Errorf("planRender(%gx%g, shrink to %d) = %v; want RESOURCE_LIMIT", side, side/2, maxPx, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("planRender(%gx%g, shrink) = %v", side, side/2, err)
				continue
			}
			if r.w*r.h > maxPx || r.dpi < 1 || r.dpi > ocrDPI {
				t.Errorf("planRender(%gx%g, shrink to %d) = %+v; want at most %d pixels at 1-%d dpi", side, side/2, maxPx, r, maxPx, ocrDPI)
			}
			if r.dpi < ocrDPI && fits(side, side/2, r.dpi+1, maxPx) {
				t.Errorf("planRender(%gx%g, shrink to %d) = %d dpi; %d dpi fits too", side, side/2, maxPx, r.dpi, r.dpi+1)
			}
		}
	}
}

// keepImages makes tesseract a script that keeps a copy of each image it
// is given in dir, then runs the real tesseract on it.
func keepImages(t *testing.T) string {
	real, err := exec.LookPath("tesseract")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fakeTools(t, map[string]string{"tesseract": fmt.Sprintf("cp \"$1\" %q/\nexec %q \"$@\"\n", dir, real)})
	return dir
}

// TestOCRBoxes OCRs scanned pages whose boxes once made OCR draw 12,500 x
// 12,500 pixels and use 1.66 GB: each page is drawn within ocrMaxPixels
// and read within 512 MB of address space.
func TestOCRBoxes(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext", "pdftoppm", "tesseract")
	setBudget(t, &budgets.memory, 512<<20)
	scan := docparsetest.ScanImage("TOTAL ASSETS 4521")
	tests := []struct {
		name          string
		box           docparsetest.Page
		width, height int // of the image OCR reads
	}{
		// The scan is drawn at the top left of a letter page, inside
		// this CropBox.
		{"tiny CropBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 3000, 3000}, CropBox: [4]float64{0, 600, 612, 792}}, 2550, 800},
		{"huge MediaBox", docparsetest.Page{MediaBox: [4]float64{0, 0, 14400, 14400}}, 4000, 4000}, // 20 dpi
		{"UserUnit 75000", docparsetest.Page{UserUnit: 75000}, 2550, 3300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			images := keepImages(t)
			page := tt.box
			page.Scan = scan
			data := docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage("Cover"), page}, docparsetest.PDFOptions{})
			path := writeFile(t, "scan.pdf", data)
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			doc, err := Extract(ctx, path, "scan.pdf", DefaultOptions())
			checkDocument(t, doc, err)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name != "huge MediaBox" && !strings.Contains(doc.Pages[1].Text, "TOTAL ASSETS 4521") {
				t.Errorf("page 2 = %q; want the scanned line", doc.Pages[1].Text)
			}
			seen, _ := os.ReadDir(images)
			if len(seen) != 1 {
				t.Fatalf("tesseract read %d images; want 1", len(seen))
			}
			f, err := os.Open(filepath.Join(images, seen[0].Name()))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cfg, err := png.DecodeConfig(f)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width*cfg.Height > ocrMaxPixels || cfg.Width != tt.width || cfg.Height != tt.height {
				t.Errorf("OCR read a %dx%d image; want %dx%d, at most %d pixels", cfg.Width, cfg.Height, tt.width, tt.height, ocrMaxPixels)
			}
		})
	}
}

// TestChildTimeout makes each program hang, and a child of it hang too:
// the program's time budget ends the document with RESOURCE_LIMIT naming
// the page and the budget, and its whole process group is killed.
func TestChildTimeout(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext", "pdftoppm", "tesseract")
	scanned := writeFile(t, "scan.pdf", scannedPDF())
	tests := []struct {
		prog   string
		budget *time.Duration // shortened to 200ms
		call   func(context.Context) error
		msg    string
	}{
		{"pdftoppm", &budgets.render, func(ctx context.Context) error { _, err := RenderPage(ctx, scanned, 2, 100); return err },
			"drawing page 2 of the PDF went over its time budget of 200ms"},
		{"pdftoppm", &budgets.render, func(ctx context.Context) error {
			_, err := Extract(ctx, scanned, "scan.pdf", DefaultOptions())
			return err
		},
			"drawing page 2 of scan.pdf for OCR went over its time budget of 200ms"},
		{"tesseract", &budgets.ocrPage, func(ctx context.Context) error {
			_, err := Extract(ctx, scanned, "scan.pdf", DefaultOptions())
			return err
		},
			"OCR of page 2 of scan.pdf went over its time budget of 200ms"},
		{"pdftotext", &budgets.text, func(ctx context.Context) error {
			_, err := Extract(ctx, scanned, "scan.pdf", DefaultOptions())
			return err
		},
			// The pages are read in one batch or one a core.
			"reading the text of (page 1|page 2|pages 1-2) of scan.pdf went over its time budget of 200ms"},
		{"pdftotext", &budgets.text, func(ctx context.Context) error { _, err := WordBoxes(ctx, scanned, 1); return err },
			"reading the words of page 1 of the PDF went over its time budget of 200ms"},
		{"pdfinfo", &budgets.info, func(ctx context.Context) error {
			_, err := Extract(ctx, scanned, "scan.pdf", DefaultOptions())
			return err
		},
			"reading the pages of scan.pdf went over its time budget of 200ms"},
		{"pdfinfo", &budgets.info, func(ctx context.Context) error { _, err := RenderPage(ctx, scanned, 1, 100); return err },
			"reading the size of page 1 of the PDF went over its time budget of 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			// The script's child holds standard output open and would
			// outlive a kill of the script alone.
			fakeTools(t, map[string]string{tt.prog: fmt.Sprintf("sleep 3600 &\necho $! >> %q\nwait\n", pids)})
			setBudget(t, tt.budget, 200*time.Millisecond)
			setBudget(t, &budgets.textPage, 0)
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			err := tt.call(ctx)
			if quarry.ErrorCode(err) != quarry.ECodeResourceLimit || !regexp.MustCompile("^"+tt.msg+"$").MatchString(message(err)) {
				t.Fatalf("with %s hanging: %v; want RESOURCE_LIMIT matching %q", tt.prog, err, tt.msg)
			}
			data, _ := os.ReadFile(pids)
			if len(data) == 0 {
				t.Fatal("the fake program did not run")
			}
			for _, f := range strings.Fields(string(data)) {
				pid, _ := strconv.Atoi(f)
				waitGone(t, pid)
			}
		})
	}
}

// message is the Message of err, a *quarry.Error, without its code and
// hint.
func message(err error) string {
	var qe *quarry.Error
	if !errors.As(err, &qe) {
		return fmt.Sprint(err)
	}
	return qe.Message
}

// waitGone fails the test unless process pid ends (or is left a zombie)
// soon after its group was killed.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for range 500 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// "pid (comm) state ..."; Z is a zombie, X dead.
		if err != nil || strings.Contains(string(stat), ") Z ") || strings.Contains(string(stat), ") X ") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("process %d of the killed program's group is still running", pid)
}

// TestChildMemory renders a page that needs more memory than the budget:
// RESOURCE_LIMIT naming the page and the budget, never a broken image.
func TestChildMemory(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftoppm", "tesseract")
	setBudget(t, &budgets.memory, 48<<20)
	path := writeFile(t, "a.pdf", samplePDF())
	// At 72 dpi the page fits in the budget.
	if _, err := RenderPage(context.Background(), path, 1, 72); err != nil {
		t.Fatalf("RenderPage(72 dpi) under 48 MB = %v", err)
	}
	// At 600 dpi, 5,100 x 6,600 pixels of color take 100 MB.
	_, err := RenderPage(context.Background(), path, 1, 600)
	if want := "drawing page 1 of the PDF went over its memory budget of 48 MB"; quarry.ErrorCode(err) != quarry.ECodeResourceLimit || message(err) != want {
		t.Errorf("RenderPage(600 dpi) under 48 MB = %v; want RESOURCE_LIMIT %q", err, want)
	}
	// Tesseract loads its model and a 2,550 x 3,300 page image.
	setBudget(t, &budgets.memory, 128<<20)
	_, err = Extract(context.Background(), writeFile(t, "s.pdf", scannedPDF()), "scan.pdf", DefaultOptions())
	if want := "OCR of page 2 of scan.pdf went over its memory budget of 128 MB"; quarry.ErrorCode(err) != quarry.ECodeResourceLimit || message(err) != want {
		t.Errorf("Extract(scan.pdf) under 128 MB = %v; want RESOURCE_LIMIT %q", err, want)
	}
}

// TestDocumentBudget ends a document whose programs each stay within
// their budgets but together go over the document's.
func TestDocumentBudget(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	setBudget(t, &budgets.document, 300*time.Millisecond)
	fakeTools(t, map[string]string{"pdftotext": "exec sleep 3600\n"})
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	_, err := Extract(ctx, writeFile(t, "a.pdf", samplePDF()), "a.pdf", Options{})
	if want := "reading a.pdf went over its time budget of 300ms"; quarry.ErrorCode(err) != quarry.ECodeResourceLimit || message(err) != want {
		t.Errorf("Extract = %v; want RESOURCE_LIMIT %q", err, want)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Extract = %v; the document's budget is not the caller's deadline", err)
	}
}

// TestChildSlots runs more page images at once than there are slots: no
// more programs run at once than childSlots holds, and that many do.
func TestChildSlots(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo")
	const slots = 2
	setBudget(t, &childSlots, make(chan struct{}, slots))
	dir := t.TempDir()
	// Each run marks itself running, writes how many are, then waits a
	// little so that runs overlap if they may.
	fakeTools(t, map[string]string{"pdftoppm": fmt.Sprintf(`d=%q
touch "$d/run.$$"
ls "$d" | grep -c '^run\.' >> "$d/counts"
sleep 0.2
rm "$d/run.$$"
exit 1
`, dir)})
	path := writeFile(t, "a.pdf", samplePDF())
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			_, errs[i] = RenderPage(ctx, path, 1, 72)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if quarry.ErrorCode(err) != quarry.ECodeMalformedDocument {
			t.Errorf("RenderPage with a failing pdftoppm = %v; want MALFORMED_DOCUMENT", err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "counts"))
	if err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, f := range strings.Fields(string(data)) {
		n, _ := strconv.Atoi(f)
		counts = append(counts, n)
	}
	if len(counts) != len(errs) || slices.Max(counts) != slots {
		t.Errorf("programs running at once, as each run saw it: %v; want %d runs, at most and at some point %d", counts, len(errs), slots)
	}
}

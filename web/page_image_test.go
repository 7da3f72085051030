package web_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// TestPageImageCap serves pages whose boxes once made 12,500-pixel images:
// a 100-point CropBox on a 3,000-point MediaBox is drawn as its CropBox,
// and a page over the pixel cap is refused as 413 RESOURCE_LIMIT.
func TestPageImageCap(t *testing.T) {
	e := newRoomsEnv(t)
	tiny := docparsetest.TextPage("A cropped page whose text is long enough to be searched as a passage.")
	tiny.MediaBox, tiny.CropBox = [4]float64{0, 0, 3000, 3000}, [4]float64{0, 700, 100, 800}
	huge := docparsetest.TextPage("A huge page whose text is also long enough to be searched as a passage.")
	huge.MediaBox = [4]float64{0, 0, 14400, 14400}
	d := e.document("alice", e.a.ID, "boxes.pdf", docparsetest.PDF([]docparsetest.Page{tiny, huge}, docparsetest.PDFOptions{}))
	doc := "/api/rooms/" + e.a.ID + "/documents/" + d.ID

	r := e.json("vic", "GET", doc+"/pages/1/image?dpi=300", nil)
	if r.status != 200 {
		t.Fatalf("page 1 image: %d %s", r.status, r.body)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(r.body))
	if err != nil || cfg.Width != 417 || cfg.Height != 417 {
		t.Errorf("page 1 image at 300 dpi is %dx%d (%v); want its 100-point CropBox, 417x417", cfg.Width, cfg.Height, err)
	}
	if r := e.json("vic", "GET", doc+"/pages/2/image", nil); r.status != 413 || r.code(t) != "RESOURCE_LIMIT" {
		t.Errorf("page 2 image: %d %s; want 413 RESOURCE_LIMIT", r.status, r.body)
	}
}

// Package docparsetest makes documents for tests of docparse and of
// everything that uploads through it: PDFs written by hand (text, scanned
// pages, encryption, any number of pages), DOCX archives, and zip bombs.
// RequireTools says which tests need poppler-utils or tesseract-ocr.
package docparsetest

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"crypto/rc4"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Page is one page of a generated PDF: lines of Helvetica text, and
// optionally an image drawn at 300 dpi (a "scanned" page), on a US Letter
// MediaBox unless the page's boxes say otherwise.
type Page struct {
	Lines []Line
	Scan  *image.Gray
	// MediaBox and CropBox, when not zero, are the page's boxes in points
	// [llx lly urx ury]; a zero CropBox is left out.
	MediaBox, CropBox [4]float64
	// UserUnit, when set, is the size of a unit in 1/72 inch (PDF 1.6).
	UserUnit float64
	// Rotate, when set, turns the page clockwise by that many degrees.
	Rotate int
}

// Line is text at (X, Y) points from the bottom-left corner, Size points
// high.
type Line struct {
	X, Y, Size float64
	Text       string
}

// TextPage is a page with one line per string, from the top.
func TextPage(lines ...string) Page {
	var p Page
	for i, l := range lines {
		p.Lines = append(p.Lines, Line{X: 72, Y: 720 - 16*float64(i), Size: 12, Text: l})
	}
	return p
}

// PDFOptions are the generated PDF's metadata and encryption.
type PDFOptions struct {
	Title string
	// UserPassword, when set, encrypts the file with RC4 40-bit (the
	// standard security handler, revision 2): it opens only with it.
	UserPassword string
}

// PDF writes a PDF 1.4 file by hand: a catalog, a page tree, one
// Helvetica font, a content stream (and image) per page, an information
// dictionary, and a cross-reference table with computed offsets.
func PDF(pages []Page, opt PDFOptions) []byte {
	type object struct {
		dict   string
		stream []byte
	}
	var objs []object // object i+1
	add := func(o object) int {
		objs = append(objs, o)
		return len(objs)
	}
	catalog := add(object{})
	tree := add(object{})
	fontObj := add(object{dict: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"})
	var kids []string
	for _, p := range pages {
		var content bytes.Buffer
		resources := fmt.Sprintf("/Font << /F1 %d 0 R >>", fontObj)
		for _, l := range p.Lines {
			fmt.Fprintf(&content, "BT /F1 %g Tf %g %g Td (%s) Tj ET\n", l.Size, l.X, l.Y, pdfEscape(l.Text))
		}
		if p.Scan != nil {
			b := p.Scan.Bounds()
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			zw.Write(p.Scan.Pix)
			zw.Close()
			img := add(object{
				dict:   fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", b.Dx(), b.Dy()),
				stream: z.Bytes(),
			})
			w, h := float64(b.Dx())*72/300, float64(b.Dy())*72/300
			fmt.Fprintf(&content, "q %g 0 0 %g 36 %g cm /Im1 Do Q\n", w, h, 792-72-h)
			resources += fmt.Sprintf(" /XObject << /Im1 %d 0 R >>", img)
		}
		c := add(object{dict: "<<", stream: content.Bytes()})
		pg := add(object{dict: fmt.Sprintf("<< /Type /Page /Parent %d 0 R %s/Resources << %s >> /Contents %d 0 R >>", tree, p.boxes(), resources, c)})
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	objs[catalog-1].dict = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", tree)
	objs[tree-1].dict = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	info := add(object{})
	id := md5.Sum([]byte(fmt.Sprint(pages, opt)))

	var key []byte
	encrypt := 0
	if opt.UserPassword != "" {
		var o, u []byte
		key, o, u = rc4Keys(opt.UserPassword, "owner-"+opt.UserPassword, -44, id[:])
		encrypt = add(object{dict: fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /O <%x> /U <%x> /P -44 >>", o, u)})
	}
	crypt := func(num int, data []byte) []byte {
		if key == nil {
			return data
		}
		return rc4Object(key, num, data)
	}
	objs[info-1].dict = fmt.Sprintf("<< /Producer <%x> >>", crypt(info, []byte("docparse test")))
	if opt.Title != "" {
		objs[info-1].dict = fmt.Sprintf("<< /Title <%x> >>", crypt(info, []byte(opt.Title)))
	}

	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		num := i + 1
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", num)
		if o.stream == nil {
			b.WriteString(o.dict + "\nendobj\n")
			continue
		}
		data := o.stream
		if num != encrypt {
			data = crypt(num, data)
		}
		fmt.Fprintf(&b, "%s /Length %d >>\nstream\n", strings.TrimSuffix(o.dict, ">>"), len(data))
		b.Write(data)
		b.WriteString("\nendstream\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%x> <%x>]", len(objs)+1, catalog, info, id, id)
	if encrypt > 0 {
		fmt.Fprintf(&b, " /Encrypt %d 0 R", encrypt)
	}
	fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

// boxes writes the page's MediaBox, CropBox, UserUnit and Rotate entries.
func (p Page) boxes() string {
	media := p.MediaBox
	if media == [4]float64{} {
		media = [4]float64{0, 0, 612, 792}
	}
	s := "/MediaBox " + pdfRect(media) + " "
	if c := p.CropBox; c != [4]float64{} {
		s += "/CropBox " + pdfRect(c) + " "
	}
	if p.UserUnit != 0 {
		s += "/UserUnit " + pdfNumber(p.UserUnit) + " "
	}
	if p.Rotate != 0 {
		s += fmt.Sprintf("/Rotate %d ", p.Rotate)
	}
	return s
}

// pdfNumber writes f as a PDF real, which has no exponent.
func pdfNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func pdfRect(r [4]float64) string {
	return "[" + pdfNumber(r[0]) + " " + pdfNumber(r[1]) + " " + pdfNumber(r[2]) + " " + pdfNumber(r[3]) + "]"
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// pdfPadding is the password padding of the standard security handler.
var pdfPadding = []byte("\x28\xBF\x4E\x5E\x4E\x75\x8A\x41\x64\x00\x4E\x56\xFF\xFA\x01\x08\x2E\x2E\x00\xB6\xD0\x68\x3E\x80\x2F\x0C\xA9\xFE\x64\x53\x69\x7A")

func padPassword(pw string) []byte {
	return append([]byte(pw), pdfPadding...)[:32]
}

// rc4Keys computes the file key and the /O and /U entries of the standard
// security handler, revision 2 (PDF 1.7, algorithms 2, 3 and 4).
func rc4Keys(user, owner string, p int32, id []byte) (key, o, u []byte) {
	ownerKey := md5.Sum(padPassword(owner))
	o = rc4Crypt(ownerKey[:5], padPassword(user))
	h := md5.New()
	h.Write(padPassword(user))
	h.Write(o)
	binary.Write(h, binary.LittleEndian, p)
	h.Write(id)
	key = h.Sum(nil)[:5]
	u = rc4Crypt(key, pdfPadding)
	return key, o, u
}

// rc4Object encrypts one object's string or stream (algorithm 1).
func rc4Object(key []byte, num int, data []byte) []byte {
	k := append(append([]byte{}, key...), byte(num), byte(num>>8), byte(num>>16), 0, 0)
	sum := md5.Sum(k)
	return rc4Crypt(sum[:min(len(key)+5, 16)], data)
}

func rc4Crypt(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err)
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// ScanImage draws lines of text in Go Regular, black on white, at 300 dpi
// the size of 16-point type: a page that has no text layer.
func ScanImage(lines ...string) *image.Gray {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err) // the embedded font parses
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 16, DPI: 300, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	defer face.Close()
	lineHeight := face.Metrics().Height.Ceil() * 3 / 2
	img := image.NewGray(image.Rect(0, 0, 2200, lineHeight*(len(lines)+1)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(60, lineHeight*(i+1))
		d.DrawString(l)
	}
	return img
}

package docparse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// writeFile writes data to a new directory as name and returns its path.
func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// extract writes data under a server-side name unlike name and extracts it
// as name, so that messages can be checked not to show the path.
func extract(t testing.TB, name string, data []byte, o Options) (*Document, error) {
	t.Helper()
	path := writeFile(t, "upload-7f3a.bin", data)
	doc, err := Extract(context.Background(), path, name, o)
	if err != nil && strings.Contains(err.Error(), filepath.Dir(path)) {
		t.Errorf("Extract(%s) error %q shows the server path", name, err)
	}
	return doc, err
}

func texts(doc *Document) []string {
	var out []string
	for _, p := range doc.Pages {
		out = append(out, p.Text)
	}
	return out
}

// checkDocument checks what every Extract result must satisfy: an error is
// a *quarry.Error, and pages are numbered 1..n with normalized UTF-8 text.
func checkDocument(t testing.TB, doc *Document, err error) {
	t.Helper()
	if err != nil {
		var qe *quarry.Error
		if !errors.As(err, &qe) || qe.Code == "" || qe.Code == quarry.ECodeInternal {
			t.Fatalf("error %v (%T) is not a *quarry.Error with a code", err, err)
		}
		return
	}
	if len(doc.Pages) == 0 {
		t.Fatal("no error and no pages")
	}
	for i, p := range doc.Pages {
		if p.Number != i+1 {
			t.Errorf("page %d has Number %d", i+1, p.Number)
		}
		if !utf8.ValidString(p.Text) {
			t.Errorf("page %d is not valid UTF-8: %q", p.Number, p.Text)
		}
		if strings.ContainsAny(p.Text, "\r\x00\f") {
			t.Errorf("page %d holds CR, NUL or form feed: %q", p.Number, p.Text)
		}
		for _, l := range strings.Split(p.Text, "\n") {
			if strings.TrimRight(l, " \t") != l {
				t.Errorf("page %d has a line with trailing space: %q", p.Number, l)
			}
		}
		if (p.OCRConfidence != nil) != p.OCR {
			t.Errorf("page %d: OCR %v with confidence %v", p.Number, p.OCR, p.OCRConfidence)
		}
	}
}

// paragraphs returns n paragraphs of size characters each, separated by
// blank lines.
func paragraphs(n, size int) string {
	var ps []string
	for i := range n {
		ps = append(ps, strings.Repeat(string(rune('a'+i%26)), size))
	}
	return strings.Join(ps, "\n\n")
}

func TestExtract(t *testing.T) {
	long := paragraphs(10, 1000)
	csvRows := "id,name,amount\n"
	for i := 1; i <= 120; i++ {
		csvRows += fmt.Sprintf("%d,item %d,%d.50\n", i, i, i*10)
	}
	tests := []struct {
		name  string
		data  string
		title string
		pages []string
	}{
		{"notes.txt", "Hello  \r\nworld\r\n\r\n\r\n", "", []string{"Hello\nworld"}},
		{"pages.txt", "one\fpage two\n  indented\f", "", []string{"one", "page two\n  indented"}},
		{"bom.txt", "\xEF\xBB\xBFcaf\u00e9 \u20ac5", "", []string{"caf\u00e9 \u20ac5"}},
		{"utf16.txt", "\xFF\xFEh\x00i\x00\n\x00\xAC\x20", "", []string{"hi\n\u20ac"}},
		{"controls.txt", "a\x00b\x1bc\td", "", []string{"abc\td"}},
		{"long.txt", long, "", []string{
			paragraphs(2, 1000),
			strings.Join(strings.Split(paragraphs(4, 1000), "\n\n")[2:], "\n\n"),
			strings.Join(strings.Split(paragraphs(6, 1000), "\n\n")[4:], "\n\n"),
			strings.Join(strings.Split(paragraphs(8, 1000), "\n\n")[6:], "\n\n"),
			strings.Join(strings.Split(long, "\n\n")[8:], "\n\n"),
		}},
		{"one-line.txt", strings.Repeat("word ", 1300), "", []string{
			strings.TrimSpace(strings.Repeat("word ", 600)),
			strings.TrimSpace(strings.Repeat("word ", 600)),
			strings.TrimSpace(strings.Repeat("word ", 100)),
		}},
		{"README.md", "Intro\n\n```\n# not a title\n```\n\n# Data room guide #\n\nText.", "Data room guide", []string{"Intro\n\n```\n# not a title\n```\n\n# Data room guide #\n\nText."}},
		{"setext.markdown", "Guide\n=====\n\nBody", "Guide", []string{"Guide\n=====\n\nBody"}},
		{"page.html", `<!DOCTYPE html><html><head><title> Q3  report </title><style>p{}</style></head>
<body><script>var x = "hidden";</script><h1>Results</h1><p>Revenue   grew
 <b>12%</b>.</p><ul><li>EMEA</li><li>APAC</li></ul><ol start="3"><li>third</li></ol>
<table><tr><th>Region</th><th>Q3</th><th></th></tr><tr><td>EMEA</td><td>1,200</td></tr><tr><td></td></tr></table>
<pre>a  b
  c</pre><p>x<br>y &amp; z&nbsp;w</p><noscript>no</noscript><template>t</template></body></html>`,
			"Q3 report", []string{"Results\n\nRevenue grew 12%.\n\n- EMEA\n- APAC\n\n3. third\n\nRegion | Q3\nEMEA | 1,200\n\na  b\n  c\n\nx\ny & z w"}},
		{"untitled.htm", "<h1>Heading</h1><div>one</div><div>two</div>", "Heading", []string{"Heading\n\none\ntwo"}},
		{"latin1.html", "<meta charset=\"iso-8859-1\"><p>caf\xe9</p>", "", []string{"caf\u00e9"}},
		{"data.csv", "a;b;c\n1;\"x;y\";3,5\n\n4;5;6\n", "", []string{"a | b | c\n1 | x;y | 3,5\n4 | 5 | 6"}},
		{"tabs.csv", "a\tb\n1\t2\n", "", []string{"a | b\n1 | 2"}},
		{"pipes.csv", "a|b|c\n1|2|3\n", "", []string{"a | b | c\n1 | 2 | 3"}},
		{"multiline.csv", "name,note\nx,\"two\nlines\"\n", "", []string{"name | note\nx | two lines"}},
		{"header-only.csv", "a,b\n", "", []string{"a | b"}},
		{"bare-quote.csv", "a,b\n1,say \"hi\"\n", "", []string{"a | b\n1 | say \"hi\""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := extract(t, tt.name, []byte(tt.data), Options{})
			checkDocument(t, doc, err)
			if err != nil {
				t.Fatalf("Extract(%s): %v", tt.name, err)
			}
			if got := texts(doc); !reflect.DeepEqual(got, tt.pages) {
				t.Errorf("Extract(%s) pages = %q; want %q", tt.name, got, tt.pages)
			}
			if doc.Title != tt.title {
				t.Errorf("Extract(%s) title = %q; want %q", tt.name, doc.Title, tt.title)
			}
		})
	}
}

func TestExtractCSVPages(t *testing.T) {
	data := "id,name\n"
	for i := 1; i <= 120; i++ {
		data += fmt.Sprintf("%d,item %d\n", i, i)
	}
	doc, err := extract(t, "items.csv", []byte(data), Options{})
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 3 {
		t.Fatalf("Extract(items.csv) has %d pages; want 3", len(doc.Pages))
	}
	for i, p := range doc.Pages {
		lines := strings.Split(p.Text, "\n")
		want := []int{51, 51, 21}[i]
		if len(lines) != want || lines[0] != "id | name" {
			t.Errorf("page %d: %d lines starting %q; want %d starting with the header", i+1, len(lines), lines[0], want)
		}
		if first := fmt.Sprintf("%d | item %d", i*50+1, i*50+1); lines[1] != first {
			t.Errorf("page %d: first row %q; want %q", i+1, lines[1], first)
		}
	}
	if doc.Format != FormatCSV {
		t.Errorf("Format = %q; want csv", doc.Format)
	}
}

func TestExtractErrors(t *testing.T) {
	deep := strings.Repeat("<div>", 600) + "x"
	tests := []struct {
		name string
		data []byte
		o    Options
		code string
		msg  string // part of the message
	}{
		{"empty.txt", nil, Options{}, quarry.ECodeEmptyFile, "empty.txt is empty"},
		{"blank.md", []byte(" \n\t\n"), Options{}, quarry.ECodeEmptyFile, "contains no text"},
		{"setup.exe", []byte("MZ"), Options{}, quarry.ECodeInvalidFileType, "upload PDF (.pdf), Word (.docx)"},
		{"archive.zip", []byte("PK"), Options{}, quarry.ECodeInvalidFileType, "archive.zip is not a document Quarry reads"},
		{"README", []byte("text"), Options{}, quarry.ECodeInvalidFileType, "README is not"},
		{"old.doc", []byte("x"), Options{}, quarry.ECodeInvalidFileType, "old.doc"},
		{"big.txt", []byte("0123456789"), Options{MaxBytes: 5}, quarry.ECodeFileTooLarge, "big.txt is 10 bytes; the limit is 5 bytes"},
		{"fake.pdf", []byte("just some text\n"), Options{}, quarry.ECodeMalformedDocument, "fake.pdf is not a PDF"},
		{"page.pdf", []byte("<!DOCTYPE html><p>x"), Options{}, quarry.ECodeMalformedDocument, "looks like an HTML page"},
		{"latin1.txt", []byte("caf\xe9\nok"), Options{}, quarry.ECodeMalformedDocument, "latin1.txt is not UTF-8 text (invalid byte 0xE9 on line 1)"},
		{"latin1.csv", []byte("a,b\n1,caf\xe9"), Options{}, quarry.ECodeMalformedDocument, "not UTF-8"},
		{"many.txt", []byte("1\f2\f3\f4"), Options{MaxPages: 3}, quarry.ECodeFileTooLarge, "many.txt has 4 pages; the limit is 3"},
		{"many-auto.txt", []byte(paragraphs(4, 3000)), Options{MaxPages: 3}, quarry.ECodeFileTooLarge, "has 4 pages"},
		{"many.csv", []byte("h\n" + strings.Repeat("r\n", 101)), Options{MaxPages: 2}, quarry.ECodeFileTooLarge, "more than 2 pages"},
		{"wide.txt", []byte("short\f" + strings.Repeat("\u00e9", 11)), Options{MaxPageChars: 10}, quarry.ECodeFileTooLarge, "page 2 of wide.txt has 11 characters; the limit is 10"},
		{"deep.html", []byte(deep), Options{}, quarry.ECodeMalformedDocument, "deep.html cannot be read as HTML"},
		{"scripts.html", []byte("<script>x()</script>"), Options{}, quarry.ECodeEmptyFile, "contains no text"},
		{"quote.csv", []byte("a,b\n1,\"unclosed\n"), Options{}, quarry.ECodeMalformedDocument, "quote.csv is not valid CSV: line 2"},
		{"notzip.docx", []byte("plain text, not a zip"), Options{}, quarry.ECodeMalformedDocument, "notzip.docx is not a valid Word document"},
		{"pdf.docx", []byte("%PDF-1.4\n"), Options{}, quarry.ECodeMalformedDocument, "not a valid Word document"},
		{"sheet.docx", docparsetest.Zip(map[string][]byte{"xl/workbook.xml": []byte("<x/>")}), Options{}, quarry.ECodeMalformedDocument, "not a valid Word document"},
		{"broken.docx", docparsetest.DOCX("<w:p><w:r><w:t>unclosed</w:r></w:p>", ""), Options{}, quarry.ECodeMalformedDocument, "its text is damaged"},
		{"bomb.docx", docparsetest.ZipBomb(" ", MaxDOCXXML+10<<20), Options{}, quarry.ECodeMalformedDocument, "bomb.docx expands beyond 50 MB"},
		{"liar.docx", docparsetest.LyingZip(), Options{}, quarry.ECodeMalformedDocument, "liar.docx is not a valid Word document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := extract(t, tt.name, tt.data, tt.o)
			checkDocument(t, doc, err)
			if code := quarry.ErrorCode(err); code != tt.code {
				t.Fatalf("Extract(%s) = %v; want code %s", tt.name, err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Extract(%s) = %q; want it to say %q", tt.name, err, tt.msg)
			}
		})
	}
}

func TestExtractDOCX(t *testing.T) {
	run := func(text string) string { return "<w:r><w:t xml:space=\"preserve\">" + text + "</w:t></w:r>" }
	tests := []struct {
		name  string
		body  string
		title string // in core.xml
		want  []string
		wantT string
	}{
		{
			name: "paragraphs and table",
			body: `<w:p><w:pPr><w:pStyle w:val="Title"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>` + run("Due diligence") + `</w:p>` +
				`<w:p>` + run("Revenue ") + `<w:r><w:rPr><w:b/></w:rPr><w:t>grew</w:t><w:tab/><w:t>fast</w:t><w:br/><w:t>next line</w:t></w:r></w:p>` +
				`<w:p><w:r><w:t>Deleted:</w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:r><w:instrText>PAGE</w:instrText></w:r></w:p>` +
				`<w:tbl><w:tblPr/><w:tr><w:tc><w:p>` + run("Region") + `</w:p></w:tc><w:tc><w:p>` + run("Q3") + `</w:p></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p>` + run("EMEA") + `</w:p><w:p>` + run("North") + `</w:p></w:tc><w:tc><w:p>` + run("1,200") + `</w:p></w:tc></w:tr></w:tbl>` +
				`<w:p><w:r><mc:AlternateContent><mc:Choice><w:t>choice</w:t></mc:Choice><mc:Fallback><w:t>fallback</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
			want:  []string{"Due diligence\n\nRevenue grew\tfast\nnext line\n\nDeleted:\n\nRegion | Q3\nEMEA North | 1,200\n\nchoice"},
			wantT: "Due diligence",
		},
		{
			name: "page breaks",
			body: `<w:p>` + run("one") + `<w:r><w:br w:type="page"/></w:r></w:p>` +
				`<w:p><w:r><w:lastRenderedPageBreak/><w:t>two</w:t></w:r></w:p>` +
				`<w:p><w:pPr><w:pageBreakBefore/></w:pPr>` + run("three") + `</w:p>` +
				`<w:p><w:pPr><w:pageBreakBefore w:val="0"/></w:pPr>` + run("still three") + `</w:p>`,
			title: "Core title",
			want:  []string{"one", "two", "three\n\nstill three"},
			wantT: "Core title",
		},
		{
			name: "break inside a table waits for its end",
			body: `<w:p>` + run("before") + `</w:p><w:tbl><w:tr><w:tc><w:p>` + run("a") + `</w:p></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p><w:r><w:lastRenderedPageBreak/><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p>` + run("after") + `</w:p>`,
			want: []string{"before\n\na\nb", "after"},
		},
		{
			name: "text box inside a paragraph",
			body: `<w:p>` + run("outer ") + `<w:r><w:drawing><w:txbxContent><w:p>` + run("boxed") + `</w:p></w:txbxContent></w:drawing></w:r>` + run("end") + `</w:p>`,
			want: []string{"boxed\n\nouter end"},
		},
		{
			name: "no breaks: pages of PageChars",
			body: strings.Repeat(`<w:p>`+run(strings.Repeat("x", 1400))+`</w:p>`, 5),
			want: []string{
				strings.Repeat("x", 1400) + "\n\n" + strings.Repeat("x", 1400),
				strings.Repeat("x", 1400) + "\n\n" + strings.Repeat("x", 1400),
				strings.Repeat("x", 1400),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := extract(t, "memo.docx", docparsetest.DOCX(tt.body, tt.title), Options{})
			checkDocument(t, doc, err)
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(doc); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pages = %q; want %q", got, tt.want)
			}
			if doc.Title != tt.wantT {
				t.Errorf("title = %q; want %q", doc.Title, tt.wantT)
			}
		})
	}
}

func TestPaginate(t *testing.T) {
	tests := []struct {
		in     string
		target int
		want   []string
	}{
		{"", 10, nil},
		{"abc", 10, []string{"abc"}},
		{"aaaa\n\nbbbb\n\ncccc", 10, []string{"aaaa\n\nbbbb", "cccc"}},
		{"aaaa\n\n\n\nbbbb", 10, []string{"aaaa\n\nbbbb"}},
		{"l1\nl2\nl3 is long\nl4", 8, []string{"l1\nl2", "l3 is", "long\nl4"}},
		{"\u00e9\u00e9\u00e9\u00e9\u00e9", 2, []string{"\u00e9\u00e9", "\u00e9\u00e9", "\u00e9"}},
	}
	for _, tt := range tests {
		if got := paginate(tt.in, tt.target); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("paginate(%q, %d) = %q; want %q", tt.in, tt.target, got, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\r\nb\rc", "a\nb\nc"},
		{"\n\n  \n  x  \n\n", "  x"},
		{"a\n\n \n\nb\n\n", "a\n\nb"},
		{"col1    col2   \nrow", "col1    col2\nrow"},
		{"bad\xff", "bad\uFFFD"},
		{"n\x00ul\u0085", "nul"},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestPageList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{[]int{3}, "page 3"},
		{[]int{3, 7}, "pages 3, 7"},
		{[]int{1, 2, 3, 5, 8, 9}, "pages 1-3, 5, 8-9"},
	}
	for _, tt := range tests {
		if got := pageList(tt.in); got != tt.want {
			t.Errorf("pageList(%v) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

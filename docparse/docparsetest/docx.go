package docparsetest

import (
	"archive/zip"
	"bytes"
	"strings"
)

// DOCX returns a DOCX archive with body as the content of <w:body> and,
// when title is set, docProps/core.xml with that title.
func DOCX(body, title string) []byte {
	files := map[string][]byte{
		"[Content_Types].xml": []byte(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
		"word/document.xml": []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>` +
			body + `<w:sectPr/></w:body></w:document>`),
	}
	if title != "" {
		files["docProps/core.xml"] = []byte(`<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>` + title + `</dc:title></cp:coreProperties>`)
	}
	return Zip(files)
}

// Zip returns a ZIP archive of files.
func Zip(files map[string][]byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			panic(err) // a bytes.Buffer does not fail
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ZipBomb is a DOCX whose word/document.xml is unit repeated to at least
// size bytes inside <w:body>, with its true size in the archive's
// headers. A repeated unit compresses about a thousand times: " "
// makes an archive of 60 KB that expands to 60 MB.
func ZipBomb(unit string, size int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		panic(err)
	}
	w.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`))
	chunk := []byte(strings.Repeat(unit, max(1, (1<<20)/len(unit))))
	for n := 0; n < size; n += len(chunk) {
		w.Write(chunk)
	}
	w.Write([]byte(`</w:body></w:document>`))
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// LyingZip is a DOCX whose word/document.xml claims 100 bytes in the
// central directory and inflates to 1 MB.
func LyingZip() []byte {
	var raw bytes.Buffer
	zw := zip.NewWriter(&raw)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate})
	xml := `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
		strings.Repeat("<w:p><w:r><w:t>text</w:t></w:r></w:p>", 30000) + `</w:body></w:document>`
	w.Write([]byte(xml))
	zw.Close()
	// Rewrite the sizes in the central directory, which archive/zip reads.
	data := raw.Bytes()
	cd := bytes.LastIndex(data, []byte("PK\x01\x02"))
	if cd < 0 {
		panic("no central directory")
	}
	copy(data[cd+24:cd+28], []byte{100, 0, 0, 0})
	return data
}

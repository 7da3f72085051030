// Package sampleroom holds the documents of the sample data room that
// "quarry serve" creates on a fresh data dir (internal/app.SeedSampleRoom),
// so that a newcomer can ask a question in the first minute: a fictional
// annual report and supply agreement in Markdown, and a three-page board
// pack as PDF (with a table), all written for Quarry and dedicated to the
// public domain. The same files are the data rooms' test fixtures.
//
// The PDF was printed from the HTML beside it with headless Chromium:
//
//	chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
//	    --print-to-pdf=northwind-board-pack-2024-02.pdf northwind-board-pack-2024-02.html
package sampleroom

import (
	"embed"
	"io/fs"
)

// Documents are the sample room's files, in the order they are added.
var Documents = []string{
	"northwind-2023-annual-report.md",
	"harbor-supply-agreement.md",
	"northwind-board-pack-2024-02.pdf",
}

//go:embed documents/northwind-2023-annual-report.md documents/harbor-supply-agreement.md documents/northwind-board-pack-2024-02.pdf
var files embed.FS

// FS holds Documents at its root.
var FS = func() fs.FS {
	sub, err := fs.Sub(files, "documents")
	if err != nil {
		panic(err)
	}
	return sub
}()

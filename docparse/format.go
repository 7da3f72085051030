package docparse

import (
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
)

// FormatOf returns the format a file name's extension stands for, so that
// an upload can be refused before its bytes are kept. Errors:
// INVALID_FILE_TYPE naming the accepted types, with a hint for the close
// ones (.doc, .xlsx, ...).
func FormatOf(name string) (string, error) {
	ext := strings.ToLower(filepath.Ext(name))
	if f, ok := formats[ext]; ok {
		return f, nil
	}
	e := quarry.Errorf(quarry.ECodeInvalidFileType, "%s is not a document Quarry reads: upload %s", name, accepted)
	if hint, ok := conversions[ext]; ok {
		e = e.WithHint(hint)
	}
	return "", e
}

// formats maps file extensions to formats.
var formats = map[string]string{
	".pdf":      FormatPDF,
	".docx":     FormatDOCX,
	".html":     FormatHTML,
	".htm":      FormatHTML,
	".md":       FormatMarkdown,
	".markdown": FormatMarkdown,
	".txt":      FormatText,
	".csv":      FormatCSV,
	".png":      FormatImage,
	".jpg":      FormatImage,
	".jpeg":     FormatImage,
}

// accepted is the list of accepted types, for messages.
const accepted = "PDF (.pdf), Word (.docx), HTML (.html, .htm), Markdown (.md, .markdown), text (.txt), CSV (.csv) or a scanned page (.png, .jpg, .jpeg)"

// conversions are hints for types that are close to an accepted one.
var conversions = map[string]string{
	".doc":  "save it as .docx or PDF in Word",
	".rtf":  "save it as .docx or PDF",
	".odt":  "save it as .docx or PDF",
	".xls":  "export the sheet as CSV",
	".xlsx": "export the sheet as CSV",
	".pptx": "save the presentation as PDF",
	".ppt":  "save the presentation as PDF",
	".tsv":  "rename it to .csv; the delimiter is detected",
	".tif":  "save the scan as PNG, or print it to PDF",
	".tiff": "save the scan as PNG, or print it to PDF",
	".heic": "save the photo as JPEG",
}

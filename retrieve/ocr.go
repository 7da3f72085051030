package retrieve

import (
	"strings"
	"unicode"
)

// OCR reads a scanned page's letters and digits alike where they look
// alike: "OD1" comes out "ODl" or "0D1", "SQR1" "SQRl". A name that
// mixes letters and digits is compared with its look-alikes folded
// (ocrFold), and searched in its look-alike forms (ocrForms) where the
// room lacks it as written.

// ocrFold returns w with the digits that look like letters read as those
// letters (0: o, 1: l) when w has a letter and a digit; w otherwise.
func ocrFold(w string) string {
	if !hasLetterAndDigit(w) {
		return w
	}
	return strings.NewReplacer("0", "o", "1", "l").Replace(w)
}

// ocrForms returns w's look-alike forms other than w ("od1": odl, 0d1,
// 0dl), for a word with a letter and a digit, at most seven.
func ocrForms(w string) []string {
	if !hasLetterAndDigit(w) {
		return nil
	}
	out := []string{""}
	for _, r := range w {
		alts := []string{string(r)}
		switch r {
		case '0', 'o':
			alts = []string{"0", "o"}
		case '1', 'l':
			alts = []string{"1", "l"}
		}
		var next []string
		for _, p := range out {
			for _, a := range alts {
				if len(next) < 8 {
					next = append(next, p+a)
				}
			}
		}
		out = next
	}
	var forms []string
	for _, f := range out {
		if f != w {
			forms = append(forms, f)
		}
	}
	return forms
}

func hasLetterAndDigit(w string) bool {
	return strings.ContainsFunc(w, unicode.IsLetter) && strings.ContainsFunc(w, unicode.IsDigit)
}

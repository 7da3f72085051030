package retrieve

import (
	"slices"
	"testing"
)

func TestOCRForms(t *testing.T) {
	if got, want := ocrForms("od1"), []string{"0d1", "0dl", "odl"}; !slices.Equal(got, want) {
		t.Errorf("ocrForms(od1) = %v; want %v", got, want)
	}
	for _, w := range []string{"voltage", "2000", "1.0.8"} {
		if got := ocrForms(w); got != nil {
			t.Errorf("ocrForms(%q) = %v; want none", w, got)
		}
	}
	// a scanned page's "ODl" and "0D1" are the question's OD1
	for _, w := range []string{"odl", "0d1", "od1"} {
		if got := Lemma(w); got != "odl" {
			t.Errorf("Lemma(%q) = %q; want odl", w, got)
		}
	}
}

package rcabench

import (
	"crypto/sha256"
	"path/filepath"
)

// HeldOut reports whether c is in the held-out half of its dataset: the
// first byte of the SHA-256 of its leaf file's name ("1451019300.csv.gz",
// "rs001.csv") is even. The rule was fixed before the search that
// investigations use was tuned on these sets (issue 23): tuning looks only
// at the other half, and the held-out half's scores say how the search does
// on cases it was not tuned on.
func HeldOut(c Case) bool {
	sum := sha256.Sum256([]byte(filepath.Base(c.Path)))
	return sum[0]%2 == 0
}

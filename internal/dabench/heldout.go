package dabench

import (
	"crypto/sha256"
	"strconv"
)

// HeldOut reports whether question id is in the held-out half: the first
// byte of the SHA-256 of its id in decimal ("0", "5", ...) is even. The
// rule was fixed before anything was tuned on the product's path (issue
// 22); work that tunes the request understanding or the tools against
// DABench looks only at the other half, and the held-out half's numbers
// say how the product does on questions it was not tuned on.
func HeldOut(id int) bool {
	sum := sha256.Sum256([]byte(strconv.Itoa(id)))
	return sum[0]%2 == 0
}

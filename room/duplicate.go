package room

import "github.com/quarry-dev/quarry"

// Duplicate is CONFLICT for an upload whose content (its SHA-256) is
// that of a document the room has already: the document is not stored
// twice, and Existing says which one it is.
type Duplicate struct {
	Existing Document
	Err      *quarry.Error
}

func (e *Duplicate) Error() string { return e.Err.Error() }
func (e *Duplicate) Unwrap() error { return e.Err }

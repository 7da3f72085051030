package quarry

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

func TestStorageError(t *testing.T) {
	full := fmt.Errorf("save report: %w", &fs.PathError{Op: "write", Path: "/srv/quarry-data/sessions/abc/.report.md.tmp123", Err: syscall.ENOSPC})
	err := StorageError(full)
	if ErrorCode(err) != ECodeStorageFull {
		t.Fatalf("StorageError(ENOSPC) code = %q; want %s", ErrorCode(err), ECodeStorageFull)
	}
	if msg := ErrorMessage(err); !strings.Contains(msg, "(writing .report.md.tmp123)") || strings.Contains(msg, "/srv") {
		t.Errorf("message %q; want the file's name and not the server's path", msg)
	}
	temp := StorageError(&fs.PathError{Op: "write", Path: "/srv/s/charts/.waterfall.png.3539565027.tmp", Err: syscall.ENOSPC})
	if msg := ErrorMessage(temp); !strings.Contains(msg, "(writing waterfall.png)") {
		t.Errorf("message %q; want the name the temporary file was to become", msg)
	}
	anchor := StorageError(&fs.PathError{Op: "write", Path: "/srv/s/audit.anchor.json.tmp", Err: syscall.ENOSPC})
	if msg := ErrorMessage(anchor); !strings.Contains(msg, "(writing audit.anchor.json)") {
		t.Errorf("message %q; want the name the temporary file was to become", msg)
	}
	if ErrorCode(StorageError(syscall.EDQUOT)) != ECodeStorageFull {
		t.Error("a quota error is not STORAGE_FULL")
	}
	other := errors.New("boom")
	if StorageError(other) != other || StorageError(nil) != nil {
		t.Error("StorageError changed an error that is not about space")
	}
}

// TestErrorUnwrap: a cause formatted with %w is kept for errors.Is and
// errors.As, the code stays the outer one, and the message reads as before.
func TestErrorUnwrap(t *testing.T) {
	cause := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	err := Errorf(ECodeUnavailable, "research stopped: %w", cause).WithHint("try again")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is does not see the cause")
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe != cause {
		t.Error("errors.As does not find the cause")
	}
	if ErrorCode(fmt.Errorf("outer: %w", err)) != ECodeUnavailable || err.Message != "research stopped: open x: file does not exist" {
		t.Errorf("code %s, message %q", ErrorCode(err), err.Message)
	}
	if Errorf(ECodeInvalid, "plain %v", cause).Unwrap() != nil {
		t.Errorf("a cause formatted with %s is kept", "%v")
	}
}

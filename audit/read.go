package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/quarry-dev/quarry"
)

// ReadFile returns the entries of the log at path in order, without
// verifying them (VerifyFile and Check do that). A last line with no
// newline, an append that never finished, is not an entry and is left
// out, as the verifier leaves it; any other line that is not an entry is
// an error naming it.
func ReadFile(path string) ([]quarry.AuditEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []quarry.AuditEntry
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		b, err := readLine(br)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		var e quarry.AuditEntry
		if err := json.Unmarshal(bytes.TrimSuffix(b, []byte("\n")), &e); err != nil {
			return nil, fmt.Errorf("audit: %s line %d is not an entry: %w", path, n, err)
		}
		out = append(out, e)
	}
}

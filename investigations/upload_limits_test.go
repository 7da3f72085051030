package investigations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/fsstore"
)

// Uploads checked the way the server checks them (Manager.AddFile): a NUL
// byte in a value or a name is MALFORMED_CSV in words, without SQL text or
// the stored file's path; a 1,000-column file is taken; one of more than
// 2,048 columns is RESOURCE_LIMIT. Before, the NUL answered with the SQL
// that sniffs date layouts.
func TestAddFileLimits(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, dir, fsstore.New(dir, fsstore.Options{}), openEngine, 0)
	ctx := context.Background()
	s, err := m.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wide := func(cols int) string {
		var b strings.Builder
		b.WriteString("day,amount")
		for i := 2; i < cols; i++ {
			fmt.Fprintf(&b, ",c%d", i)
		}
		b.WriteByte('\n')
		for r := 0; b.Len() < 2<<20; r++ {
			fmt.Fprintf(&b, "2024-01-%02d,%d", r%28+1, r%100)
			for i := 2; i < cols; i++ {
				fmt.Fprintf(&b, ",%d", (r+i)%10)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	tests := []struct {
		name, body, code, msg string
	}{
		{"nul in a date", "day,amount\n2024-01-01,1\n2024-01-\x0002,2\n", quarry.ECodeMalformedCSV, "orders.csv holds a NUL byte on line 3, field 1"},
		{"nul in a name", "da\x00y,amount\n2024-01-01,1\n", quarry.ECodeMalformedCSV, "orders.csv holds a NUL byte on line 1, field 1"},
		{"3,000 columns", wide(3000), quarry.ECodeResourceLimit, "orders.csv has more than 2048 columns"},
		{"1,000 columns", wide(1000), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := m.AddFile(ctx, s.SessionID, "orders.csv", "", strings.NewReader(tt.body))
			if got := quarry.ErrorCode(err); got != tt.code {
				t.Fatalf("AddFile = %v; want code %q", err, tt.code)
			}
			if tt.code == "" {
				if f.Schema == nil || len(f.Schema.Columns) != 1000 || f.RowCount != int64(strings.Count(tt.body, "\n")-1) {
					t.Errorf("AddFile(1,000 columns) = %d rows; want %d rows of 1,000 columns", f.RowCount, strings.Count(tt.body, "\n")-1)
				}
				return
			}
			msg := quarry.ErrorMessage(err)
			if !strings.Contains(msg, tt.msg) {
				t.Errorf("AddFile message %q; want %q", msg, tt.msg)
			}
			for _, bad := range []string{"SELECT", "VALUES", "LINE 1", "Parser", dir} {
				if strings.Contains(msg, bad) {
					t.Errorf("AddFile message %q shows %q", msg, bad)
				}
			}
		})
	}
	files, err := m.Files(ctx, s.SessionID)
	if err != nil || len(files) != 1 {
		t.Errorf("after the uploads the session holds %d files (%v); want the 1,000-column one only", len(files), err)
	}
}

package rooms

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-dev/quarry/internal/tokens"
	"github.com/quarry-dev/quarry/retrieve"
)

// TestHeadingTokens: a chunk's token count with its page's heading is
// the count of what is stored, context and text, whether the heading's
// tokens were added or the whole was counted.
func TestHeadingTokens(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("../internal/sampleroom/documents", "northwind-2023-annual-report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	chunks := retrieve.ChunkPage(page, retrieve.ChunkOptions{Count: tokens.Count, TargetChars: 300})
	chunks = append(chunks, retrieve.PageChunk{Prefix: "   (Millions)  2023  2022\n", Text: "Revenue  $ 10  $ 9",
		Tokens: tokens.Count("   (Millions)  2023  2022\nRevenue  $ 10  $ 9")})
	for _, title := range []string{"Notes to the Financial Statements", "Revenue.", "Title  "} {
		h := heading{text: title}
		for _, c := range chunks {
			context, n := h.before(c)
			if want := tokens.Count(context + c.Text); n != want {
				t.Errorf("heading %q, chunk %q: %d tokens, the stored text has %d", title, c.Text[:min(30, len(c.Text))], n, want)
			}
		}
	}
	if len(chunks) < 4 {
		t.Fatalf("%d chunks: too few to test", len(chunks))
	}
}

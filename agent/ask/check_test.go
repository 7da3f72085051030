package ask

import (
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/room"
)

// FuzzCheck checks that no model reply makes check panic, change the
// reply other than by marking numbers, or cite more than it may.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		"Revenue was 12 million [1]. It was $812 million [2][3].",
		"Net sales were $(45) million [1, 2].\n- 12% [9]\n\n",
		"$0.8 billion [1]... e.g. 5 [2]! [1]",
		"\xff[1\xc3]. 12.5.6 [0] [99]",
	} {
		f.Add(seed)
	}
	passages := []passage{
		{ChunkHit: room.ChunkHit{Chunk: room.Chunk{ID: "a", Text: "(In millions)\nNet sales 812\nOperating income (45)"}}},
		{ChunkHit: room.ChunkHit{Chunk: room.Chunk{ID: "b", Text: "Revenue was $812 million, up 12%."}}},
		{ChunkHit: room.ChunkHit{Chunk: room.Chunk{ID: "c", Text: "The segment added 12 million subscribers."}}},
	}
	f.Fuzz(func(t *testing.T, reply string) {
		text, cites, unverified := check(reply, passages, nil)
		if strings.ReplaceAll(text, " "+evidence.Marker, "") != strings.ReplaceAll(strings.TrimSpace(reply), " "+evidence.Marker, "") {
			t.Fatalf("check(%q) text %q: without markers it differs from the reply", reply, text)
		}
		if len(cites) > min(room.MaxCitations, len(passages)) {
			t.Fatalf("check(%q) cites %d passages", reply, len(cites))
		}
		marked := strings.Count(text, evidence.Marker) > strings.Count(reply, evidence.Marker)
		if marked && len(unverified) == 0 {
			t.Fatalf("check(%q) marked a number but says nothing is unverified: %q", reply, text)
		}
	})
}

package chat

import (
	"strings"

	"github.com/quarry-dev/quarry"
)

// answer builds a reply line by line within quarry.MaxChatMessageLen,
// quoting each sentence once and recording the refs it quotes.
type answer struct {
	lines []string
	size  int
	refs  []string
	seen  map[string]bool // quoted sentences and recorded refs
}

// text adds a line of the answer's own words, if it fits.
func (a *answer) text(line string) bool {
	if a.size+len(line)+1 > quarry.MaxChatMessageLen {
		return false
	}
	a.lines = append(a.lines, line)
	a.size += len(line) + 1
	return true
}

// add quotes sentences from the passage ref on one line, starting with
// prefix and ending with "[ref]". Sentences quoted before are skipped, and
// nothing is added when none is left. It returns false when the line did
// not fit, so the caller can stop.
func (a *answer) add(prefix string, sentences []string, ref string) bool {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	var fresh []string
	for _, s := range sentences {
		if s != "" && !a.seen["s:"+s] {
			a.seen["s:"+s] = true
			fresh = append(fresh, s)
		}
	}
	if len(fresh) == 0 {
		return true
	}
	// Drop trailing sentences until the line fits.
	for len(fresh) > 0 {
		line := prefix + strings.Join(fresh, " ") + " [" + ref + "]"
		if a.text(line) {
			break
		}
		fresh = fresh[:len(fresh)-1]
	}
	if len(fresh) == 0 {
		return false
	}
	if !a.seen["r:"+ref] {
		a.seen["r:"+ref] = true
		a.refs = append(a.refs, ref)
	}
	return true
}

func (a *answer) empty() bool { return len(a.refs) == 0 }

func (a *answer) reply() Reply {
	return Reply{Text: strings.Join(a.lines, "\n"), ArtifactsReferenced: a.refs}
}

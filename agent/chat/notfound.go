package chat

import (
	"context"
	"regexp"
	"strings"
)

// dimensionsLine matches the line of a data model section that lists the
// dimensions examined: "Dimensions examined: platform, country." in the
// memory, "Recommended dimensions: ..." in the report.
var dimensionsLine = regexp.MustCompile(`(?i)^(?:recommended |examined )?dimensions(?: examined)?:\s*(.+)$`)

// notFound is the reply to a question the memory has nothing on: it says so
// and, when the memory has a data model, names the dimensions the
// investigation did examine. It quotes no passage, so it references none.
func (a *Answerer) notFound(ctx context.Context, sessionID string) (Reply, error) {
	dims, err := a.dimensions(ctx, sessionID)
	if err != nil {
		return Reply{}, err
	}
	text := notLooked
	if dims != "" {
		text += " It examined the change by these dimensions: " + dims + "; segments its findings do not name did not stand out."
	}
	return Reply{Text: text + " " + canAnswer}, nil
}

// dimensions returns the dimensions listed in the memory's data model, or
// "" when it has none.
func (a *Answerer) dimensions(ctx context.Context, sessionID string) (string, error) {
	hits, err := a.Index.Search(ctx, sessionID, "data model dimensions examined", a.k())
	if err != nil {
		return "", err
	}
	for _, h := range hits {
		for _, line := range strings.Split(h.Text, "\n") {
			if m := dimensionsLine.FindStringSubmatch(cleanLine(strings.TrimSpace(line))); m != nil {
				return shorten(strings.TrimRight(strings.TrimSpace(m[1]), "."), maxSentenceLen), nil
			}
		}
	}
	return "", nil
}

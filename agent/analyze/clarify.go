package analyze

import (
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/intent"
)

// clarify returns how a request was read and a NEEDS_CLARIFICATION error
// when it has words that would change the answer and could not be
// applied; nil, nil when everything was understood. Such a request is not
// answered: an answer to the words understood would answer a different
// question.
func clarify(in *intent.Intent) (*analysis.Clarification, error) {
	if len(in.Unknown) == 0 {
		return nil, nil
	}
	c := &analysis.Clarification{Understood: append([]string{}, in.Understood...)}
	var parts []string
	for _, u := range in.Unknown {
		c.NotUnderstood = append(c.NotUnderstood, analysis.UnknownWord{Word: u.Word, Reason: u.Reason, Nearest: u.Nearest})
		s := fmt.Sprintf("%q (%s", u.Word, u.Reason)
		if len(u.Nearest) > 0 {
			s += "; nearest: " + strings.Join(u.Nearest, ", ")
		}
		parts = append(parts, s+")")
	}
	err := quarry.Errorf(quarry.ECodeNeedsClarification, "I could not answer this as asked: I could not apply %s", strings.Join(parts, ", "))
	hint := "say it with the data's column names or values (a quoted column name is read as is)"
	if len(in.Understood) > 0 {
		hint = "I understood: " + strings.Join(in.Understood, "; ") + ". " + strings.ToUpper(hint[:1]) + hint[1:]
	}
	return c, err.WithHint(hint)
}

package chat

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/llm"
)

// queryPurpose is the llm.Request Purpose of the call that picks a query.
const queryPurpose = "chat_query"

// maxPromptValues caps how many values of one dimension the prompt lists.
const maxPromptValues = 60

// querySchema is the structured output the model picks a query with.
var querySchema = &llm.Schema{Name: "chat_query", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "kind": {"type": "string", "enum": ["period", "day", "movers", "none"]},
    "dimension": {"type": "string"},
    "value": {"type": "string"},
    "without": {"type": "boolean"},
    "day": {"type": "string"},
    "period": {"type": "string", "enum": ["both", "baseline", "comparison"]},
    "direction": {"type": "string", "enum": ["down", "up", "any"]},
    "n": {"type": "integer"}
  },
  "required": ["kind", "dimension", "value", "without", "day", "period", "direction", "n"],
  "additionalProperties": false
}`)}

// queryChoice is the model's pick (querySchema).
type queryChoice struct {
	Kind      *string `json:"kind"`
	Dimension string  `json:"dimension"`
	Value     string  `json:"value"`
	Without   bool    `json:"without"`
	Day       string  `json:"day"`
	Period    string  `json:"period"`
	Direction string  `json:"direction"`
	N         int     `json:"n"`
}

// chooseQuery lets the model pick the data query for question, among the
// ones the offline chat runs (see parseData). It returns nil when the model
// fails, picks none, or picks something the data does not have (a
// dimension, a value, a date that does not read): then the offline choice
// stands. The model only picks; the query runs as offline, and every number
// in the answer comes from its recorded result.
func (a *Answerer) chooseQuery(ctx context.Context, question string, d *Data) *dataQuestion {
	var c queryChoice
	if err := a.caller().CallJSON(ctx, queryRequest(question, d), &c); err != nil || c.Kind == nil {
		return nil
	}
	return c.question(d)
}

// question turns a valid choice into the data question it asks; nil for
// "none" and for anything the data does not have.
func (c *queryChoice) question(d *Data) *dataQuestion {
	q := &dataQuestion{n: 3}
	var dim *Dimension
	if c.Dimension != "" {
		for i := range d.Dimensions {
			if strings.EqualFold(d.Dimensions[i].Name, strings.TrimSpace(c.Dimension)) {
				dim = &d.Dimensions[i]
			}
		}
		if dim == nil {
			return nil
		}
	}
	if v := strings.TrimSpace(c.Value); v != "" {
		var dims []Dimension
		if dim != nil {
			dims = []Dimension{*dim}
		} else {
			dims = d.Dimensions
		}
		for i := range dims {
			for _, have := range dims[i].Values {
				if have == v || q.seg == nil && strings.EqualFold(have, v) {
					q.seg = &segment{dim: dimByName(d, dims[i].Name), value: have}
				}
			}
		}
		if q.seg == nil {
			return nil
		}
		q.without = c.Without
	}
	switch c.Period {
	case "baseline":
		q.period = 1
	case "comparison":
		q.period = 2
	}
	switch *c.Kind {
	case "period":
	case "day":
		day, err := quarry.ParseDate(strings.TrimSpace(c.Day))
		if err != nil {
			return nil
		}
		q.day, q.period, q.without = day.String(), 0, q.without && q.seg != nil
	case "movers":
		if dim == nil || q.seg != nil && q.seg.dim.Name == dim.Name {
			return nil
		}
		q.movers = dim
		q.moversUp = c.Direction == "down" || c.Direction == "up"
		q.down = c.Direction == "down"
		if c.N >= 1 && c.N <= 10 {
			q.n = c.N
		}
	default:
		return nil
	}
	return q
}

// dimByName returns d's dimension called name.
func dimByName(d *Data, name string) *Dimension {
	for i := range d.Dimensions {
		if d.Dimensions[i].Name == name {
			return &d.Dimensions[i]
		}
	}
	return nil
}

// queryRequest asks the model to pick the query that answers question.
func queryRequest(question string, d *Data) *llm.Request {
	type dim struct {
		Name   string
		Values []string
	}
	dims := make([]dim, len(d.Dimensions))
	for i, x := range d.Dimensions {
		dims[i] = dim{Name: x.Name, Values: x.Values[:min(len(x.Values), maxPromptValues)]}
	}
	user := prompt("query", struct {
		Metric     string
		Base, Cmp  string
		Dimensions []dim
		Question   string
	}{metricTitle(d.Metric), d.Base.String(), d.Cmp.String(), dims, question})
	req := llm.UserText(queryPurpose, "", user)
	req.Output = querySchema
	req.MaxTokens = 200
	return req
}

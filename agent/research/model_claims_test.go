package research

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// claimsModel reads a briefing's passages as a model would, giving each
// claim the fields the offline reader gives it (its own attribute words,
// unit, year and modality), plus one claim for a year its sentence does
// not write; asked reports whether it was asked for claims on any topic.
func claimsModel(asked *bool) *llmtest.Model {
	return &llmtest.Model{Purposes: map[string]llmtest.Reply{"research_facts": func(req *llm.Request) (*llm.Response, error) {
		msg := req.Messages[0].Content
		claims := []modelClaim{}
		if !strings.Contains(msg, "Attributes: "+anyAttribute) {
			return llmtest.JSON(modelClaims{Claims: claims}), nil
		}
		*asked = true
		for _, m := range passageRE.FindAllStringSubmatch(msg, -1) {
			n, _ := strconv.Atoi(m[1])
			for _, s := range Sentences(m[2]) {
				for _, c := range Claims(s, []string{"halden", "bio"}) {
					unit := ""
					if c.Value.Kind == KindNumber && c.Unit != "%" {
						unit = strings.Fields(c.Text)[len(strings.Fields(c.Text))-1]
					}
					claims = append(claims, modelClaim{Passage: n, Text: "Per the passage, " + s, Value: c.Text, Attribute: c.Attribute,
						Unit: unit, Period: c.Period, Modality: string(c.Modality), Confidence: 0.9})
				}
				if strings.Contains(s, "$12.4 million") {
					claims = append(claims, modelClaim{Passage: n, Text: "Per the passage, " + s, Value: "$12.4 million", Attribute: "revenue",
						Period: "2019", Modality: "reported", Confidence: 0.9})
				}
			}
		}
		return llmtest.JSON(modelClaims{Claims: claims}), nil
	}}}
}

// TestModelReadsClaimsOnAnyTopic: with a model, a briefing's claims are
// read with the same fields as offline, not against a list of
// attributes, so the contradictions it finds are the offline ones; a
// claim for a year its sentence does not write is dropped.
func TestModelReadsClaimsOnAnyTopic(t *testing.T) {
	asked := false
	res, stages := research(t, halden, "What happened to Halden Bio: its trial, the licence deal and the plant?", "quick", claimsModel(&asked))
	if !asked {
		t.Fatalf("the model was never asked for claims on any topic; stages:\n%s", strings.Join(stages, "\n"))
	}
	facts := res.FactsByID()
	byModel := 0
	for _, f := range res.Facts {
		if strings.HasPrefix(f.Text, "Per the passage") {
			byModel++
		}
	}
	if byModel == 0 {
		t.Errorf("no fact is the model's; facts %+v", res.Facts)
	}
	want := map[string][2]string{"patients": {"412", "388"}, "payment": {"$35", "$53"}, "opening": {"October 2023", "August 2024"}}
	for _, d := range res.Discrepancies {
		var values []string
		for _, s := range d.Sides {
			values = append(values, s.Value)
		}
		joined := strings.Join(values, " | ")
		matched := ""
		for name, w := range want {
			if strings.Contains(joined, w[0]) && strings.Contains(joined, w[1]) {
				matched = name
			}
		}
		if matched == "" {
			t.Errorf("false conflict %s: %s", d.Topic, joined)
		}
		delete(want, matched)
		for _, id := range d.FactIDs {
			if strings.HasSuffix(facts[id].Attribute, "(2019)") {
				t.Errorf("%s compares %q, a claim for a year its sentence does not write", d.Topic, facts[id].Text)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no discrepancy about %v in %+v", want, res.Discrepancies)
	}
	if !strings.Contains(strings.Join(res.Report.Limitations, " "), "2019") {
		t.Errorf("limitations %q; want the dropped claim for 2019 named", res.Report.Limitations)
	}
}

// Both claim schemas are JSON the providers can read.
func TestClaimSchemasAreJSON(t *testing.T) {
	for _, s := range []*llm.Schema{claimsSchema(), factsSchema([]string{"revenue"})} {
		if !json.Valid(s.Schema) {
			t.Errorf("schema %s is not JSON: %s", s.Name, s.Schema)
		}
	}
}

package research

// A briefing's claims read by a model: the same fields the offline
// reader gives a claim (the attribute as its head noun and modifiers,
// the unit, the year, the modality), each checked against the sentence
// it is read from before the claim is compared with like claims.

import (
	"slices"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// anyAttribute is the attribute a briefing's prompt asks for: any, as the
// passage names it.
const anyAttribute = "any (name each claim's attribute by its noun phrase)"

// maxAttributeWords bounds an attribute's phrase.
const maxAttributeWords = 6

const claimsSystem = `You extract every claim that numbered passages of documents make about the subject of a research question: each amount, count, percentage, date of an event and person in a role.
Rules:
- text is the claim as one sentence of 10 to 500 characters, in the passage's words as far as possible, naming who or what it is about.
- value is the claim's value (an amount, a count, a date, a name), copied exactly as the passage writes it, and text states it.
- attribute is what the value is of, as a noun phrase of at most 6 words whose last word is its head noun: "upfront licence payment", "trial enrollment", "plant opening", "chief executive".
- unit is what a count counts, as the passage writes it ("patients", "stops"), or "" for an amount, a percentage, a date or a name.
- period is the year the value is for when the passage writes it ("2024"), else "".
- modality is "reported" for what happened or is, "planned", "expected" or "estimated" otherwise.
- Copy every number exactly as the passage writes it; never compute, round, convert or add a number.
- confidence is 0 to 1: how plainly the passage states the claim.
- A passage that states no value gives nothing. An empty list is a good answer.`

func claimsSchema() *llm.Schema {
	return claimListSchema("research_claims", `{"type": "string", "description": "what the value is of: a noun phrase, its head noun last"}`,
		`"unit": {"type": "string", "description": "what a count counts, or empty"},
        "period": {"type": "string", "description": "the year the value is for, or empty"},
        "modality": {"type": "string", "enum": ["reported", "planned", "expected", "estimated"]},
        `, `, "unit", "period", "modality"`)
}

// attributePhrase reports an attribute written as a short noun phrase of
// words.
func attributePhrase(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > maxAttributeWords {
		return false
	}
	for _, w := range ws {
		for _, r := range w {
			if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’' {
				return false
			}
		}
	}
	return true
}

// claimOf is the claim a model's checked fact makes, read as the offline
// reader reads one: its head and modifiers from the attribute phrase, a
// count's unit only when the sentence writes it, a year only when the
// sentence writes it, a modality of the four; its value and the numbers
// of its text were checked by the shared evidence checker (checkClaim).
// What fails is an error that names it.
func claimOf(c modelClaim, f rs.Fact, sentence string, subject []string) (*Claim, error) {
	short := clipRunes(f.Text, 80)
	v := valueIn(sentence, f.Value)
	modality := Modality(strings.ToLower(strings.TrimSpace(orDefault(c.Modality, string(Reported)))))
	if !slices.Contains([]Modality{Reported, Planned, Expected, Estimated}, modality) {
		return nil, rejectf("claim %q has modality %q, not reported, planned, expected or estimated", short, c.Modality)
	}
	period := strings.TrimSpace(c.Period)
	if period != "" {
		// The evidence checker leaves years alone: the year must be one
		// the sentence writes.
		if !slices.Contains(yearRE.FindAllString(sentence, -1), period) {
			return nil, rejectf("claim %q is for %q, a year its sentence does not write", short, c.Period)
		}
	}
	own := set(subject...)
	var mods []string
	for _, w := range words(f.Attribute) {
		if !determiners[w] && !own[w] && !noise[w] && !prepositions[w] {
			mods = append(mods, singular(w))
		}
	}
	if len(mods) == 0 {
		return nil, rejectf("claim %q names no attribute but the subject", short)
	}
	cl := Claim{Value: v, Text: v.Text, Attribute: f.Attribute, Period: period, Modality: modality, owned: true}
	cl.Head, cl.Mods = mods[len(mods)-1], mods[:len(mods)-1]
	switch {
	case v.Kind == KindDate:
		cl.Unit = "date"
	case v.Kind == KindMoney:
		cl.Unit = currency(v.Text)
	case strings.Contains(v.Text, "%"):
		cl.Unit = "%"
	case v.Kind == KindNumber:
		// A count is of the noun it counts, as the offline reader reads
		// it ("trial enrollment" of 412 patients is of patients).
		unit := strings.ToLower(strings.TrimSpace(c.Unit))
		if unit != "" && wordAt(strings.ToLower(sentence), unit) < 0 {
			return nil, rejectf("claim %q counts %q, which its sentence does not write", short, c.Unit)
		}
		if unit != "" {
			cl.Mods = append(cl.Mods, cl.Head)
			cl.Head = singular(unit)
		}
		cl.Unit = cl.Head
	default:
		cl.Unit = string(v.Kind)
	}
	counted := cl.Unit == cl.Head
	cl.Head, cl.Mods = canonical(cl.Head, cl.Mods)
	if counted {
		cl.Unit = cl.Head
	}
	return &cl, nil
}

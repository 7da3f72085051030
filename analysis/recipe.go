package analysis

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Recipe is a successful analysis kept for the next request on the same
// schema: its intent with {placeholders} where the request named values,
// and its plan with the same placeholders in the steps' arguments.
type Recipe struct {
	RecipeID          string `json:"recipe_id"`
	SchemaFingerprint string `json:"schema_fingerprint"`
	IntentTemplate    string `json:"intent_template"`
	// IntentEmbedding is the template's vector: a model's embedding when
	// one is configured, else LexicalEmbedding.
	IntentEmbedding []float32 `json:"intent_embedding,omitempty"`
	// EmbeddingModel names the model that made IntentEmbedding; empty
	// for LexicalEmbedding. Vectors of different models are never
	// compared.
	EmbeddingModel string     `json:"embedding_model,omitempty"`
	PlanStructure  RecipePlan `json:"plan_structure"`
	// ToolArgumentTemplates are the steps' arguments, in step order.
	ToolArgumentTemplates []map[string]any `json:"tool_argument_templates"`
	SuccessCount          int              `json:"success_count"`
	CreatedAt             string           `json:"created_at"`
	LastUsedAt            string           `json:"last_used_at"`
}

// RecipePlan is a plan with placeholders, and what it reads: the tables
// and the columns of each, so that a recipe whose columns are gone is
// noticed before it runs. Shape and Slots are the request it answered,
// read as a structure and the values that fill it: a recipe is reused
// only for a request of the same Shape, with that request's slots, never
// for one that merely reads alike. A recipe without a Shape (kept before
// recipes recorded one) is never reused.
type RecipePlan struct {
	Subtasks  []Subtask           `json:"subtasks"`
	Reasoning string              `json:"reasoning"`
	Tables    map[string][]string `json:"tables"`
	// Planner is who wrote the plan: "offline" (a reuse rebuilds it from
	// the new request's slots) or "model" (a reuse fills the template).
	Planner string       `json:"planner,omitempty"`
	Shape   *RecipeShape `json:"shape,omitempty"`
	Slots   []RecipeSlot `json:"slots,omitempty"`
}

// RecipeShape is the structure of a request, without its values: what it
// computes (aggregations, groupings with their grains, filters by
// operator, period, comparison, ranking, analyses) and what shapes its
// plan besides (the deliverables named, the row limit, the column
// policy). Two requests of one shape differ only in their slots.
type RecipeShape struct {
	// Table is the table the request is about, with its database source
	// ("db1/orders") when it is in one.
	Table string `json:"table"`
	// Measures are the aggregations in order: "sum", "avg", ..., and
	// "count(*)" for a count of rows.
	Measures []string `json:"measures"`
	// Groups are the groupings in order, each the grain of a date
	// grouping ("month") or the type of the column grouped by ("string").
	Groups []string `json:"groups"`
	// Filters are the filters in order, each its operator and the number
	// of its values ("= 1", "in 3").
	Filters      []string `json:"filters"`
	Period       bool     `json:"period"`
	Compare      bool     `json:"compare"`
	Top          string   `json:"top"` // "", "top" or "bottom"
	Analyses     []string `json:"analyses"`
	Deliverables []string `json:"deliverables"`
	RowLimit     int      `json:"row_limit"`
	// Policy is the allowed columns, sorted, when the request limits them.
	Policy string `json:"policy"`
	// Join is how the table is read through its keys (SourceTable.From),
	// when it is.
	Join string `json:"join,omitempty"`
	// Rest is whatever else the parsed request holds that the fields
	// above do not name (a part of requests added since), as JSON: two
	// requests are of one shape only when it is the same.
	Rest string `json:"rest,omitempty"`
}

// RecipeSlot is one value that fills a shape: a measure's or grouping's
// column, a filter's column or value, the period, the N of a ranking.
// Name is its placeholder in the recipe's plan ("group_1" stands as
// {group_1}).
type RecipeSlot struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"` // one of the SlotKind constants
	Value string `json:"value"`
}

// The kinds of slot: a column name, a value of the data (a filter's), a
// date (YYYY-MM-DD), a period's label ("2020", "Q1 2021"), a number.
const (
	SlotColumn = "column"
	SlotValue  = "value"
	SlotDate   = "date"
	SlotLabel  = "label"
	SlotNumber = "number"
)

// RecipeStore keeps recipes (the spec's recipes table).
type RecipeStore interface {
	// Save stores r, or when a recipe with the same fingerprint,
	// template, planner, shape and plan exists, counts one more success
	// for it; it returns the stored recipe's id.
	Save(ctx context.Context, r *Recipe) (string, error)
	// Find returns the recipes of a schema fingerprint.
	Find(ctx context.Context, fingerprint string) ([]Recipe, error)
	// Candidates returns recipes of other fingerprints that read the same
	// tables, for adaptation after a schema change.
	Candidates(ctx context.Context, tables []string) ([]Recipe, error)
	Get(ctx context.Context, id string) (*Recipe, error)
	List(ctx context.Context) ([]Recipe, error)
	Delete(ctx context.Context, id string) error
	// Used records a reuse: one more success, and when.
	Used(ctx context.Context, id, at string) error
}

// lexicalDims is the size of the lexical embedding.
const lexicalDims = 256

// LexicalEmbedding is the offline stand-in for a sentence embedding: the
// template's words (lower case, placeholders as one token each) hashed
// into a unit vector, so that cosine similarity measures shared words.
func LexicalEmbedding(text string) []float32 {
	v := make([]float32, lexicalDims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '{' && r != '}' && r != '_'
	})
	for _, w := range words {
		h := fnv.New32a()
		h.Write([]byte(w))
		s := h.Sum32()
		sign := float32(1)
		if s&1 == 1 {
			sign = -1
		}
		v[(s>>1)%lexicalDims] += sign
	}
	var norm float64
	for _, x := range v {
		norm += float64(x * x)
	}
	if norm > 0 {
		n := float32(math.Sqrt(norm))
		for i := range v {
			v[i] /= n
		}
	}
	return v
}

// Cosine is the cosine similarity of two vectors of one length (0 when
// they differ in length or one is zero).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// EncodeVector and DecodeVector store a vector as little-endian float32s.
func EncodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// DecodeVector reads a vector written by EncodeVector.
func DecodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

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
// noticed before it runs.
type RecipePlan struct {
	Subtasks  []Subtask           `json:"subtasks"`
	Reasoning string              `json:"reasoning"`
	Tables    map[string][]string `json:"tables"`
}

// RecipeStore keeps recipes (the spec's recipes table).
type RecipeStore interface {
	// Save stores r, or when a recipe with the same fingerprint and
	// template exists, counts one more success for it; it returns the
	// stored recipe's id.
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

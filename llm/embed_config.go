package llm

import (
	"fmt"
	"strings"
)

// EmbedConfig says which embedding model to use, at any OpenAI-compatible
// /v1/embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp). It is
// separate from Config because the chat model and the embedder often live
// in different places: Claude for answers, a local Ollama for vectors. The
// zero EmbedConfig means no embedder: callers use lexical retrieval.
type EmbedConfig struct {
	Model string
	// BaseURL is the endpoint; empty means OpenAI's.
	BaseURL string
	// APIKey is OPENAI_API_KEY; local servers need none. Redacted like
	// Config's.
	APIKey string
}

// Environment variables read by EmbedConfigFromEnv.
const (
	EnvEmbedModel   = "QUARRY_EMBED_MODEL"
	EnvEmbedBaseURL = "QUARRY_EMBED_BASE_URL"
)

// EmbedConfigFromEnv reads the embedder's configuration through getenv.
func EmbedConfigFromEnv(getenv func(string) string) EmbedConfig {
	c := EmbedConfig{
		Model:   strings.TrimSpace(getenv(EnvEmbedModel)),
		BaseURL: strings.TrimSpace(getenv(EnvEmbedBaseURL)),
	}
	if c.Model != "" {
		c.APIKey = getenv(EnvOpenAIKey)
	}
	return c
}

// Configured reports whether an embedding model is set.
func (c EmbedConfig) Configured() bool { return c.Model != "" }

// Validate reports what is missing, naming the variable to set.
func (c EmbedConfig) Validate() error {
	switch {
	case !c.Configured() && c.BaseURL != "":
		return fmt.Errorf("%s is set but %s is not", EnvEmbedBaseURL, EnvEmbedModel)
	case c.Configured() && c.APIKey == "" && c.BaseURL == "":
		return fmt.Errorf("%s=%s needs %s, or %s for a local server such as Ollama", EnvEmbedModel, c.Model, EnvOpenAIKey, EnvEmbedBaseURL)
	}
	return nil
}

// String describes the configuration without the key.
func (c EmbedConfig) String() string {
	if !c.Configured() {
		return "none (lexical retrieval)"
	}
	s := c.Model
	if c.BaseURL != "" {
		s += " at " + c.BaseURL
	}
	return s + ", key " + redact(c.APIKey)
}

// MarshalJSON writes the configuration with the key redacted.
func (c EmbedConfig) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"model":%q,"base_url":%q,"api_key":%q}`, c.Model, c.BaseURL, redact(c.APIKey)), nil
}

// GoString keeps the key out of %#v as well.
func (c EmbedConfig) GoString() string {
	return fmt.Sprintf("llm.EmbedConfig{Model:%q, BaseURL:%q, APIKey:%q}", c.Model, c.BaseURL, redact(c.APIKey))
}

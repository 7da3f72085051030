package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestEmbedConfigFromEnv(t *testing.T) {
	env := map[string]string{EnvEmbedModel: " nomic-embed-text ", EnvEmbedBaseURL: "http://localhost:11434/v1", EnvOpenAIKey: "sk-embed"}
	c := EmbedConfigFromEnv(func(k string) string { return env[k] })
	if c.Model != "nomic-embed-text" || c.BaseURL != "http://localhost:11434/v1" || c.APIKey != "sk-embed" {
		t.Errorf("EmbedConfigFromEnv = %#v", c)
	}
	// An OpenAI key alone does not turn embeddings on.
	c = EmbedConfigFromEnv(func(k string) string { return map[string]string{EnvOpenAIKey: "sk"}[k] })
	if c.Configured() || c.APIKey != "" {
		t.Errorf("key alone configured an embedder: %#v", c)
	}
}

func TestEmbedConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		c    EmbedConfig
		want string // "" for valid
	}{
		{EmbedConfig{}, ""},
		{EmbedConfig{Model: "text-embedding-3-small", APIKey: "sk"}, ""},
		{EmbedConfig{Model: "nomic-embed-text", BaseURL: "http://localhost:11434/v1"}, ""},
		{EmbedConfig{Model: "text-embedding-3-small"}, EnvOpenAIKey},
		{EmbedConfig{BaseURL: "http://localhost:11434/v1"}, EnvEmbedModel},
	} {
		err := tt.c.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%#v: %v", tt.c, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%#v: error %v; want one naming %s", tt.c, err, tt.want)
		}
	}
}

func TestEmbedConfigNeverShowsTheKey(t *testing.T) {
	c := EmbedConfig{Model: "text-embedding-3-small", APIKey: "sk-embed-secret"}
	b, err := json.Marshal(struct{ E *EmbedConfig }{&c})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{c.String(), string(b), fmt.Sprintf("%v %+v %#v", c, c, c)} {
		if strings.Contains(s, "sk-embed-secret") {
			t.Errorf("%q contains the key", s)
		}
	}
	if got := (EmbedConfig{}).String(); got != "none (lexical retrieval)" {
		t.Errorf("zero String() = %q", got)
	}
}

package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const (
	anthropicKey = "sk-ant-api03-secret"
	openAIKey    = "sk-proj-secret"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"nothing set", nil, Config{Provider: ProviderOffline}},
		{"anthropic key alone picks anthropic", map[string]string{EnvAnthropicKey: anthropicKey},
			Config{Provider: ProviderAnthropic, APIKey: anthropicKey}},
		{"openai key alone stays offline", map[string]string{EnvOpenAIKey: openAIKey},
			Config{Provider: ProviderOffline}},
		{"explicit offline ignores keys", map[string]string{EnvProvider: "offline", EnvAnthropicKey: anthropicKey},
			Config{Provider: ProviderOffline}},
		{"openai takes the openai key", map[string]string{EnvProvider: " OpenAI ", EnvModel: " gpt-4.1 ", EnvBaseURL: " https://proxy.example/v1 ",
			EnvAnthropicKey: anthropicKey, EnvOpenAIKey: openAIKey},
			Config{Provider: ProviderOpenAI, Model: "gpt-4.1", BaseURL: "https://proxy.example/v1", APIKey: openAIKey}},
		{"openai never borrows the anthropic key", map[string]string{EnvProvider: "openai", EnvBaseURL: "http://localhost:11434/v1", EnvAnthropicKey: anthropicKey},
			Config{Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1"}},
		{"anthropic takes the anthropic key", map[string]string{EnvProvider: "ANTHROPIC", EnvAnthropicKey: anthropicKey, EnvOpenAIKey: openAIKey},
			Config{Provider: ProviderAnthropic, APIKey: anthropicKey}},
		{"unknown provider kept for Validate", map[string]string{EnvProvider: "Ollama", EnvOpenAIKey: openAIKey},
			Config{Provider: "ollama"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ConfigFromEnv(env(tt.env)); got != tt.want {
				t.Errorf("ConfigFromEnv(%v) = %#v; want %#v", tt.env, got, tt.want)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		c    Config
		want string // "" means valid
	}{
		{Config{}, ""},
		{Config{Provider: ProviderOffline}, ""},
		{Config{Provider: ProviderAnthropic, APIKey: anthropicKey}, ""},
		{Config{Provider: ProviderAnthropic, BaseURL: "http://localhost:8080"}, ""},
		{Config{Provider: ProviderAnthropic}, "QUARRY_LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY"},
		{Config{Provider: ProviderOpenAI, APIKey: openAIKey}, ""},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1"}, ""},
		{Config{Provider: ProviderOpenAI}, "QUARRY_LLM_PROVIDER=openai needs OPENAI_API_KEY, or QUARRY_LLM_BASE_URL for a local server such as Ollama"},
		{Config{Provider: "ollama"}, `QUARRY_LLM_PROVIDER="ollama": want offline, anthropic or openai`},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%+v.Validate() = %q; want %q", tt.c.Provider, got, tt.want)
		}
	}
}

func TestConfigWithDefaults(t *testing.T) {
	tests := []struct{ in, want Config }{
		{Config{}, Config{Provider: ProviderOffline}},
		{Config{Provider: ProviderOffline}, Config{Provider: ProviderOffline}},
		{Config{Provider: ProviderAnthropic}, Config{Provider: ProviderAnthropic, Model: DefaultAnthropicModel}},
		{Config{Provider: ProviderOpenAI}, Config{Provider: ProviderOpenAI, Model: DefaultOpenAIModel}},
		{Config{Provider: ProviderOpenAI, Model: "llama3.2"}, Config{Provider: ProviderOpenAI, Model: "llama3.2"}},
	}
	for _, tt := range tests {
		if got := tt.in.WithDefaults(); got != tt.want {
			t.Errorf("%#v.WithDefaults() = %#v; want %#v", tt.in, got, tt.want)
		}
	}
}

func TestConfigOffline(t *testing.T) {
	for c, want := range map[Config]bool{
		{}:                                   true,
		{Provider: ProviderOffline}:          true,
		{Provider: ProviderAnthropic}:        false,
		{Provider: ProviderOpenAI}:           false,
		{Provider: "ollama", Model: "llama"}: false,
	} {
		if got := c.Offline(); got != want {
			t.Errorf("%#v.Offline() = %v; want %v", c, got, want)
		}
	}
}

func TestConfigNeverShowsTheKey(t *testing.T) {
	tests := []struct {
		c        Config
		str      string
		jsonText string
	}{
		{Config{}, "offline (no model)",
			`{"provider":"","model":"","base_url":"","api_key":"not set"}`},
		{Config{Provider: ProviderAnthropic, APIKey: anthropicKey}, "anthropic/claude-sonnet-4-5, key set",
			`{"provider":"anthropic","model":"","base_url":"","api_key":"set"}`},
		{Config{Provider: ProviderOpenAI, Model: "llama3.2", BaseURL: "http://localhost:11434/v1"}, "openai/llama3.2 at http://localhost:11434/v1, key not set",
			`{"provider":"openai","model":"llama3.2","base_url":"http://localhost:11434/v1","api_key":"not set"}`},
		{Config{Provider: ProviderOpenAI, Model: `quo"te`, APIKey: openAIKey}, `openai/quo"te, key set`,
			`{"provider":"openai","model":"quo\"te","base_url":"","api_key":"set"}`},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.str {
			t.Errorf("String() = %q; want %q", got, tt.str)
		}
		b, err := json.Marshal(tt.c)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.jsonText {
			t.Errorf("json.Marshal = %s; want %s", b, tt.jsonText)
		}
		// Formatting and marshalling through a containing value must not
		// reach the key either.
		wrapped, err := json.Marshal(struct{ LLM *Config }{&tt.c})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{tt.c.String(), string(b), string(wrapped), fmt.Sprint(tt.c), fmt.Sprintf("%v", &tt.c)} {
			if tt.c.APIKey != "" && strings.Contains(s, tt.c.APIKey) {
				t.Errorf("%q contains the API key", s)
			}
		}
	}
}

func TestConfigGoStringRedactsKey(t *testing.T) {
	c := Config{Provider: ProviderAnthropic, APIKey: "sk-ant-secret"}
	if s := fmt.Sprintf("%#v %v %+v", c, c, c); strings.Contains(s, "sk-ant-secret") {
		t.Errorf("formatting prints the key: %s", s)
	}
}

func TestConfigLocal(t *testing.T) {
	for _, tt := range []struct {
		c    Config
		want bool
	}{
		{Config{}, true},
		{Config{Provider: ProviderOffline}, true},
		{Config{Provider: ProviderAnthropic, APIKey: "k"}, false},
		{Config{Provider: ProviderOpenAI, APIKey: "k"}, false},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1"}, true},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://127.0.0.1:8000/v1"}, true},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://127.1.2.3:8000/v1"}, true},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://[::1]:8080/v1"}, true},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://192.168.1.20:11434/v1"}, false},
		{Config{Provider: ProviderOpenAI, BaseURL: "https://api.together.xyz/v1"}, false},
		{Config{Provider: ProviderOpenAI, BaseURL: "http://localhost.evil.com/v1"}, false},
		{Config{Provider: ProviderOpenAI, BaseURL: "::not a url"}, false},
	} {
		if got := tt.c.Local(); got != tt.want {
			t.Errorf("%v.Local() = %v; want %v", tt.c, got, tt.want)
		}
	}
}

package llm

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Providers Quarry can talk to.
const (
	ProviderOffline   = "offline"
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Default model names, used when Config.Model is empty.
const (
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1-mini"
)

// Config says which model to use. The zero Config is offline.
type Config struct {
	Provider string // offline, anthropic or openai
	Model    string
	// BaseURL overrides the provider's endpoint, for example
	// http://localhost:11434/v1 for Ollama.
	BaseURL string
	// APIKey is the provider's key. It is never logged or written out:
	// String and MarshalJSON redact it.
	APIKey string
}

// Environment variables read by ConfigFromEnv.
const (
	EnvProvider     = "QUARRY_LLM_PROVIDER"
	EnvModel        = "QUARRY_LLM_MODEL"
	EnvBaseURL      = "QUARRY_LLM_BASE_URL"
	EnvAnthropicKey = "ANTHROPIC_API_KEY"
	EnvOpenAIKey    = "OPENAI_API_KEY"
)

// ConfigFromEnv reads the configuration from the environment through
// getenv. With no provider set it picks anthropic when ANTHROPIC_API_KEY is
// set, and offline otherwise: a key alone is a clear enough wish, while an
// OpenAI key alone may belong to another tool.
func ConfigFromEnv(getenv func(string) string) Config {
	c := Config{
		Provider: strings.ToLower(strings.TrimSpace(getenv(EnvProvider))),
		Model:    strings.TrimSpace(getenv(EnvModel)),
		BaseURL:  strings.TrimSpace(getenv(EnvBaseURL)),
	}
	if c.Provider == "" {
		c.Provider = ProviderOffline
		if getenv(EnvAnthropicKey) != "" {
			c.Provider = ProviderAnthropic
		}
	}
	switch c.Provider {
	case ProviderAnthropic:
		c.APIKey = getenv(EnvAnthropicKey)
	case ProviderOpenAI:
		c.APIKey = getenv(EnvOpenAIKey)
	}
	return c
}

// WithDefaults fills in the default model of the provider.
func (c Config) WithDefaults() Config {
	if c.Provider == "" {
		c.Provider = ProviderOffline
	}
	if c.Model == "" {
		switch c.Provider {
		case ProviderAnthropic:
			c.Model = DefaultAnthropicModel
		case ProviderOpenAI:
			c.Model = DefaultOpenAIModel
		}
	}
	return c
}

// Offline reports whether no model is configured.
func (c Config) Offline() bool { return c.Provider == "" || c.Provider == ProviderOffline }

// Local reports whether the model runs on this machine: its endpoint is a
// loopback address (a local Ollama, llama.cpp or vLLM). The providers'
// own endpoints are not local.
func (c Config) Local() bool {
	if c.Offline() {
		return true
	}
	u, err := url.Parse(c.BaseURL)
	if c.BaseURL == "" || err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// Validate reports the first field that is wrong, naming the variable to
// fix.
func (c Config) Validate() error {
	switch c.Provider {
	case "", ProviderOffline:
		return nil
	case ProviderAnthropic:
		if c.APIKey == "" && c.BaseURL == "" {
			return fmt.Errorf("%s=anthropic needs %s", EnvProvider, EnvAnthropicKey)
		}
	case ProviderOpenAI:
		// Local OpenAI-compatible servers (Ollama, llama.cpp) need no key,
		// but then they need a base URL: without one the key is for OpenAI.
		if c.APIKey == "" && c.BaseURL == "" {
			return fmt.Errorf("%s=openai needs %s, or %s for a local server such as Ollama", EnvProvider, EnvOpenAIKey, EnvBaseURL)
		}
	default:
		return fmt.Errorf("%s=%q: want offline, anthropic or openai", EnvProvider, c.Provider)
	}
	return nil
}

// String describes the configuration without the key.
func (c Config) String() string {
	c = c.WithDefaults()
	if c.Offline() {
		return "offline (no model)"
	}
	s := c.Provider + "/" + c.Model
	if c.BaseURL != "" {
		s += " at " + c.BaseURL
	}
	return s + ", key " + redact(c.APIKey)
}

// MarshalJSON writes the configuration with the key redacted.
func (c Config) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"provider":%q,"model":%q,"base_url":%q,"api_key":%q}`, c.Provider, c.Model, c.BaseURL, redact(c.APIKey)), nil
}

func redact(key string) string {
	if key == "" {
		return "not set"
	}
	return "set"
}

// GoString keeps the key out of %#v as well.
func (c Config) GoString() string {
	return fmt.Sprintf("llm.Config{Provider:%q, Model:%q, BaseURL:%q, APIKey:%q}", c.Provider, c.Model, c.BaseURL, redact(c.APIKey))
}

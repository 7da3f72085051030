package app

import (
	"context"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigations"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/anthropic"
	"github.com/quarry-dev/quarry/llm/openai"
	"github.com/quarry-dev/quarry/mcp/codeexec"
)

// NewModel builds the configured model behind the specification's retry
// policy; offline configuration gives nil. Errors: INVALID for a
// configuration that cannot work (an unknown provider, a missing key).
func NewModel(cfg llm.Config) (llm.Model, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%v", err).WithHint("run `quarry help config` to see every setting")
	}
	var m llm.Model
	switch cfg.Provider {
	case llm.ProviderAnthropic:
		m = anthropic.New(anthropic.Options{APIKey: cfg.APIKey, Model: cfg.Model, BaseURL: cfg.BaseURL})
	case llm.ProviderOpenAI:
		m = openai.New(openai.Options{APIKey: cfg.APIKey, Model: cfg.Model, BaseURL: cfg.BaseURL})
	default:
		return nil, nil
	}
	return llm.Retry(m, llm.DefaultRetryPolicy()), nil
}

// CodeDialer returns how investigations connect to the external MCP
// code-execution server configured in the environment, or nil when none
// is. Errors: INVALID for a configuration that cannot work.
func CodeDialer(getenv func(string) string) (func(context.Context) (investigations.CodeSession, error), error) {
	cfg, ok := codeexec.ConfigFromEnv(getenv)
	if !ok {
		return nil, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (investigations.CodeSession, error) {
		return codeexec.Dial(ctx, cfg)
	}, nil
}

// NewEmbedder builds the configured embedder; with none configured it
// returns nil and callers stay lexical. Errors: INVALID for a configuration
// that cannot work.
func NewEmbedder(cfg llm.EmbedConfig) (llm.Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%v", err).WithHint("run `quarry help config` to see every setting")
	}
	if !cfg.Configured() {
		return nil, nil
	}
	return openai.New(openai.Options{APIKey: cfg.APIKey, BaseURL: cfg.BaseURL, EmbeddingModel: cfg.Model}), nil
}

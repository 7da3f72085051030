package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/websearch/websearchtest"
)

// fakeOpenAI answers Chat Completions like an OpenAI-compatible server
// (Ollama's /v1): "ok" to plain requests, {"ok": true} when a JSON schema
// is asked for. It records whether an Authorization header came.
func fakeOpenAI(t *testing.T, structured string) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/embeddings" {
			embeddings(w, r)
			return
		}
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model          string          `json:"model"`
			ResponseFormat json.RawMessage `json:"response_format"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Model != "llama3.2" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		content := "ok"
		if len(req.ResponseFormat) > 0 {
			content = structured
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]int{"prompt_tokens": 12, "completion_tokens": 1, "total_tokens": 13},
		})
	}))
}

func TestDoctor(t *testing.T) {
	good := fakeOpenAI(t, `{"ok": true}`)
	defer good.Close()
	bad := fakeOpenAI(t, `Sure! {ok: true`)
	defer bad.Close()
	web := websearchtest.Start(t, websearchtest.Kestrel(), false)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name string
		env  map[string]string
		code int
		want []string
	}{
		{"offline", nil, 0, []string{"model         ok    offline", "web search    -     none configured"}},
		{"web search", map[string]string{"QUARRY_SEARXNG_URL": web.SearchURL()}, 0,
			[]string{"web search    ok    SearxNG at " + web.SearchURL() + " answered 5 results in "}},
		{"web search down", map[string]string{"QUARRY_SEARXNG_URL": down.URL}, 1,
			[]string{"web search    FAIL  UNAVAILABLE: SearxNG at " + down.URL + " cannot be reached", "model         ok    offline"}},
		{"web search not a URL", map[string]string{"QUARRY_SEARXNG_URL": "localhost:8888"}, 1,
			[]string{"web search    FAIL  INVALID", "not an http(s) URL"}},
		{"web credibility out of range", map[string]string{"QUARRY_BRAVE_API_KEY": "k", "QUARRY_WEB_CREDIBILITY": credibility(t, `{"example.com": 2}`)}, 1,
			[]string{"web search    FAIL  INVALID"}},
		{"local server", map[string]string{"QUARRY_LLM_PROVIDER": "openai", "QUARRY_LLM_MODEL": "llama3.2", "QUARRY_LLM_BASE_URL": good.URL + "/v1"}, 0,
			[]string{`openai/llama3.2 answered "ok"`, "(12 input, 1 output tokens)", "json output   ok", "key not set"}},
		{"no structured output", map[string]string{"QUARRY_LLM_PROVIDER": "openai", "QUARRY_LLM_MODEL": "llama3.2", "QUARRY_LLM_BASE_URL": bad.URL + "/v1"}, 1,
			[]string{"json output   FAIL"}},
		{"embedder", map[string]string{"QUARRY_EMBED_MODEL": "nomic-embed-text", "QUARRY_EMBED_BASE_URL": good.URL + "/v1"}, 0,
			[]string{"embedder      ok    nomic-embed-text at " + good.URL + "/v1, key not set: 3 dimensions", "model         ok    offline"}},
		{"embedder without endpoint", map[string]string{"QUARRY_EMBED_MODEL": "nomic-embed-text"}, 1,
			[]string{"embedder      FAIL  INVALID: QUARRY_EMBED_MODEL=nomic-embed-text needs OPENAI_API_KEY, or QUARRY_EMBED_BASE_URL"}},
		{"unknown embedding model", map[string]string{"QUARRY_EMBED_MODEL": "nope", "QUARRY_EMBED_BASE_URL": good.URL + "/v1"}, 1,
			[]string{"embedder      FAIL"}},
		{"unknown provider", map[string]string{"QUARRY_LLM_PROVIDER": "gemini"}, 1, []string{`FAIL  INVALID: QUARRY_LLM_PROVIDER="gemini"`}},
		{"key never printed", map[string]string{"QUARRY_LLM_PROVIDER": "openai", "OPENAI_API_KEY": "sk-secret-123", "QUARRY_LLM_MODEL": "llama3.2", "QUARRY_LLM_BASE_URL": good.URL + "/v1"}, 0,
			[]string{"key set"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := func(k string) string { return tt.env[k] }
			var out, errb strings.Builder
			err := run(t.Context(), []string{"doctor", "--data-dir", t.TempDir()}, env, strings.NewReader(""), &out, &errb)
			if code := exitCode(err, &errb); code != tt.code {
				t.Fatalf("quarry doctor exited %d; want %d\n%s%s", code, tt.code, out.String(), errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("quarry doctor output lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String()+errb.String(), "sk-secret-123") {
				t.Errorf("the API key was printed")
			}
		})
	}
}

// credibility writes a credibility map file and returns its path.
func credibility(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "credibility.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// embeddings answers /v1/embeddings for the model nomic-embed-text with a
// 3-dimensional vector per input.
func embeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "nomic-embed-text" {
		http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusNotFound)
		return
	}
	data := make([]map[string]any, len(req.Input))
	for i, in := range req.Input {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": []float64{float64(len(in)), 1, 0.5}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": 3, "total_tokens": 3}})
}

func TestModelSettingsLayers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "quarry.json")
	os.WriteFile(file, []byte(`{"llm": {"provider": "openai", "model": "from-file", "base_url": "http://file/v1"},
		"embed": {"model": "file-embed", "base_url": "http://file-embed/v1"}}`), 0o644)
	env := map[string]string{"QUARRY_LLM_MODEL": "from-env", "QUARRY_EMBED_BASE_URL": "http://env-embed/v1"}
	f := modelFlags{file: file, baseURL: "http://flag/v1", embedModel: "flag-embed"}
	c, ec, err := f.config(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	// The flag beats the environment, which beats the file.
	if c.Provider != "openai" || c.Model != "from-env" || c.BaseURL != "http://flag/v1" {
		t.Errorf("model settings %#v", c)
	}
	if ec.Model != "flag-embed" || ec.BaseURL != "http://env-embed/v1" {
		t.Errorf("embedder settings %#v", ec)
	}

	os.WriteFile(file, []byte(`{"embed": {"modle": "x"}}`), 0o644)
	if _, _, err := f.config(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "modle") {
		t.Errorf("a misspelt key: %v; want an error naming it", err)
	}
}

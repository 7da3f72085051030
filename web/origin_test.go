package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestAPIRefusesOtherSites: a page on another site may not create sessions
// or upload through the user's browser, and DNS rebinding (a foreign Host on
// the loopback address) may not even list them. curl, which sends neither
// Origin nor Sec-Fetch-Site, still works.
func TestAPIRefusesOtherSites(t *testing.T) {
	srv := newEnv(t).srv
	tests := []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"curl creates", "POST", "/api/sessions", nil, http.StatusCreated},
		{"same origin creates", "POST", "/api/sessions", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusCreated},
		{"another site creates", "POST", "/api/sessions", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"another origin without fetch metadata", "POST", "/api/sessions", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"rebinding lists", "GET", "/api/sessions", map[string]string{"Host": "evil.example"}, http.StatusForbidden},
		{"rebinding reads a page", "GET", "/", map[string]string{"Host": "evil.example:8080"}, http.StatusForbidden},
		{"localhost lists", "GET", "/api/sessions", map[string]string{"Host": "localhost:8080"}, http.StatusOK},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tt.header {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Code string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %d; want %d", tt.name, resp.StatusCode, tt.status)
		}
		if tt.status == http.StatusForbidden && body.Error.Code != "FORBIDDEN" {
			t.Errorf("%s: code %q; want FORBIDDEN", tt.name, body.Error.Code)
		}
	}
}

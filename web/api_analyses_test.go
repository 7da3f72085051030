package web_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// analysisForm is a multipart analysis request with the sample sales file.
func analysisForm(t *testing.T, intent string, extra map[string]string, files map[string][]byte) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("intent", intent)
	for k, v := range extra {
		mw.WriteField(k, v)
	}
	for name, body := range files {
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(body)
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

// waitForEnd reads an analysis's event stream until its end event.
func (e *env) waitForEnd(id string) []string {
	e.t.Helper()
	res, err := http.Get(e.srv.URL + "/api/analyses/" + id + "/events")
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var kinds []string
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 1<<20), 8<<20)
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			kinds = append(kinds, k)
		}
		if strings.HasPrefix(sc.Text(), "data: ") && len(kinds) > 0 && kinds[len(kinds)-1] == "end" {
			break
		}
	}
	return kinds
}

func TestAnalysesAPI(t *testing.T) {
	e := newEnv(t)
	sales, err := os.ReadFile("../testdata/analyze/sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	ct, body := analysisForm(t, "Analyze Q1 2021 Arizona sales; trends + charts", map[string]string{"row_limit": "5000"}, map[string][]byte{"sales.csv": sales})
	r := e.do(http.MethodPost, "/api/analyses", ct, body)
	if r.status != http.StatusAccepted {
		t.Fatalf("POST /api/analyses: %d %s", r.status, r.body)
	}
	id := r.json(t)["request_id"].(string)
	if kinds := e.waitForEnd(id); len(kinds) < 3 || kinds[len(kinds)-1] != "end" {
		t.Fatalf("event stream %v", kinds)
	}
	got := e.jsonReq(http.MethodGet, "/api/analyses/"+id, nil).json(t)
	if got["status"] != "completed" {
		t.Fatalf("analysis %v", got)
	}
	plan := got["plan"].(map[string]any)
	for _, st := range plan["subtasks"].([]any) {
		if st.(map[string]any)["status"] != "succeeded" {
			t.Errorf("step %v", st)
		}
	}
	arts := got["artifacts"].([]any)
	if len(arts) < 4 {
		t.Fatalf("%d artifacts", len(arts))
	}
	for _, a := range arts {
		a := a.(map[string]any)
		res := e.do(http.MethodGet, "/api/analyses/"+id+"/artifacts/"+a["artifact_id"].(string), "", nil)
		sum := sha256.Sum256(res.body)
		if res.status != http.StatusOK || hex.EncodeToString(sum[:]) != a["content_hash"] {
			t.Errorf("artifact %s: %d, hash mismatch", a["content_ref"], res.status)
		}
		if a["artifact_type"] == "chart" && res.header.Get("Content-Type") != "image/png" {
			t.Errorf("chart served as %s", res.header.Get("Content-Type"))
		}
	}
	audit := e.jsonReq(http.MethodGet, "/api/analyses/"+id+"/audit", nil).json(t)["entries"].([]any)
	if len(audit) < 8 || audit[0].(map[string]any)["event_type"] != "request_submitted" {
		t.Errorf("audit trail of %d entries, first %v", len(audit), audit[0])
	}
	verify := e.jsonReq(http.MethodGet, "/api/analyses/"+id+"/audit/verify", nil).json(t)
	if verify["ok"] != true || verify["artifacts_checked"].(float64) < 4 {
		t.Errorf("verify %v", verify)
	}
	if rs := e.jsonReq(http.MethodGet, "/api/recipes", nil).json(t)["recipes"].([]any); len(rs) != 1 {
		t.Errorf("%d recipes; want the one this analysis left", len(rs))
	}
	if list := e.jsonReq(http.MethodGet, "/api/analyses", nil).json(t)["analyses"].([]any); len(list) != 1 {
		t.Errorf("%d analyses listed", len(list))
	}
	// Someone changes a chart: verify says so.
	for _, a := range arts {
		if a := a.(map[string]any); a["artifact_type"] == "chart" {
			os.WriteFile(a["content_ref"].(string), []byte("x"), 0o644)
			break
		}
	}
	if v := e.jsonReq(http.MethodGet, "/api/analyses/"+id+"/audit/verify", nil).json(t); v["ok"] != false {
		t.Errorf("a changed chart verified: %v", v)
	}
}

func TestAnalysesAPIErrors(t *testing.T) {
	e := newEnv(t)
	sales := []byte("day,amount\n2024-01-01,5\n")
	tests := []struct {
		name   string
		send   func() response
		status int
		code   string
	}{
		{"a server path", func() response {
			return e.jsonReq(http.MethodPost, "/api/analyses", map[string]any{"intent": "sales", "data_sources": []any{map[string]any{"type": "csv", "file_path": "/etc/passwd.csv"}}})
		}, http.StatusForbidden, quarry.ECodeForbidden},
		{"a SQLite path", func() response {
			return e.jsonReq(http.MethodPost, "/api/analyses", map[string]any{"intent": "sales", "data_sources": []any{map[string]any{"type": "sql", "connection_string": "sqlite:/srv/secret.db"}}})
		}, http.StatusForbidden, quarry.ECodeForbidden},
		{"no source", func() response {
			return e.jsonReq(http.MethodPost, "/api/analyses", map[string]any{"intent": "sales by month"})
		}, http.StatusUnprocessableEntity, quarry.ECodeInvalid},
		{"empty intent", func() response {
			ct, b := analysisForm(t, "", nil, map[string][]byte{"s.csv": sales})
			return e.do(http.MethodPost, "/api/analyses", ct, b)
		}, http.StatusUnprocessableEntity, quarry.ECodeInvalid},
		{"row limit", func() response {
			ct, b := analysisForm(t, "sales", map[string]string{"row_limit": "300000"}, map[string][]byte{"s.csv": sales})
			return e.do(http.MethodPost, "/api/analyses", ct, b)
		}, http.StatusUnprocessableEntity, quarry.ECodeInvalid},
		{"row limit not a number", func() response {
			ct, b := analysisForm(t, "sales", map[string]string{"row_limit": "lots"}, map[string][]byte{"s.csv": sales})
			return e.do(http.MethodPost, "/api/analyses", ct, b)
		}, http.StatusUnprocessableEntity, quarry.ECodeInvalid},
		{"unknown file kind", func() response {
			ct, b := analysisForm(t, "sales", nil, map[string][]byte{"s.xlsx": sales})
			return e.do(http.MethodPost, "/api/analyses", ct, b)
		}, http.StatusUnsupportedMediaType, quarry.ECodeInvalidFileType},
		{"not JSON", func() response {
			return e.do(http.MethodPost, "/api/analyses", "application/json", strings.NewReader("{"))
		}, http.StatusBadRequest, "BAD_REQUEST"},
		{"unknown analysis", func() response {
			return e.jsonReq(http.MethodGet, "/api/analyses/00000000-0000-0000-0000-000000000000", nil)
		}, http.StatusNotFound, quarry.ECodeNotFound},
		{"a path as an id", func() response {
			return e.jsonReq(http.MethodGet, "/api/analyses/..%2f..%2fetc", nil)
		}, http.StatusNotFound, quarry.ECodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.send()
			if r.status != tt.status || r.code(t) != tt.code {
				t.Fatalf("got %d %s; want %d %s", r.status, r.body, tt.status, tt.code)
			}
		})
	}
	if list := e.jsonReq(http.MethodGet, "/api/analyses", nil).json(t)["analyses"].([]any); len(list) != 0 {
		t.Errorf("refused requests left %d analyses", len(list))
	}
	if _, err := os.Stat(e.dir + "/uploads"); err == nil {
		if entries, _ := os.ReadDir(e.dir + "/uploads"); len(entries) > 0 {
			t.Errorf("refused requests left uploads: %v", entries)
		}
	}
}

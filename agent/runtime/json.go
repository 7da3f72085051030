package runtime

import (
	"encoding/json"
	"strings"
)

// DecodeJSON decodes the JSON object in a model's reply into out, without
// what models like to wrap it in: blanks, a Markdown code fence, a
// sentence before or after. Its error is encoding/json's.
func DecodeJSON(text string, out any) error {
	return json.Unmarshal([]byte(jsonObject(text)), out)
}

// jsonObject returns s from its first '{' to its last '}'; s itself when
// it has no such pair.
func jsonObject(s string) string {
	start, end := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

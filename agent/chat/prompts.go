package chat

import (
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// prompts are the model's instructions, kept as files so that a change to
// a prompt shows in review as a change to text.
var prompts = template.Must(template.New("").Funcs(template.FuncMap{
	"join": func(vs []string) string { return strings.Join(vs, ", ") },
}).ParseFS(promptFiles, "prompts/*.tmpl"))

// prompt renders the named template ("system" renders prompts/system.tmpl).
func prompt(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		// The templates are embedded and their data are this package's own
		// structs: a failure is a programming error.
		panic(fmt.Sprintf("chat: prompt %s: %v", name, err))
	}
	return strings.TrimSpace(b.String())
}

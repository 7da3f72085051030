package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry/investigation"
)

//go:embed templates
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// asset is one embedded static file, served with a content hash so that it
// can be cached for good.
type asset struct {
	data        []byte
	contentType string
	hash        string
}

// assetTypes lists what /static serves; anything else (VERSIONS.md) stays
// in the repository only.
var assetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml",
}

var assets = loadAssets()

func loadAssets() map[string]asset {
	entries, err := fs.ReadDir(staticFS, "static")
	if err != nil {
		panic(err)
	}
	out := map[string]asset{}
	for _, e := range entries {
		ct, ok := assetTypes[path.Ext(e.Name())]
		if !ok || e.IsDir() {
			continue
		}
		data, err := staticFS.ReadFile("static/" + e.Name())
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(data)
		out[e.Name()] = asset{data: data, contentType: ct, hash: hex.EncodeToString(sum[:6])}
	}
	return out
}

// assetURL is the address of a static file with its hash as a version, so
// a changed file gets a new address and the long cache never serves it stale.
func assetURL(name string) string {
	a, ok := assets[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + name + "?v=" + a.hash
}

// serveStatic serves an embedded static file with long cache headers.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	a, ok := assets[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("ETag", `"`+a.hash+`"`)
	http.ServeContent(w, r, r.PathValue("file"), time.Time{}, bytes.NewReader(a.data))
}

// pageNames are the full pages; each is templates/{name}.html filling the
// "content" block of templates/layout.html.
var pageNames = []string{"home", "form", "report", "error", "analyses", "analysis", "login", "rooms", "room", "room_answer", "room_history", "room_page",
	"research", "research_view"}

// views holds the parsed templates: one set per page, each with the layout
// and the partials, which fragments are rendered from too. A Server uses
// its own copy (viewsFor), which knows its analyst.
var views = parseViews()

// viewsFor returns a copy of views whose "analyst" function returns a.
func viewsFor(a Analyst) map[string]*template.Template {
	out := map[string]*template.Template{}
	for name, t := range views {
		c := template.Must(t.Clone())
		out[name] = c.Funcs(template.FuncMap{"analyst": func() Analyst { return a }})
	}
	return out
}

func parseViews() map[string]*template.Template {
	base := template.Must(template.New("").Funcs(templateFuncs).ParseFS(templateFS, "templates/layout.html", "templates/partials/*.html"))
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t := template.Must(base.Clone())
		out[name] = template.Must(t.ParseFS(templateFS, "templates/"+name+".html"))
	}
	return out
}

var templateFuncs = template.FuncMap{
	"asset":       assetURL,
	"count":       formatCount,
	"bytes":       formatBytes,
	"when":        formatTime,
	"isoTime":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"short":       shortID,
	"statusLabel": statusLabel,
	"join":        strings.Join,
	"add":         func(a, b int) int { return a + b },
	"htmxConfig":  func() string { return htmxConfig },
	"analyst":     func() Analyst { return Analyst{} },
	"modelRows":   func() int { return investigation.ModelMaxRows },
	// analysesOn is true on a server with the analyses' pages
	// (routesAnalysisPages).
	"analysesOn": func() bool { return false },
	// roomsOn is true on a server with the data rooms (routesRoomPages).
	"roomsOn": func() bool { return false },
	// researchOn is true on a server with the research pages
	// (routesResearchPages).
	"researchOn": func() bool { return false },
	// passwordAuth is true on a server where people sign in
	// (routesLogin).
	"passwordAuth": func() bool { return false },
}

// htmxConfig makes htmx swap 4xx and 5xx answers too (they carry the error
// as a fragment and say where it goes with HX-Retarget), and keeps htmx
// within the Content-Security-Policy: no eval, no inline styles.
const htmxConfig = `{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"[45]..","swap":true,"error":true}],` +
	`"allowEval":false,"allowScriptTags":false,"includeIndicatorStyles":false,"selfRequestsOnly":true}`

// formatCount writes n with thousands separators: 412803 -> "412,803".
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatBytes writes a file size for people: "812 B", "14.2 KB", "3.1 MB".
func formatBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// shortID is the first eight characters of an id, enough to tell sessions
// apart on screen.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// statusLabel is a session status in words.
func statusLabel(st investigation.Status) string {
	switch st {
	case investigation.StatusCreated:
		return "New"
	case investigation.StatusHasFiles:
		return "Files added"
	case investigation.StatusRunning:
		return "Running"
	case investigation.StatusCompleted:
		return "Completed"
	case investigation.StatusFailed:
		return "Failed"
	case investigation.StatusExpired:
		return "Expired"
	}
	return string(st)
}

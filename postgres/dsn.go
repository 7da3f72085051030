package postgres

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// mask is written where a password was.
const mask = "xxxxx"

var (
	// urlPassword is the password of a URL's user info, parsed or not:
	// from the user's colon to the authority's last @.
	urlPassword = regexp.MustCompile("([A-Za-z][A-Za-z0-9+.-]*://[^:@/?#\\s]*:)([^/?#\\s`'\"]*)(@)")
	// kvPassword is a password=... setting of a key/value string or of a
	// URL's query.
	kvPassword = regexp.MustCompile(`(?i)((?:^|[\s?&])(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

// Mask returns the connection string with its passwords replaced by
// xxxxx, for messages and logs.
func Mask(dsn string) string {
	dsn = urlPassword.ReplaceAllString(dsn, "${1}"+mask+"${3}")
	return kvPassword.ReplaceAllString(dsn, "${1}"+mask)
}

// secrets returns the passwords the connection string holds, as written
// and decoded, longest first.
func secrets(dsn string) []string {
	var out []string
	add := func(s string) {
		if s == "" || s == mask {
			return
		}
		out = append(out, s)
		if d, err := url.PathUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
		if d, err := url.QueryUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
	}
	if m := urlPassword.FindStringSubmatch(dsn); m != nil {
		add(m[2])
	}
	for _, m := range kvPassword.FindAllStringSubmatch(dsn, -1) {
		v := m[2]
		add(v)
		if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			add(strings.ReplaceAll(strings.ReplaceAll(v[1:len(v)-1], `\'`, `'`), `\\`, `\`))
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// scrub removes the connection string's passwords from a message that
// may repeat it (a driver's or a URL parser's).
func scrub(msg, dsn string) string {
	for _, s := range secrets(dsn) {
		msg = strings.ReplaceAll(msg, s, mask)
	}
	return Mask(msg)
}

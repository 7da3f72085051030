package websearch

import (
	"bytes"
	"encoding/json"
	"maps"
	"net"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry"
)

// DefaultCredibilityScore is the credibility of a domain the map does not
// know.
const DefaultCredibilityScore = 0.5

// defaultDomains is the research data model's heuristic (bloomberg.com
// 0.95, wsj.com 0.95, reuters.com 0.93, wikipedia.org 0.85, forbes.com
// 0.80), extended the same way: official registers and government
// sites, wire services and newspapers of record high, encyclopedias and
// journals next, self-published platforms and social media low. A key
// is a domain and counts for its subdomains; a bare suffix ("gov")
// counts for every domain under it.
var defaultDomains = map[string]float64{
	// The data model's own examples.
	"bloomberg.com": 0.95, "wsj.com": 0.95, "reuters.com": 0.93, "wikipedia.org": 0.85, "forbes.com": 0.80,
	// Registers and governments.
	"sec.gov": 0.95, "gov": 0.90, "mil": 0.90, "gov.uk": 0.90, "europa.eu": 0.90, "int": 0.85,
	"companieshouse.gov.uk": 0.95, "edu": 0.85, "ac.uk": 0.85,
	// Wire services and newspapers of record.
	"apnews.com": 0.93, "ft.com": 0.93, "economist.com": 0.90, "nytimes.com": 0.90, "washingtonpost.com": 0.88,
	"bbc.co.uk": 0.90, "bbc.com": 0.90, "theguardian.com": 0.85, "cnbc.com": 0.85, "marketwatch.com": 0.82, "barrons.com": 0.88,
	// Journals and references.
	"nature.com": 0.92, "science.org": 0.92, "nih.gov": 0.93, "who.int": 0.90, "arxiv.org": 0.75, "britannica.com": 0.85,
	// Self-published and social.
	"medium.com": 0.40, "substack.com": 0.40, "blogspot.com": 0.35, "wordpress.com": 0.35, "tumblr.com": 0.30,
	"reddit.com": 0.30, "quora.com": 0.30, "x.com": 0.30, "twitter.com": 0.30, "facebook.com": 0.30, "tiktok.com": 0.25,
}

// Credibility scores sources by their domain, 0 to 1.
type Credibility struct {
	domains map[string]float64
	def     float64
}

// DefaultCredibility is the built-in domain map.
func DefaultCredibility() Credibility {
	return Credibility{domains: maps.Clone(defaultDomains), def: DefaultCredibilityScore}
}

// With returns c with over's scores added or replacing c's. A key is a
// domain ("example.com", which counts for its subdomains too), a suffix
// (".gov" or "gov") or "*" for the score of every other domain. Errors:
// INVALID for a score outside 0-1 or a key that is not a domain.
func (c Credibility) With(over map[string]float64) (Credibility, error) {
	out := Credibility{domains: maps.Clone(c.domains), def: c.def}
	if out.domains == nil {
		out.domains = map[string]float64{}
		if out.def == 0 {
			out.def = DefaultCredibilityScore
		}
	}
	keys := make([]string, 0, len(over))
	for k := range over {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := over[k]
		if v < 0 || v > 1 {
			return c, quarry.Errorf(quarry.ECodeInvalid, "credibility of %s is %g; it must be 0 to 1", k, v)
		}
		if k == "*" {
			out.def = v
			continue
		}
		d := strings.Trim(strings.ToLower(strings.TrimSpace(k)), ".")
		if d == "" || strings.ContainsAny(d, "/: \t") {
			return c, quarry.Errorf(quarry.ECodeInvalid, "%q is not a domain for the credibility map", k).
				WithHint(`keys are domains ("example.com"), suffixes (".gov") or "*"`)
		}
		out.domains[d] = v
	}
	return out, nil
}

// Score returns the credibility of host (or of a URL's host): the score
// of its most specific domain in the map, else the default.
func (c Credibility) Score(host string) float64 {
	d := Domain(host)
	for d != "" {
		if v, ok := c.domains[d]; ok {
			return v
		}
		_, rest, found := strings.Cut(d, ".")
		if !found {
			break
		}
		d = rest
	}
	if c.domains == nil && c.def == 0 {
		return DefaultCredibilityScore
	}
	return c.def
}

// Domain is a host or a URL's host, lower case, without port and "www.".
func Domain(hostOrURL string) string {
	h := strings.TrimSpace(hostOrURL)
	if strings.Contains(h, "://") {
		if u, err := url.Parse(h); err == nil {
			h = u.Host
		}
	}
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	return strings.TrimPrefix(h, "www.")
}

// ReadCredibility reads a domain map from a JSON file: an object of
// domain to score, e.g. {"example.com": 0.9, ".gov": 0.95, "*": 0.5}.
// Errors: INVALID for a file that cannot be read or is not such an
// object.
func ReadCredibility(path string) (map[string]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "credibility map: %w", err)
	}
	var m map[string]float64
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "credibility map %s: %w", path, err).
			WithHint(`write an object of domain to score, e.g. {"example.com": 0.9, ".gov": 0.95}`)
	}
	return m, nil
}

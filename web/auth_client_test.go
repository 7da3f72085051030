package web

import (
	"net/http/httptest"
	"testing"
)

// TestClientOf: a sign-in's client is the connection's address unless
// the server trusts a proxy's X-Forwarded-For, and then the address the
// proxy appended, not one the client wrote before it; an IPv6 client is
// its /64.
func TestClientOf(t *testing.T) {
	tests := []struct {
		remote    string
		forwarded []string
		trust     bool
		want      string
	}{
		{"192.0.2.7:5123", nil, false, "192.0.2.7"},
		{"192.0.2.7:5123", []string{"203.0.113.9"}, false, "192.0.2.7"},
		{"192.0.2.7:5123", []string{"203.0.113.9"}, true, "203.0.113.9"},
		{"192.0.2.7:5123", []string{"10.9.9.9, 203.0.113.9"}, true, "203.0.113.9"},
		{"192.0.2.7:5123", []string{"10.9.9.9", "203.0.113.9"}, true, "203.0.113.9"},
		{"192.0.2.7:5123", nil, true, "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:443", nil, false, "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:443", nil, false, "2001:db8:1:2::/64"},
		{"[::ffff:192.0.2.7]:80", nil, false, "192.0.2.7"},
		{"192.0.2.7:5123", []string{"not an address"}, true, "other:not an address"},
	}
	for _, tc := range tests {
		a := &PasswordAuth{trustProxies: tc.trust}
		r := httptest.NewRequest("POST", "/login", nil)
		r.RemoteAddr = tc.remote
		for _, v := range tc.forwarded {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := a.clientOf(r); got != tc.want {
			t.Errorf("clientOf(%s, X-Forwarded-For %q, trusted %v) = %q; want %q", tc.remote, tc.forwarded, tc.trust, got, tc.want)
		}
	}
}

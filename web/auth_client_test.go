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

// FuzzClientOf: whatever the connection's address and the header say, a
// client is named without a panic, in a bounded key, and an untrusted
// X-Forwarded-For changes nothing.
func FuzzClientOf(f *testing.F) {
	f.Add("192.0.2.7:5123", "203.0.113.9")
	f.Add("[2001:db8::1]:443", "10.0.0.1, 2001:db8:ffff::2")
	f.Add("[fe80::1%eth0]:80", "fe80::2%eth1")
	f.Add("@", ",,,")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, remote, forwarded string) {
		r := httptest.NewRequest("POST", "/login", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", forwarded)
		plain := httptest.NewRequest("POST", "/login", nil)
		plain.RemoteAddr = remote
		untrusted := (&PasswordAuth{}).clientOf(r)
		if want := (&PasswordAuth{}).clientOf(plain); untrusted != want {
			t.Errorf("untrusted X-Forwarded-For %q changed the client from %q to %q", forwarded, want, untrusted)
		}
		for _, c := range []string{untrusted, (&PasswordAuth{trustProxies: true}).clientOf(r)} {
			if len(c) > len("other:")+100 {
				t.Errorf("client key of %d bytes: %.60q", len(c), c)
			}
		}
	})
}

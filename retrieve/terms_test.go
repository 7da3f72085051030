package retrieve

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"app_version=5.2 explains 59% of it.", []string{"app_version", "5.2", "explains", "59", "of", "it"}},
		{"By customers.segment, hyp_003 (q<0.0001).", []string{"by", "customers.segment", "hyp_003", "q", "0.0001"}},
		{"device=ios AND country=DE", []string{"device", "ios", "and", "country", "de"}},
		{"ends with 5.2. Next", []string{"ends", "with", "5.2", "next"}},
		{"__init__ _ -- ...", []string{"init"}},
		{"Größe über", []string{"größe", "über"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Words(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Words(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"How did you calculate the contribution?", []string{"calculate", "contribution"}},
		{"Which hypotheses were ruled out and why?", []string{"hypotheses", "ruled"}},
		{"What about Germany?", []string{"germany"}},
		{"Why did app_version 5.2 drop? And 5.2 sales", []string{"app_version", "5.2", "drop", "sales"}},
		{"tell me about hyp_003", []string{"hyp_003"}},
		{"Is it in the US or in IT?", []string{"us", "it"}}, // capitals mean the country
		{"is it in us", nil},
		{"a b c 7", []string{"7"}},
		{`"NEAR(x y)" * - OR ( ) ;DROP TABLE chunks;--`, []string{"near", "drop", "table", "chunks"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Terms(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Terms(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"germany"}, []string{"germany", "de"}},
		{[]string{"sales", "france", "spain"}, []string{"sales", "france", "spain", "fr", "es"}},
		{[]string{"united", "states"}, []string{"united", "states", "us"}},
		{[]string{"united", "kingdom"}, []string{"united", "kingdom", "gb", "uk"}},
		{[]string{"uk"}, []string{"uk", "gb"}},
		{[]string{"usa", "japan"}, []string{"usa", "japan", "us", "jp"}},
		{[]string{"german", "users"}, []string{"german", "users", "de"}},
		// codes never expand back to names
		{[]string{"de", "it"}, []string{"de", "it"}},
		{[]string{"contribution"}, []string{"contribution", "share", "accounts"}},
		{[]string{"contributions"}, []string{"contributions", "contribution", "share", "accounts"}},
		{[]string{"ruled"}, []string{"ruled", "ruled_out", "rejected"}},
		{[]string{"fell"}, []string{"fell", "drop", "fall", "decline", "decrease"}},
		{[]string{"grew"}, []string{"grew", "rise", "increase", "grow"}},
		{[]string{"calculate", "share"}, []string{"calculate", "share", "compute", "contribution", "accounts"}},
		{[]string{"weather", "paris"}, []string{"weather", "paris"}},
		{nil, []string{}},
	}
	for _, tt := range tests {
		if got := Expand(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Expand(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

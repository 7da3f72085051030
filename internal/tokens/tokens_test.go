package tokens

import (
	"errors"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestMain takes the network away before the encoder is built, so that
// every test fails if building it downloads anything.
func TestMain(m *testing.M) {
	http.DefaultTransport = offline{}
	os.Exit(m.Run())
}

type offline struct{}

func (offline) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("tokens must not use the network")
}

// The expected counts are OpenAI's (the cookbook's "How to count tokens
// with tiktoken" lists the first five), and all of them agree with an
// independent reference: the official cl100k_base pattern run by Python's
// regex module plus lowest-rank-first byte-pair merging over the same ranks.
func TestCount(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"tiktoken is great!", 6},
		{"antidisestablishmentarianism", 6},
		{"2 + 2 = 4", 7},
		{"お誕生日おめでとう", 9},
		{"Purchases of property, plant and equipment     (1,577)    (1,373)", 20},
		{"<|endoftext|>", 7},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d; want %d", tt.text, got, tt.want)
		}
	}
}

func TestCountConcurrent(t *testing.T) {
	const text = "Free cash flow conversion was 91 percent in 2018."
	want := Count(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := Count(text); got != want {
					t.Errorf("Count(%q) = %d concurrently; want %d", text, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestTruncate(t *testing.T) {
	texts := []string{
		"hello world",
		paragraph,
		strings.Repeat("中文字符和表情😀", 40),
		"Net sales  $ 32,765  $ 31,657  $ 30,109\n" + strings.Repeat("(1,577) ", 50),
		"a\xffb\xfe" + strings.Repeat("é", 30),
	}
	for _, text := range texts {
		n := Count(text)
		for _, max := range []int{0, 1, 2, 3, 7, n / 2, n - 1, n, n + 5} {
			got := Truncate(text, max)
			if c := Count(got); c > max && max >= 0 {
				t.Errorf("Count(Truncate(%.20q, %d)) = %d; want <= %d", text, max, c, max)
			}
			if max >= n {
				if got != text {
					t.Errorf("Truncate(%.20q, %d) = %q; want the text, which fits", text, max, got)
				}
				continue
			}
			if !utf8.ValidString(got) {
				t.Errorf("Truncate(%.20q, %d) = %q; not valid UTF-8", text, max, got)
			}
			if read := string([]rune(text)); !strings.HasPrefix(read, got) {
				t.Errorf("Truncate(%.20q, %d) = %q; not a prefix", text, max, got)
			}
			if max > 2 && Count(got) < max-2 {
				t.Errorf("Count(Truncate(%.20q, %d)) = %d; cut far too short", text, max, Count(got))
			}
		}
	}
}

// paragraph is about 3000 characters of filing prose.
var paragraph = strings.Repeat("Free cash flow and free cash flow conversion are not defined under U.S. "+
	"generally accepted accounting principles (GAAP). Therefore, they should not be considered a "+
	"substitute for income or cash flow data prepared in accordance with U.S. GAAP and may not be "+
	"comparable to similarly titled measures used by other companies. In 2018, free cash flow "+
	"conversion was impacted by the $176 million measurement period adjustment. ", 8)[:3000]

func BenchmarkCount(b *testing.B) {
	Count("warm up")
	b.SetBytes(int64(len(paragraph)))
	for b.Loop() {
		Count(paragraph)
	}
}

// TestAdditive: wherever Additive says so, counting the two parts apart
// gives the count of the whole, over every line break of a page of
// prose, tables, punctuation and indented lines.
func TestAdditive(t *testing.T) {
	text := "Notes to the Financial Statements.\n(Millions)   2018   2017\nRevenue  $ 1,234  $ 1,100\n" +
		"  indented line\n\nA heading:\n- item one's\n\"Quoted\" text!\n12345 numbers\nÉtude naïve\n<|endoftext|>\nend"
	checked := 0
	for i := 0; i < len(text); i++ {
		a, b := text[:i], text[i:]
		if !Additive(a, b) {
			continue
		}
		checked++
		if got, want := Count(a)+Count(b), Count(a+b); got != want {
			t.Errorf("split after %q: %d + %d tokens, the whole has %d", a[max(0, len(a)-20):], Count(a), Count(b), want)
		}
	}
	if checked < 8 {
		t.Fatalf("only %d splits checked", checked)
	}
	for _, c := range [][2]string{{"a\n", " b"}, {"a", "b"}, {"a\n", "\nb"}, {"a\n", ""}} {
		if Additive(c[0], c[1]) {
			t.Errorf("Additive(%q, %q) = true", c[0], c[1])
		}
	}
}

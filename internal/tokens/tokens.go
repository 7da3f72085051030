// Package tokens counts text the way OpenAI's cl100k_base encoding does
// (text-embedding-ada-002, gpt-3.5, gpt-4), for chunk sizes and budgets.
//
// The encoding's ranks are compiled into the binary
// (github.com/pkoukk/tiktoken-go-loader embeds them, ~7 MB with the other
// encodings): nothing is downloaded, at build time or at run time. The
// encoder is built on first use (about 0.1 s and 11 MB of heap on a
// 2-core machine) and shared; every function is safe for concurrent use.
// Counting runs at about 5 MB/s of English text.
package tokens

import (
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding is the name of the encoding Count uses.
const Encoding = "cl100k_base"

// encoder builds the cl100k_base encoder once. tiktoken's default loader
// fetches the ranks over HTTP; the offline loader reads the copy embedded in
// tiktoken-go-loader instead. An error here means the embedded ranks are
// broken, a build problem no caller can handle, so it panics.
var encoder = sync.OnceValue(func() *tiktoken.Tiktoken {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(Encoding)
	if err != nil {
		panic("tokens: load " + Encoding + ": " + err.Error())
	}
	return enc
})

// Count returns the number of cl100k_base tokens in text. Special-token
// spellings such as "<|endoftext|>" are counted as the ordinary text they
// are, like tiktoken's encode_ordinary, so text from outside cannot change
// the count by containing them. Invalid UTF-8 is counted as U+FFFD.
func Count(text string) int {
	if text == "" {
		return 0
	}
	return len(encoder().EncodeOrdinary(text))
}

// Truncate returns the longest prefix of text that ends on a token boundary
// and a character boundary and counts at most max tokens. It returns text
// itself when it already fits, and "" when max <= 0. Invalid UTF-8 is
// replaced by U+FFFD, byte by byte, before cutting.
func Truncate(text string, max int) string {
	if max <= 0 {
		return ""
	}
	enc := encoder()
	toks := enc.EncodeOrdinary(text)
	if len(toks) <= max {
		return text
	}
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // as the encoder read it
	}
	// Tokens are bytes of text in order, so the decoded first tokens are a
	// byte prefix of text; a token can end inside a multi-byte character,
	// and re-encoding a cut piece can take more tokens than it did inside
	// the longer text, so the prefix is checked and shortened until it fits.
	for n := max; n > 0; n-- {
		cut := min(len(enc.Decode(toks[:n])), len(text))
		for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut--
		}
		prefix := text[:cut]
		if Count(prefix) <= max {
			return prefix
		}
	}
	return ""
}

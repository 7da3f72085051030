package chat

// containsWord reports whether words holds term or another form of it.
func containsWord(words []string, term string) bool {
	for _, w := range words {
		if sameWord(w, term) {
			return true
		}
	}
	return false
}

// suffixes are the word endings sameWord ignores.
var suffixes = map[string]bool{
	"": true, "s": true, "es": true, "e": true, "ed": true, "d": true,
	"ing": true, "ion": true, "ions": true, "ation": true, "ations": true,
	"er": true, "ers": true, "ly": true, "al": true, "is": true,
	"y": true, "ies": true, "ied": true,
}

// sameWord reports whether a and b are the same word or two forms of one:
// a shared stem of at least three letters followed by common endings
// ("contribution" and "contributions", "calculate" and "calculated",
// "hypothesis" and "hypotheses", "germany" and "german"). Short words
// ("de", "us") only match themselves, so a country code never matches
// inside "device".
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for stem := n; stem >= 3; stem-- {
		if suffixes[a[stem:]] && suffixes[b[stem:]] {
			return true
		}
	}
	return false
}

package postgres

import (
	"strings"

	"github.com/quarry-dev/quarry"
)

// sessionCommands start statements that control the transaction or the
// session, or reach outside the database (COPY to a server file), which
// the read-only transaction alone would not stop: refused before they are
// sent. Writes (INSERT, CREATE, DROP, ...) are left to the transaction.
var sessionCommands = map[string]bool{
	"abort": true, "analyze": true, "begin": true, "call": true, "checkpoint": true, "close": true,
	"cluster": true, "commit": true, "copy": true, "deallocate": true, "declare": true, "discard": true,
	"do": true, "end": true, "execute": true, "fetch": true, "listen": true, "load": true, "lock": true,
	"move": true, "notify": true, "prepare": true, "reindex": true, "release": true, "reset": true,
	"rollback": true, "savepoint": true, "set": true, "start": true, "unlisten": true, "vacuum": true,
}

// checkStatement refuses (FORBIDDEN) more than one statement, and
// statements that control the transaction or the session; an empty query
// is INVALID.
func checkStatement(q string) error {
	n, first := scan(q)
	if n == 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "the query is empty")
	}
	if n > 1 {
		return quarry.Errorf(quarry.ECodeForbidden, "only one statement per query is allowed")
	}
	if sessionCommands[first] {
		return quarry.Errorf(quarry.ECodeForbidden, "%s statements are not allowed; only queries that read", strings.ToUpper(first))
	}
	return nil
}

// scan counts the statements of q, separated by semicolons outside
// quotes, dollar quotes and comments (empty ones not counted), and
// returns the first keyword of the first, in lower case.
func scan(q string) (statements int, first string) {
	inStatement := false
	word := func(i int) int { // the end of the word at i
		j := i
		for j < len(q) && identChar(q[j]) {
			j++
		}
		return j
	}
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			depth := 0
			for i < len(q) {
				if q[i] == '/' && i+1 < len(q) && q[i+1] == '*' {
					depth++
					i += 2
					continue
				}
				if q[i] == '*' && i+1 < len(q) && q[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
					continue
				}
				i++
			}
			continue
		case c == ';':
			inStatement = false
			i++
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		}
		if !inStatement {
			inStatement = true
			statements++
			if statements == 1 && identStart(c) {
				first = strings.ToLower(q[i:word(i)])
			}
		}
		switch {
		case c == '\'':
			// E'...' strings take backslash escapes.
			escapes := i > 0 && (q[i-1] == 'e' || q[i-1] == 'E') && (i < 2 || !identChar(q[i-2]))
			i = closeQuote(q, i+1, '\'', escapes)
		case c == '"':
			i = closeQuote(q, i+1, '"', false)
		case c == '$' && (i == 0 || !identChar(q[i-1])):
			// $tag$ ... $tag$; $1 is a parameter.
			j := i + 1
			for j < len(q) && identChar(q[j]) && q[j] != '$' {
				j++
			}
			if j < len(q) && q[j] == '$' && (j == i+1 || !isDigit(q[i+1])) {
				tag := q[i : j+1]
				if k := strings.Index(q[j+1:], tag); k >= 0 {
					i = j + 1 + k + len(tag)
				} else {
					i = len(q)
				}
			} else {
				i++
			}
		case identStart(c):
			i = word(i)
		default:
			i++
		}
	}
	return statements, first
}

// closeQuote returns the index after the quote that closes the quoted text
// starting at i; a doubled quote is one quote character.
func closeQuote(q string, i int, quote byte, escapes bool) int {
	for i < len(q) {
		switch {
		case escapes && q[i] == '\\':
			i += 2
		case q[i] == quote && i+1 < len(q) && q[i+1] == quote:
			i += 2
		case q[i] == quote:
			return i + 1
		default:
			i++
		}
	}
	return len(q)
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identChar(c byte) bool { return identStart(c) || isDigit(c) || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

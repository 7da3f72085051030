package intent

import (
	"fmt"
	"strings"
)

// Requests come in the words of an email or a chat: "Hi Sam - could you
// pull the average csat by channel for the board deck? Thanks". The
// greeting, the thanks, the verb of asking and what the answer is for say
// nothing about the data.

// greetingWords open or close a message.
var greetingWords = setOf("hi", "hello", "hey", "hiya", "thx", "cheers", "tia", "pls", "plz", "asap", "fyi",
	"qq", "appreciated", "appreciate")

// dayParts greet only opening the message or after "good": "morning all",
// not "sales in the morning".
var dayParts = setOf("morning", "afternoon", "evening")

// addressees follow a greeting: "hi team", "hey all".
var addressees = setOf("team", "all", "folks", "everyone", "everybody", "guys", "there", "both")

// askVerbs ask for the answer after "can you", "could you": "could you
// pull", "can you grab".
var askVerbs = setOf("pull", "grab", "fetch", "send", "share", "dig", "whip", "put", "get", "run", "do", "shoot")

// purposeNouns are what an answer is for: "for the board deck", "for my
// slides", "for tomorrow's standup".
var purposeNouns = setOf("deck", "decks", "slides", "slide", "meeting", "memo", "presentation", "update", "newsletter",
	"standup", "stand-up", "offsite", "qbr", "exec", "execs", "boss", "ceo", "cfo", "leadership", "board", "email",
	"writeup", "write-up", "doc", "one-pager", "pack", "briefing", "review", "call", "sync", "retro")

// purposeLeads may stand between "for" and a purpose noun.
var purposeLeads = setOf("the", "my", "our", "a", "next", "this", "tomorrow's", "today's", "monday's", "friday's",
	"weekly", "monthly", "quarterly", "exec", "board", "team", "leadership", "investor", "investors")

// asides are phrases of a message that ask nothing of the data.
var asides = []string{"quick one", "quick question", "real quick", "when you get a chance", "when you have a chance",
	"if you can", "if possible", "no rush", "when you can", "one more", "thank you", "many thanks", "good morning",
	"good afternoon", "good evening", "hope you are well", "hope you're well", "can you", "could you", "would you",
	"if you could", "do you mind", "mind pulling", "i was wondering", "wondering"}

// wholeRecord are phrases that say all the rows, which a request reads
// by default: "the highest ever, over the whole record".
var wholeRecord = func() []string {
	var out []string
	for _, lead := range []string{"over the whole", "over the entire", "over the full", "across the whole", "across the entire",
		"for the whole", "for the entire", "in the whole", "in the entire"} {
		for _, what := range []string{"record", "period", "dataset", "data set", "data", "time span", "history", "series", "table", "sample"} {
			out = append(out, lead+" "+what)
		}
	}
	return append(out, "of all time")
}()

// pleasantries marks the words of greeting, thanks, asking and purpose
// used, each only where it names no column, value or table of the data.
func (p *parser) pleasantries() error {
	if p.t == nil {
		return nil
	}
	data := func(i int) bool {
		return p.toks[i].kind != kWord || p.namesData(p.low(i)) || isNumber(p.low(i)) || p.inValue(p.low(i))
	}
	mark := func(i, j int) {
		for k := i; k < j; k++ {
			if data(k) {
				return
			}
		}
		p.use(i, j)
		p.understood(i, fmt.Sprintf("%s -> not about the data", p.src(i, j)), "")
	}
	for i := 0; i < len(p.toks); i++ {
		if !p.free(i) {
			continue
		}
		w := p.low(i)
		// "over the whole record", not "for the whole history class": its
		// last word no value, and no noun after it that it qualifies
		if _, n := p.anyPhrase(i, wholeRecord); n > 0 && !p.namesData(p.low(i+n-1)) && !p.inValue(p.low(i+n-1)) &&
			!(p.free(i+n) && p.toks[i+n].kind == kWord && !stopwords[p.low(i+n)]) {
			p.use(i, i+n)
			p.understood(i, fmt.Sprintf("%s -> every row the rest keeps", p.src(i, i+n)), "")
			i += n - 1
			continue
		}
		if ph, n := p.anyPhrase(i, asides); n > 0 {
			end := i + n
			if ph == "can you" || ph == "could you" || ph == "would you" || ph == "if you could" {
				if !askVerbs[p.low(end)] {
					continue
				}
				end++ // "could you pull"
				if p.low(end) == "up" || p.low(end) == "together" {
					end++
				}
			}
			mark(i, end)
			i = end - 1
			continue
		}
		switch {
		case askVerbs[w] && p.firstFree(i) && (p.low(i+1) == "me" || p.low(i+1) == "us"):
			// "send me the avg precip by city": the asking, not the data
			mark(i, i+2)
			i++
		case greetingWords[w] || dayParts[w] && i == 0:
			end := i + 1
			if addressees[p.low(end)] {
				end++ // "hi team"
			} else if end < len(p.toks) && p.toks[end].kind == kWord && p.toks[end].raw != p.low(end) &&
				(p.low(end+1) == "," || p.low(end+1) == "-" || p.low(end+1) == "!") && (w == "hi" || w == "hello" || w == "hey") {
				end++ // "Hi Sam,": a name
			}
			mark(i, end)
			i = end - 1
		case w == "for":
			k := i + 1
			for k < len(p.toks) && purposeLeads[p.low(k)] && !purposeNouns[p.low(k)] {
				k++
			}
			end := k
			for end < len(p.toks) && purposeNouns[p.low(end)] {
				end++
			}
			if end > k && k > i+1 || end > k+1 {
				mark(i, end) // "for the board deck"
			}
		}
	}
	return nil
}

// inValue reports whether w is a word of a value of the chosen table, or
// the beginning of one ("board" of "Board Relations", "exec" of
// "Executive").
func (p *parser) inValue(w string) bool {
	for ci := range p.t.Columns {
		for _, v := range p.t.Columns[ci].Values {
			for _, vw := range valueWords(v) {
				if vw == w || len(w) >= 3 && strings.HasPrefix(vw, w) {
					return true
				}
			}
		}
	}
	return false
}

// firstFree reports whether no word before i is left to read: i opens
// the request, after any greeting.
func (p *parser) firstFree(i int) bool {
	for k := 0; k < i; k++ {
		if p.free(k) && p.toks[k].kind == kWord {
			return false
		}
	}
	return true
}

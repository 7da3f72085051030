package research

import (
	"slices"
	"strings"
)

// Happenings: a storm, a fire, a crash or an outbreak is dated by the
// noun that names it, whatever verb the sentence gives it ("The
// hailstorm struck on the evening of 14 March", "A fire on 8 March
// destroyed the hall", "the fire at Fenwick Street depot on 8 March",
// "the night of March 9, when fire swept through the depot"), so that
// every source's day of it meets under one head.

// happeningHeads name what happened by one noun for its many words:
// a hailstorm is the storm, a blaze the fire.
var happeningHeads = map[string]string{
	"storm": "storm", "hailstorm": "storm", "thunderstorm": "storm", "rainstorm": "storm", "windstorm": "storm", "snowstorm": "storm",
	"hail": "storm", "tornado": "storm", "cyclone": "storm", "hurricane": "storm", "typhoon": "storm", "gale": "storm",
	"fire": "fire", "blaze": "fire", "wildfire": "fire", "bushfire": "fire", "inferno": "fire",
	"flood": "flood", "flooding": "flood", "floods": "flood",
	"earthquake": "earthquake", "quake": "earthquake", "tremor": "earthquake",
	"explosion": "explosion", "blast": "explosion",
	"crash": "crash", "collision": "crash",
	"collapse": "collapse", "landslide": "landslide", "avalanche": "avalanche", "eruption": "eruption",
	"outbreak": "outbreak", "spill": "spill", "leak": "leak", "breach": "breach", "derailment": "derailment",
	"accident": "accident", "outage": "outage", "blackout": "outage", "cyberattack": "attack", "attack": "attack",
}

// happeningVerbs say that what their subject names happened: "the storm
// struck", "fire swept through", "the blaze broke out".
var happeningVerbs = set("struck", "strikes", "hit", "hits", "swept", "sweeps", "tore", "ripped", "raged", "erupted", "occurred", "happened",
	"broke", "started", "began", "hammered", "battered", "lashed", "engulfed", "gutted", "destroyed", "damaged", "caused", "killed",
	"forced", "left", "dumped", "brought", "came", "took", "spread")

// happening is the noun's head when the token names a thing that
// happens by itself, "" otherwise.
func (r *reader) happening(k int) string {
	if t := r.toks[k]; !t.capital() || k == 0 {
		return happeningHeads[t.lower]
	}
	return ""
}

// happeningAt reads the happening a date at token i (its first token,
// past its weekday) dates: the noun right before its "on" ("A fire on
// 8 March"), past a place ("the fire at Fenwick Street depot on"), the
// subject of a verb of happening before it ("The hailstorm struck on
// the evening of"), or the noun of a "when" clause after it ("the
// night of March 9, when fire swept through").
func (r *reader) happeningAt(i, after int) (string, bool) {
	j := i - 1
	// "on the evening of 14 March", "on the night of Saturday, March 9".
	if j >= 3 && r.toks[j].lower == "of" && momentWords[r.toks[j-1].lower] && r.toks[j-2].lower == "the" {
		j -= 3
	}
	// "The state's most recent inspection, on 2025-06-12, rated": the
	// noun the day is set after.
	if j >= 2 && r.toks[j].lower == "on" && r.toks[j-1].text == "," {
		// Past what it was of: "inspection of Harrow Reservoir Dam, on".
		k := j - 2
		for o := k; o > 1 && o >= j-7 && (r.toks[o].capital() || determiners[r.toks[o].lower]); o-- {
			if r.toks[o-1].lower == "of" {
				k = o - 2
				break
			}
		}
		if eventNounWords[singular(r.toks[k].lower)] && !r.toks[k].capital() {
			return eventHead(singular(r.toks[k].lower)), true
		}
	}
	if j >= 1 && (r.toks[j].lower == "on" || r.toks[j].lower == "of") {
		// "A fire on 8 March", "the storm of 14 March".
		if h := r.happening(j - 1); h != "" {
			return h, true
		}
		// Past a place: "the fire at Fenwick Street depot on".
		for k := j - 1; k > 0 && k >= j-6; k-- {
			w := r.toks[k].lower
			if clauseEnds[w] || w == "and" || pastForm(r.toks[k]) || verbLike(r.toks[k]) || particles[w] {
				break
			}
			if (w == "at" || w == "in" || w == "near") && k > 0 {
				if h := r.happening(k - 1); h != "" {
					return h, true
				}
				break
			}
		}
		// "The hailstorm struck on", "fire broke out on".
		for k := j - 1; k > 0 && k >= j-7; k-- {
			w := r.toks[k].lower
			if clauseEnds[w] || w == "and" {
				break
			}
			if !happeningVerbs[w] {
				continue
			}
			for o := k - 1; o >= 0 && o >= k-3; o-- {
				if h := r.happening(o); h != "" {
					return h, true
				}
				if clauseEnds[r.toks[o].lower] {
					break
				}
			}
			break
		}
	}
	// "March 9, when fire swept through the depot".
	k := after
	if k < len(r.toks) && r.toks[k].text == "," {
		k++
	}
	if k < len(r.toks) && r.toks[k].lower == "when" {
		for o := k + 1; o < len(r.toks) && o <= k+3; o++ {
			if h := r.happening(o); h != "" && o+1 < len(r.toks) && (happeningVerbs[r.toks[o+1].lower] || pastForm(r.toks[o+1])) {
				return h, true
			}
		}
	}
	return "", false
}

// eventHead is the one head an event is named by, whether a verb, a
// noun or a label names it: "inspected", "inspection" and "Date of
// inspection" are "inspect"; "opened" and "opening" are "opening"; a
// hailstorm is the storm.
func eventHead(w string) string {
	switch {
	case happeningHeads[w] != "":
		return happeningHeads[w]
	case eventNouns[w] != "":
		return eventNouns[w]
	case eventHeads[w]:
		return w
	}
	return eventStem(w)
}

// conducting are the passive verbs that only say an event took place:
// "the inspection was conducted on", "the survey was carried out on".
var conducting = set("conducted", "performed", "undertaken", "carried", "done", "made", "staged")

// conductedAt reads the event a conducting verb before the date at
// token i says took place: the event noun of its subject ("A periodic
// safety inspection of the dam was conducted on"), with its qualifiers.
func (r *reader) conductedAt(i int) (string, []string, bool) {
	j := i - 1
	if j < 2 || !prepositions[r.toks[j].lower] {
		return "", nil, false
	}
	v := j - 1
	if r.toks[v].lower == "out" {
		v--
	}
	if v < 1 || !conducting[r.toks[v].lower] || !auxiliaries[r.toks[v-1].lower] && !strings.HasSuffix(r.toks[v-1].lower, "ly") {
		return "", nil, false
	}
	for k := v - 2; k >= 0 && k >= v-10; k-- {
		w := r.toks[k].lower
		if clauseEnds[w] || w == "and" {
			break
		}
		if eventNounWords[singular(w)] && !r.toks[k].capital() {
			var mods []string
			for m := k - 1; m >= 0 && m >= k-3 && !determiners[r.toks[m].lower] && !prepositions[r.toks[m].lower] && !clauseEnds[r.toks[m].lower]; m-- {
				mods = r.keep(mods, r.toks[m])
			}
			slices.Reverse(mods)
			if mods == nil {
				mods = []string{}
			}
			return eventHead(singular(w)), mods, true
		}
	}
	return "", nil, false
}

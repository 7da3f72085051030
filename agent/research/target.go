package research

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry/retrieve"
)

// Target is what a sub-question looks for in a sentence: an attribute,
// the words that name it, and the kind of value that answers it.
type Target struct {
	Attribute string
	Keywords  []string
	Kind      Kind
	// Vocab, for KindTerm, is the closed list of answers ("basketball",
	// "jazz"); empty means the noun phrase a definition gives.
	Vocab []string
	// Broad is set for a question that names no attribute but asks about
	// aspects of a briefing ("What changed in X's finances and legal
	// exposure?"): its facts come from the aspects' sub-questions.
	Broad bool
	// Acronym, for a question about what an acronym means, is it.
	Acronym string
	// Strict targets take only sentences that name the attribute: an
	// aspect has several, and a sentence must say which it is about.
	Strict bool
}

// Closed vocabularies of attributes whose answers are common words.
var (
	sports = []string{"american football", "association football", "australian rules football", "gaelic football", "rugby league", "rugby union",
		"ice hockey", "field hockey", "football", "soccer", "basketball", "baseball", "cricket", "tennis", "golf", "boxing", "wrestling",
		"snooker", "darts", "cycling", "rowing", "swimming", "athletics", "hurling", "volleyball", "handball", "badminton", "table tennis",
		"motorsport", "racing", "skiing", "figure skating", "speed skating", "rugby", "hockey", "lacrosse", "fencing", "judo", "karate",
		"sailing", "polo", "bobsleigh", "biathlon", "curling", "squash", "softball", "mixed martial arts", "gymnastics", "equestrian", "archery", "canoeing", "triathlon", "chess", "bowling", "netball"}
	professions = []string{"actor", "actress", "singer", "songwriter", "musician", "composer", "politician", "lawyer", "judge", "writer", "author",
		"novelist", "poet", "journalist", "painter", "sculptor", "architect", "engineer", "physician", "surgeon", "scientist", "physicist",
		"chemist", "biologist", "mathematician", "economist", "historian", "philosopher", "teacher", "professor", "businessman",
		"businesswoman", "entrepreneur", "footballer", "cricketer", "soldier", "officer", "general", "priest", "bishop", "film director",
		"director", "producer", "screenwriter", "photographer", "diplomat", "civil servant", "farmer", "pilot", "astronaut", "dancer",
		"comedian", "television presenter", "broadcaster", "rapper", "guitarist", "drummer", "pianist", "conductor", "model", "activist",
		"banker", "accountant", "academic", "designer", "illustrator", "cartoonist", "editor", "publisher", "inventor", "explorer", "nurse"}
	genres = []string{"hip hop", "hip-hop", "rock", "pop", "jazz", "blues", "country", "folk", "punk", "heavy metal", "metal", "electronic",
		"r&b", "soul", "funk", "reggae", "classical", "gospel", "disco", "house", "techno", "indie", "alternative rock", "hard rock",
		"comedy", "drama", "horror", "thriller", "science fiction", "fantasy", "documentary", "romance", "action", "crime", "western",
		"musical", "animation", "mystery", "war", "adventure", "biographical", "satire", "romantic comedy", "comedy-drama", "sitcom", "soap opera"}
	media = []string{"oil on canvas", "oil painting", "watercolor", "watercolour", "fresco", "bronze", "marble", "sculpture", "photograph",
		"film", "television series", "television", "novel", "short story", "poem", "video game", "board game", "comic", "manga", "anime",
		"radio", "album", "single", "play", "opera", "book", "painting", "mural", "drawing", "print", "tempera", "pastel", "collage"}
	parties = []string{"Republican", "Democratic", "Democrat", "Labour", "Conservative", "Liberal Democrats", "Liberal", "Green",
		"Socialist", "Communist", "Christian Democratic", "Social Democratic", "Fianna Fáil", "Fine Gael", "Sinn Féin", "Whig", "Federalist",
		"Progressive", "Independent", "Nationalist", "Unionist", "Libertarian", "Reform", "Bharatiya Janata", "Indian National Congress", "Congress"}
)

// attributeRules map words of a question (or an aspect) to a target;
// the first rule whose word the question holds wins.
var attributeRules = []struct {
	words []string
	kind  Kind
	vocab []string
}{
	{[]string{"born", "birth"}, KindDate, nil},
	{[]string{"die", "died", "death"}, KindDate, nil},
	{[]string{"founded", "established", "built", "opened", "launched", "released", "formed", "created", "constructed", "completed", "incorporated", "started", "come", "came", "year", "date"}, KindDate, nil},
	{[]string{"revenue", "revenues", "sales", "income", "profit", "loss", "cost", "costs", "price", "settlement", "fine", "penalty", "damages", "budget", "funding", "debt", "cash"}, KindMoney, nil},
	{[]string{"population", "headcount", "employees", "staff", "workforce", "age", "length", "height", "area", "capacity", "many", "number", "margin", "share", "rate", "growth"}, KindNumber, nil},
	{[]string{"sport", "sports"}, KindTerm, sports},
	{[]string{"profession", "occupation", "job", "known"}, KindTerm, professions},
	{[]string{"genre"}, KindTerm, genres},
	{[]string{"medium"}, KindTerm, media},
	{[]string{"party"}, KindTerm, parties},
	{[]string{"language"}, KindTerm, nil},
	{[]string{"artist", "director", "directed", "directors", "architect", "creator", "author", "written", "wrote", "father", "mother", "husband", "wife", "founder", "composer", "producer", "ceo", "chief", "officer", "chairman", "president", "leader", "won", "who"}, KindPerson, nil},
	{[]string{"where", "located", "location", "city", "country", "published", "based", "headquarters", "headquartered", "place", "state"}, KindPlace, nil},
}

// events are the words that date when something came to be.
var events = []string{"founded", "established", "opened", "formed", "created", "incorporated", "started", "began", "inaugurated", "built",
	"constructed", "completed", "erected", "launched", "released", "dedicated", "chartered", "organized", "organised", "since"}

// synonyms are the words a source uses for an attribute a question
// names.
var synonyms = map[string][]string{
	"born": {"born", "birth"}, "birth": {"born", "birth"},
	"die": {"died", "death"}, "died": {"died", "death"}, "death": {"died", "death"},
	"founded": events, "established": events, "opened": events, "formed": events, "created": events, "incorporated": events,
	"started": events, "built": events, "constructed": events, "completed": events, "launched": events, "released": events,
	"come": {"released", "launched", "published", "appeared"}, "came": {"released", "launched", "published", "appeared"},
	"population": {"population", "inhabitants", "residents", "people", "census"},
	"employees":  {"employees", "employed", "staff", "workforce", "workers"}, "headcount": {"employees", "employed", "staff", "workforce"},
	"sport": {"player", "played", "plays", "athlete"}, "sports": {"player", "played", "plays", "athlete"},
	"artist": {"by", "recorded", "band", "singer"}, "director": {"directed", "by"}, "directed": {"directed", "by"}, "directors": {"directed", "by"},
	"author": {"written", "wrote", "by"}, "architect": {"designed", "architect", "by"}, "creator": {"created", "creator", "by"},
	"located": {"located", "situated", "lies", "in"}, "location": {"located", "situated", "lies", "in"}, "where": {"located", "situated", "in", "at"},
	"published": {"published", "newspaper", "based", "in"}, "based": {"based", "headquartered", "in"},
	"language": {"language"}, "genre": {"genre", "film", "album", "series"},
}

// genericWords are question words that name no attribute of their own.
var genericWords = map[string]bool{"associated": true, "type": true, "kind": true, "name": true, "refer": true, "term": true, "primarily": true,
	"primary": true, "serve": true, "involved": true, "current": true, "play": true, "estimated": true, "total": true, "film": true, "album": true, "song": true,
	"many": true, "much": true, "end": true, "start": true, "beginning": true, "last": true, "first": true, "year": true, "did": true, "have": true}

// TargetOf returns the target of a question after its subject's words
// are set aside.
func TargetOf(question string, subject string) Target {
	subj := map[string]bool{}
	for _, w := range words(subject) {
		subj[w] = true
	}
	var kw []string
	for _, t := range retrieve.Terms(question) {
		// A year is the period asked about, not a word of the attribute.
		if !subj[t] && !genericWords[t] && !unicode.IsDigit(rune(t[0])) {
			kw = append(kw, t)
		}
	}
	all := words(question)
	lower := strings.ToLower(question)
	// A question that lists what it asks about, asks what happened, or
	// asks two questions ("how many stops does it have and when did it
	// open?") is a briefing: every claim answers it.
	if briefingRE.MatchString(lower) || strings.Contains(lower, ", ") && strings.Contains(lower, " and ") || twoQuestions(lower) {
		return Target{Attribute: "overview", Keywords: kw, Kind: KindTerm, Broad: true}
	}
	for _, r := range attributeRules {
		for _, w := range r.words {
			if slices.Contains(all, w) && !subj[w] {
				// An amount must be named in its sentence: "$3.2 million"
				// beside the company's name is not its revenue unless the
				// sentence says so.
				t := Target{Attribute: w, Keywords: append(kw, synonyms[w]...), Kind: r.kind, Vocab: r.vocab, Strict: r.kind == KindMoney}
				if w == "who" && len(kw) > 0 {
					t.Attribute = kw[0]
				}
				return t
			}
		}
	}
	for _, a := range aspects {
		if strings.Contains(lower, aspectStem(a.Section)) {
			return Target{Attribute: "overview", Keywords: kw, Kind: KindTerm, Broad: true}
		}
	}
	if !whRE.MatchString(question) && !acronymRE.MatchString(subject) {
		return Target{Attribute: "overview", Keywords: kw, Kind: KindTerm, Broad: true}
	}
	attr := "definition"
	if len(kw) > 0 {
		attr = kw[0]
	}
	if acronymRE.MatchString(subject) {
		return Target{Attribute: "meaning", Keywords: kw, Kind: KindTerm, Acronym: subject}
	}
	switch {
	case strings.HasPrefix(lower, "when"):
		return Target{Attribute: attr, Keywords: kw, Kind: KindDate}
	case strings.HasPrefix(lower, "where"):
		return Target{Attribute: attr, Keywords: kw, Kind: KindPlace}
	case strings.HasPrefix(lower, "who"):
		return Target{Attribute: attr, Keywords: kw, Kind: KindPerson}
	case strings.HasPrefix(lower, "how many") || strings.HasPrefix(lower, "how much"):
		return Target{Attribute: attr, Keywords: kw, Kind: KindNumber}
	}
	return Target{Attribute: attr, Keywords: kw, Kind: KindTerm}
}

var acronymRE = regexp.MustCompile(`^[A-Z]{2,6}$`)

// twoQuestions reports a question that asks two things joined by "and",
// each with its own words ("how many stops does it have and when did it
// open"), not one thing two ways ("when and where was he born").
func twoQuestions(lower string) bool {
	m := whRE.FindAllStringIndex(lower, 3)
	return len(m) >= 2 && strings.Contains(lower[m[0][1]:m[1][0]], " and ") && len(strings.Fields(lower[m[0][1]:m[1][0]])) >= 3
}

// briefingRE starts a question that asks for a briefing, not one value.
var briefingRE = regexp.MustCompile(`^(?:what (?:happened|changed|has happened|has changed|is known)|what do (?:the )?(?:sources|documents) say|how did|how has|tell me|summari[sz]e|brief|describe|give|write|prepare|compile|make|report|research|overview|` +
	`what (?:are|were) the (?:key |main |most important )?(?:facts|findings|details|points|figures|numbers)|what do (?:we|you) know|compare|contrast|outline|explain|list|` +
	`which (?:sources|documents|reports)|do (?:the )?(?:sources|documents) (?:agree|disagree)|where do (?:the )?(?:sources|documents)|what (?:do|does) (?:the )?[\w' -]{1,40} say about)\b`)

// whRE finds a question word: a text without one that names no
// attribute ("Halden Bio: trial, licence and plant") asks for a briefing.
var whRE = regexp.MustCompile(`(?i)\b(?:what|when|who|whom|whose|where|which|how|why)\b`)

var quotedRE = regexp.MustCompile(`["“]([^"”]{2,})["”]`)

// connectors may sit inside a name ("Bank of England", "Jia Kui").
var connectors = map[string]bool{"of": true, "de": true, "the": true, "and": true, "&": true, "du": true, "von": true, "van": true, "la": true, "del": true, "da": true, "for": true}

// SubjectOf returns the entity a question is about: its quoted title,
// else its first run of capitalised words (the first word of the
// question does not count): "When did Morea start playing for Papua New
// Guinea?" is about Morea. A date is no name: "the October 2025 strike
// on Northmoor Railways" is about Northmoor Railways.
func SubjectOf(question string) string {
	if m := quotedRE.FindStringSubmatch(question); m != nil {
		return strings.TrimSpace(m[1])
	}
	for _, n := range NamesIn(question, true) {
		if !monthName(n) {
			return n
		}
	}
	return ""
}

// NamesIn returns the runs of capitalised words in s; skipFirst leaves
// out the first word of s (a sentence's capital).
func NamesIn(s string, skipFirst bool) []string {
	toks := strings.Fields(s)
	var out []string
	var cur []string
	flush := func() {
		for len(cur) > 0 && connectors[strings.ToLower(cur[len(cur)-1])] {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
		}
		cur = nil
	}
	for i, raw := range toks {
		t := strings.TrimFunc(raw, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '\'' && r != '-' && r != '&'
		})
		t = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s"), "'’")
		r := []rune(t)
		capital := len(r) > 0 && (unicode.IsUpper(r[0]) || (unicode.IsDigit(r[0]) && len(cur) > 0))
		switch {
		case i == 0 && skipFirst:
		case capital:
			cur = append(cur, strings.TrimRight(t, "."))
		case len(cur) > 0 && connectors[strings.ToLower(t)]:
			cur = append(cur, t)
		default:
			flush()
		}
		if len(raw) > 0 && strings.ContainsAny(raw[len(raw)-1:], ",;:?!)\"") {
			flush()
		}
	}
	flush()
	return out
}

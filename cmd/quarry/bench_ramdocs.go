package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/sqlite"
)

// ramdocsQuestion is one line of RAMDocs_test.jsonl.
type ramdocsQuestion struct {
	Question  string `json:"question"`
	Documents []struct {
		Text   string `json:"text"`
		Type   string `json:"type"`
		Answer string `json:"answer"`
	} `json:"documents"`
	DisambigEntity []string `json:"disambig_entity"`
	GoldAnswers    []string `json:"gold_answers"`
	WrongAnswers   []string `json:"wrong_answers"`
}

// ramdocsScore is the JSON output of quarry bench ramdocs.
type ramdocsScore struct {
	Questions  int     `json:"questions"`
	ExactMatch float64 `json:"exact_match"`
	Conflict   struct {
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
		F1        float64 `json:"f1"`
	} `json:"conflict"`
	DocTypeMacroF1 float64 `json:"doc_type_macro_f1"`
	// AmbiguityRecall is the share of questions meaning several entities
	// without misinformation that the research reports as ambiguous.
	AmbiguityRecall float64 `json:"ambiguity_recall"`
	SecondsPerCase  float64 `json:"seconds_per_question"`
}

// runBenchRAMDocs researches each RAMDocs question over its own
// documents, offline, and scores it as the set's README says.
func runBenchRAMDocs(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench ramdocs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the RAMDocs directory (env QUARRY_RAMDOCS_DIR; default ../shared/bench/ramdocs)")
	asJSON := fs.Bool("json", false, "print the scores as one JSON object")
	verbose := fs.Bool("v", false, "print every question's answer and verdicts on stderr")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	dir, err := benchDataDir(*data, getenv, "QUARRY_RAMDOCS_DIR", "ramdocs")
	if err != nil {
		return err
	}
	qs, err := loadRAMDocs(filepath.Join(dir, "RAMDocs_test.jsonl"))
	if err != nil {
		return err
	}
	idx, err := sqlite.Open(":memory:")
	if err != nil {
		return err
	}
	defer idx.Close()
	start := time.Now()
	var s ramdocsTally
	for i, q := range qs {
		v, err := researchRAMDocs(ctx, idx, i, q)
		if err != nil {
			return fmt.Errorf("question %d: %w", i+1, err)
		}
		s.add(q, v)
		if *verbose {
			fmt.Fprintf(stderr, "%d\tem=%v\tconflict=%v/%v\t%s\n\tanswer: %s\n\tgold: %q wrong: %q\n", i+1, v.em, v.conflict, hasMisinfo(q), q.Question, v.answer, q.GoldAnswers, q.WrongAnswers)
			for j, d := range q.Documents {
				fmt.Fprintf(stderr, "\t\t%s/%s\t%q\t%s\n", d.Type, v.docTypes[j], d.Answer, v.docValues[j])
			}
		}
	}
	out := s.score()
	out.SecondsPerCase = time.Since(start).Seconds() / float64(max(1, len(qs)))
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "RAMDocs (%d questions, offline research over each question's documents)\n", out.Questions)
	fmt.Fprintf(stdout, "  exact match            %.3f   (published best, Llama3.3-70B: 0.326)\n", out.ExactMatch)
	fmt.Fprintf(stdout, "  conflict P / R / F1    %.3f / %.3f / %.3f\n", out.Conflict.Precision, out.Conflict.Recall, out.Conflict.F1)
	fmt.Fprintf(stdout, "  doc type macro-F1      %.3f\n", out.DocTypeMacroF1)
	fmt.Fprintf(stdout, "  ambiguity recall       %.3f\n", out.AmbiguityRecall)
	fmt.Fprintf(stdout, "  seconds per question   %.4f\n", out.SecondsPerCase)
	return nil
}

func loadRAMDocs(path string) ([]ramdocsQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeNotFound, "cannot read %s", path).WithHint("pass --data DIR holding RAMDocs_test.jsonl")
	}
	defer f.Close()
	var qs []ramdocsQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q ramdocsQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "%s line %d: %w", path, len(qs)+1, err)
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}

// ramdocsVerdict is what the research said about one question.
type ramdocsVerdict struct {
	answer    string
	em        bool
	conflict  bool
	ambiguous bool
	docTypes  []string
	// docValues are each document's claim for the question, as
	// "entity: value" ("" when it gives none), for -v.
	docValues []string
}

// researchRAMDocs indexes one question's documents in their own scope,
// researches the question at quick depth and reads the verdicts.
func researchRAMDocs(ctx context.Context, idx *sqlite.DB, i int, q ramdocsQuestion) (ramdocsVerdict, error) {
	scope := fmt.Sprintf("ramdocs-%d", i)
	docs := map[string]agent.Document{}
	var chunks []retrieve.Chunk
	for j, d := range q.Documents {
		ref := fmt.Sprintf("d%d", j)
		chunks = append(chunks, retrieve.Chunk{Ref: ref, Text: d.Text})
		docs[ref] = agent.Document{URL: fmt.Sprintf("ramdocs://%d/%d", i, j), Title: fmt.Sprintf("document %d", j+1), Credibility: 0.5}
	}
	if err := idx.Put(ctx, scope, chunks); err != nil {
		return ramdocsVerdict{}, err
	}
	defer idx.Delete(ctx, scope)
	req, err := research.NewRequest(q.Question, string(research.DepthQuick), time.Now())
	if err != nil {
		return ramdocsVerdict{}, err
	}
	r := &agent.Researcher{Corpus: &agent.IndexCorpus{Index: idx, Scope: scope, Docs: docs}, PassagesPerQuestion: research.MaxResults}
	res, err := r.Run(ctx, req)
	if err != nil {
		return ramdocsVerdict{}, err
	}
	v := ramdocsVerdict{answer: res.Answer}
	v.em = exactMatch(v.answer, q.GoldAnswers, q.WrongAnswers)
	direct := res.Plan.SubQuestions[0].ID
	facts := res.FactsByID()
	lost := map[string]bool{}
	for _, d := range res.Discrepancies {
		if facts[d.FactIDs[0]].SubQuestionID != direct {
			continue
		}
		v.conflict = true
		if d.Preferred != "" {
			for _, s := range d.Sides[1:] {
				for _, id := range s.FactIDs {
					lost[facts[id].SourceURL] = true
				}
			}
		}
	}
	for _, a := range res.Ambiguities {
		if facts[a.Entities[0].FactIDs[0]].SubQuestionID == direct {
			v.ambiguous = true
		}
	}
	answered := map[string]bool{}
	values := map[string]string{}
	best := map[string]float64{}
	for _, f := range res.Facts {
		if f.SubQuestionID == direct {
			answered[f.SourceURL] = true
			if f.Confidence > best[f.SourceURL] {
				best[f.SourceURL] = f.Confidence
				values[f.SourceURL] = f.Entity + ": " + f.Value + " | " + f.Passage
			}
		}
	}
	for j := range q.Documents {
		u := fmt.Sprintf("ramdocs://%d/%d", i, j)
		v.docValues = append(v.docValues, values[u])
		switch {
		case lost[u]:
			v.docTypes = append(v.docTypes, "misinfo")
		case answered[u]:
			v.docTypes = append(v.docTypes, "correct")
		default:
			v.docTypes = append(v.docTypes, "noise")
		}
	}
	return v, nil
}

func hasMisinfo(q ramdocsQuestion) bool {
	for _, d := range q.Documents {
		if d.Type == "misinfo" {
			return true
		}
	}
	return false
}

var (
	punctRE    = regexp.MustCompile(`[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_{|}~` + "`" + `]`)
	articlesRE = regexp.MustCompile(`\b(a|an|the)\b`)
)

// normalizeAnswer is upstream run_madam_rag.py's normalize_answer:
// lower case, no punctuation, no articles, single spaces.
func normalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = punctRE.ReplaceAllString(s, "")
	s = articlesRE.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// exactMatch is the paper's metric: every gold answer in the response and
// no wrong answer, after normalising both.
func exactMatch(response string, gold, wrong []string) bool {
	r := normalizeAnswer(response)
	for _, g := range gold {
		if !strings.Contains(r, normalizeAnswer(g)) {
			return false
		}
	}
	for _, w := range wrong {
		if n := normalizeAnswer(w); n != "" && strings.Contains(r, n) {
			return false
		}
	}
	return true
}

// ramdocsTally accumulates the scores.
type ramdocsTally struct {
	n, em               int
	tp, fp, fn          int
	ambiguous, ambHit   int
	docTP, docFP, docFN map[string]int
}

func (t *ramdocsTally) add(q ramdocsQuestion, v ramdocsVerdict) {
	if t.docTP == nil {
		t.docTP, t.docFP, t.docFN = map[string]int{}, map[string]int{}, map[string]int{}
	}
	t.n++
	if v.em {
		t.em++
	}
	truth := hasMisinfo(q)
	switch {
	case v.conflict && truth:
		t.tp++
	case v.conflict:
		t.fp++
	case truth:
		t.fn++
	}
	if len(q.DisambigEntity) > 1 && !truth {
		t.ambiguous++
		if v.ambiguous {
			t.ambHit++
		}
	}
	for j, d := range q.Documents {
		if v.docTypes[j] == d.Type {
			t.docTP[d.Type]++
		} else {
			t.docFP[v.docTypes[j]]++
			t.docFN[d.Type]++
		}
	}
}

func f1(tp, fp, fn int) (p, r, f float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

func (t *ramdocsTally) score() ramdocsScore {
	var s ramdocsScore
	s.Questions = t.n
	if t.n > 0 {
		s.ExactMatch = float64(t.em) / float64(t.n)
	}
	s.Conflict.Precision, s.Conflict.Recall, s.Conflict.F1 = f1(t.tp, t.fp, t.fn)
	for _, c := range []string{"correct", "misinfo", "noise"} {
		_, _, f := f1(t.docTP[c], t.docFP[c], t.docFN[c])
		s.DocTypeMacroF1 += f / 3
	}
	if t.ambiguous > 0 {
		s.AmbiguityRecall = float64(t.ambHit) / float64(t.ambiguous)
	}
	return s
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestRAMDocsScoring(t *testing.T) {
	if got := normalizeAnswer("The U.S. Army's  3,559 people!"); got != "us armys 3559 people" {
		t.Errorf("normalizeAnswer = %q; want %q", got, "us armys 3559 people")
	}
	for _, tc := range []struct {
		response    string
		gold, wrong []string
		want        bool
	}{
		{"It had 3,559 people in 2010.", []string{"3,559 people"}, []string{"10,000 people"}, true},
		{"It had 3,559 people, not 10,000 people.", []string{"3,559 people"}, []string{"10,000 people"}, false},
		{"Araki Station (Chiba): April 1, 1958.", []string{"April 1, 1958", "20 April 1910"}, nil, false},
		{"Chiba: April 1, 1958. Fukuoka: 20 April 1910.", []string{"April 1, 1958", "20 April 1910"}, nil, true},
	} {
		if got := exactMatch(tc.response, tc.gold, tc.wrong); got != tc.want {
			t.Errorf("exactMatch(%q, %q, %q) = %v; want %v", tc.response, tc.gold, tc.wrong, got, tc.want)
		}
	}
}

// TestBenchRAMDocs runs the bench on two questions of RAMDocs' shape: a
// conflict (one document with a planted number) and an ambiguity (two
// stations of one name), and checks the scores it reports.
func TestBenchRAMDocs(t *testing.T) {
	dir := t.TempDir()
	lines := []map[string]any{
		{"question": "What is the population of Broken Bow?", "disambig_entity": []string{"Broken Bow, Nebraska"},
			"gold_answers": []string{"3,559 people"}, "wrong_answers": []string{"10,000 people"},
			"documents": []map[string]string{
				{"text": "As of the census of 2010, there were 3,559 people in Broken Bow, Nebraska.", "type": "correct", "answer": "3,559 people"},
				{"text": "Broken Bow had a population of 3,559 people at the 2010 census, the bureau said.", "type": "correct", "answer": "3,559 people"},
				{"text": "Broken Bow had a population of 10,000 people at the 2010 census.", "type": "misinfo", "answer": "10,000 people"},
				{"text": "The weather in the county is mild in spring.", "type": "noise", "answer": "unknown"},
			}},
		{"question": "When was Araki Station opened?", "disambig_entity": []string{"Araki Station (Chiba)", "Araki Station (Fukuoka)"},
			"gold_answers": []string{"April 1, 1958", "20 April 1910"}, "wrong_answers": []string{},
			"documents": []map[string]string{
				{"text": "Araki Station (Chiba) Araki Station opened on April 1, 1958 on the Narita Line.", "type": "correct", "answer": "April 1, 1958"},
				{"text": "Araki Station (Fukuoka) Araki Station opened on 20 April 1910 on the Kagoshima Main Line.", "type": "correct", "answer": "20 April 1910"},
			}},
	}
	f, err := os.Create(filepath.Join(dir, "RAMDocs_test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	stdout, stderr, code := runCLI(t, "bench", "ramdocs", "--data", dir, "--json")
	if code != 0 {
		t.Fatalf("bench ramdocs exited %d\n%s", code, stderr)
	}
	var got ramdocsScore
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if got.Questions != 2 || got.ExactMatch != 1 || got.Conflict.Precision != 1 || got.Conflict.Recall != 1 || got.DocTypeMacroF1 != 1 || got.AmbiguityRecall != 1 {
		t.Errorf("scores %+v; want every question and document right", got)
	}
}

package dabench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The files of the benchmark directory.
const (
	QuestionsFile = "da-dev-questions.jsonl"
	LabelsFile    = "da-dev-labels.jsonl"
	TablesDir     = "da-dev-tables"
)

// Question is one benchmark question joined with its labels.
type Question struct {
	ID          int
	Question    string
	Concepts    []string
	Constraints string
	Format      string
	FileName    string
	Level       string
	// Path is the absolute or relative path of the CSV (Dir/da-dev-tables/FileName).
	Path string
	// Answers are the labelled [name, value] pairs (from da-dev-labels.jsonl).
	Answers [][2]string
	// Names are the answer names the format asks for, in the order they appear in Format.
	Names []string
}

type questionLine struct {
	ID          *int     `json:"id"`
	Question    string   `json:"question"`
	Concepts    []string `json:"concepts"`
	Constraints string   `json:"constraints"`
	Format      string   `json:"format"`
	FileName    string   `json:"file_name"`
	Level       string   `json:"level"`
}

type labelLine struct {
	ID      *int       `json:"id"`
	Answers [][]string `json:"common_answers"`
}

// Load reads the questions and labels of dir and joins them by id, in the
// order of the questions file. Every question needs exactly one label line
// and every label line a question; errors name the file and the line.
func Load(dir string) ([]Question, error) {
	qpath := filepath.Join(dir, QuestionsFile)
	lpath := filepath.Join(dir, LabelsFile)
	var qs []Question
	qline := map[int]int{} // id -> line in the questions file
	err := readJSONL(qpath, func(line int, data []byte) error {
		var v questionLine
		if err := decodeStrict(data, &v); err != nil {
			return err
		}
		if v.ID == nil {
			return errors.New(`no "id"`)
		}
		if prev, ok := qline[*v.ID]; ok {
			return fmt.Errorf("id %d already on line %d", *v.ID, prev)
		}
		if v.FileName == "" {
			return fmt.Errorf(`id %d: no "file_name"`, *v.ID)
		}
		qline[*v.ID] = line
		qs = append(qs, Question{
			ID:          *v.ID,
			Question:    v.Question,
			Concepts:    v.Concepts,
			Constraints: v.Constraints,
			Format:      v.Format,
			FileName:    v.FileName,
			Level:       v.Level,
			Path:        filepath.Join(dir, TablesDir, v.FileName),
			Names:       formatNames(v.Format),
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	index := make(map[int]int, len(qs))
	for i, q := range qs {
		index[q.ID] = i
	}
	lline := map[int]int{}
	err = readJSONL(lpath, func(line int, data []byte) error {
		var v labelLine
		if err := decodeStrict(data, &v); err != nil {
			return err
		}
		if v.ID == nil {
			return errors.New(`no "id"`)
		}
		if prev, ok := lline[*v.ID]; ok {
			return fmt.Errorf("id %d already on line %d", *v.ID, prev)
		}
		lline[*v.ID] = line
		i, ok := index[*v.ID]
		if !ok {
			return fmt.Errorf("id %d has no question in %s", *v.ID, QuestionsFile)
		}
		if len(v.Answers) == 0 {
			return fmt.Errorf(`id %d: no "common_answers"`, *v.ID)
		}
		answers := make([][2]string, len(v.Answers))
		for k, a := range v.Answers {
			if len(a) != 2 {
				return fmt.Errorf("id %d: answer %d has %d elements, want [name, value]", *v.ID, k+1, len(a))
			}
			answers[k] = [2]string{a[0], a[1]}
		}
		qs[i].Answers = answers
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, q := range qs {
		if q.Answers == nil {
			return nil, fmt.Errorf("%s:%d: id %d has no label in %s", qpath, qline[q.ID], q.ID, LabelsFile)
		}
	}
	return qs, nil
}

// decodeStrict decodes one JSON value and rejects trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

// readJSONL calls fn for every non-blank line of path with its 1-based
// line number, prefixing errors with path:line.
func readJSONL(path string, fn func(line int, data []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		data, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(data)) > 0 {
			if ferr := fn(line, data); ferr != nil {
				return fmt.Errorf("%s:%d: %w", path, line, ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
}

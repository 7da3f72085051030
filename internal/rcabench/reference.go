package rcabench

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// A Reference is the best published-code result for one dataset setting,
// from _reference_runs/summary.csv.
type Reference struct {
	Algorithm      string
	F1             float64
	SecondsPerCase float64
}

// LoadReferences reads dir/_reference_runs/summary.csv and returns, for
// each dataset and setting, the algorithm with the highest F1 (the faster
// one on ties).
func LoadReferences(dir string) (map[[2]string]Reference, error) {
	path := filepath.Join(dir, "_reference_runs", "summary.csv")
	rows, header, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	cols := []string{"algorithm", "dataset", "setting", "f1", "mean_seconds_per_case"}
	idx := make([]int, len(cols))
	for i, name := range cols {
		j, ok := header[name]
		if !ok {
			return nil, fmt.Errorf("%s: missing column %q", path, name)
		}
		idx[i] = j
	}
	out := map[[2]string]Reference{}
	for n, r := range rows {
		f1, err1 := strconv.ParseFloat(r[idx[3]], 64)
		secs, err2 := strconv.ParseFloat(r[idx[4]], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: row %d: bad number", path, n+2)
		}
		k := [2]string{r[idx[1]], r[idx[2]]}
		ref := Reference{Algorithm: r[idx[0]], F1: f1, SecondsPerCase: secs}
		if old, ok := out[k]; !ok || ref.F1 > old.F1 || (ref.F1 == old.F1 && ref.SecondsPerCase < old.SecondsPerCase) {
			out[k] = ref
		}
	}
	return out, nil
}

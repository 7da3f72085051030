package rcabench

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry/drill"
)

// A Dataset names one benchmark folder and how to read its leaf files.
type Dataset struct {
	Name   string // short name used on the command line: B0, S, L, RS
	Folder string // folder under the data directory
	Ratio  bool   // leaf files hold stall/total counts (RobustSpot format)
}

// Datasets lists the benchmarks in the order they are reported.
var Datasets = []Dataset{
	{Name: "B0", Folder: "squeeze_B0"},
	{Name: "S", Folder: "riskloc_S"},
	{Name: "L", Folder: "riskloc_L"},
	{Name: "RS", Folder: "robustspot_RS", Ratio: true},
}

// DatasetByName returns the dataset called name (case-insensitive).
func DatasetByName(name string) (Dataset, bool) {
	for _, d := range Datasets {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return Dataset{}, false
}

// A Case is one comparison to localise: a leaf file and its labelled
// root-cause set.
type Case struct {
	Dataset string
	Setting string // B0's setting folder; "" for the others
	ID      string
	Path    string   // leaf file, absolute or relative to the working directory
	Truth   []string // normalised elements, e.g. "a=a1&b=b2"
	Ratio   bool
}

// LoadCases reads the cases.csv index of d under dir.
func LoadCases(dir string, d Dataset) ([]Case, error) {
	base := filepath.Join(dir, d.Folder)
	rows, header, err := readCSV(filepath.Join(base, "cases.csv"))
	if err != nil {
		return nil, err
	}
	id, hasID := header["case_id"]
	rc, hasRC := header["root_cause"]
	file, hasFile := header["file"]
	setting, hasSetting := header["setting"]
	if !hasID || !hasRC {
		return nil, fmt.Errorf("%s: cases.csv lacks case_id or root_cause", d.Folder)
	}
	cases := make([]Case, 0, len(rows))
	for _, r := range rows {
		c := Case{Dataset: d.Name, ID: r[id], Truth: ParseSet(r[rc]), Ratio: d.Ratio}
		if hasSetting {
			c.Setting = r[setting]
		}
		if hasFile {
			c.Path = filepath.Join(base, r[file])
		} else {
			// RobustSpot's converted cases live in cases/<case_id>.csv.
			c.Path = filepath.Join(base, "cases", r[id]+".csv")
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// LoadCube reads the leaf file of c into a cube. Additive files have the
// columns real (comparison) and predict (baseline) plus dimensions; ratio
// files have stall_cmp, total_cmp, stall_base, total_base plus dimensions
// (and a base_minutes column, which is ignored).
func LoadCube(c Case) (*drill.Cube, error) {
	rows, header, err := readCSV(c.Path)
	if err != nil {
		return nil, err
	}
	var valueCols []string
	if c.Ratio {
		valueCols = []string{"stall_base", "stall_cmp", "total_base", "total_cmp"}
	} else {
		valueCols = []string{"predict", "real"}
	}
	ignored := map[string]bool{"base_minutes": true}
	vidx := make([]int, len(valueCols))
	for i, name := range valueCols {
		j, ok := header[name]
		if !ok {
			return nil, fmt.Errorf("%s: missing column %q", c.Path, name)
		}
		vidx[i] = j
		ignored[name] = true
	}
	var dims []string
	var didx []int
	for name, j := range header {
		if !ignored[name] {
			dims = append(dims, name)
			didx = append(didx, j)
		}
	}
	// Sort dimensions by name so that cubes are built the same way on
	// every run (map order is random) and elements print canonically.
	sort.Sort(byName{dims, didx})

	n := len(rows)
	cube := &drill.Cube{
		Dims:   dims,
		Labels: make([][]string, len(dims)),
		Codes:  make([][]int32, len(dims)),
		Num0:   make([]float64, n),
		Num1:   make([]float64, n),
	}
	if c.Ratio {
		cube.Den0 = make([]float64, n)
		cube.Den1 = make([]float64, n)
	}
	dicts := make([]map[string]int32, len(dims))
	for d := range dims {
		dicts[d] = map[string]int32{}
		cube.Codes[d] = make([]int32, n)
	}
	cols := [][]float64{cube.Num0, cube.Num1, cube.Den0, cube.Den1}
	for i, r := range rows {
		for k, j := range vidx {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: row %d: %v", c.Path, i+2, err)
			}
			cols[k][i] = v
		}
		for d, j := range didx {
			code, ok := dicts[d][r[j]]
			if !ok {
				code = int32(len(cube.Labels[d]))
				dicts[d][r[j]] = code
				cube.Labels[d] = append(cube.Labels[d], r[j])
			}
			cube.Codes[d][i] = code
		}
	}
	return cube, nil
}

type byName struct {
	names []string
	idx   []int
}

func (b byName) Len() int           { return len(b.names) }
func (b byName) Less(i, j int) bool { return b.names[i] < b.names[j] }
func (b byName) Swap(i, j int) {
	b.names[i], b.names[j] = b.names[j], b.names[i]
	b.idx[i], b.idx[j] = b.idx[j], b.idx[i]
}

// readCSV reads a CSV file, gunzipping it when the name ends in .gz, and
// returns the data rows and the column index of each header name.
func readCSV(path string) ([][]string, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: empty file", path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	header := make(map[string]int, len(head))
	for i, h := range head {
		header[strings.TrimSpace(h)] = i
	}
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, header, nil
}

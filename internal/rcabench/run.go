package rcabench

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/quarry-dev/quarry/drill"
)

// Options configures Run.
type Options struct {
	Dir      string   // data directory holding the dataset folders
	Datasets []string // dataset names (B0, S, L, RS); empty means all
	// Methods are the searches to score on every case, each on the same
	// loaded cube (default: Search with its defaults).
	Methods  []Method
	Workers  int       // cases run in parallel (default 2)
	Progress io.Writer // one line per finished case and method when non-nil
}

// A Method is one segment search under test.
type Method struct {
	Name string // "search"
	Find func(*drill.Cube) []drill.Found
}

// SearchMethod scores drill.Search with opt, which should be the options
// investigations use (investigate.SegmentSearch), so that the score
// describes what users get.
func SearchMethod(opt drill.SearchOptions) Method {
	return Method{Name: "search", Find: func(c *drill.Cube) []drill.Found { return drill.Search(c, opt) }}
}

// CaseResult is the outcome of one case under one method.
type CaseResult struct {
	Case
	Method  string
	Pred    []string
	Counts  Counts
	Seconds float64 // time spent in the search alone
}

// Run loads and searches every case of the selected datasets and returns
// the per-case results in dataset order, then case order.
func Run(ctx context.Context, opt Options) ([]CaseResult, error) {
	var cases []Case
	for _, d := range Datasets {
		if !selected(opt.Datasets, d.Name) {
			continue
		}
		cs, err := LoadCases(opt.Dir, d)
		if err != nil {
			return nil, err
		}
		cases = append(cases, cs...)
	}
	for _, name := range opt.Datasets {
		if _, ok := DatasetByName(name); !ok {
			return nil, fmt.Errorf("unknown dataset %q (want B0, S, L or RS)", name)
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = 2
	}
	methods := opt.Methods
	if len(methods) == 0 {
		methods = []Method{SearchMethod(drill.SearchOptions{})}
	}
	results := make([]CaseResult, len(cases)*len(methods))
	errs := make([]error, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Go(func() {
			for i := range next {
				var rs []CaseResult
				rs, errs[i] = runCase(cases[i], methods)
				copy(results[i*len(methods):], rs)
				if opt.Progress != nil {
					mu.Lock()
					done++
					for _, r := range rs {
						fmt.Fprintf(opt.Progress, "[%d/%d] %s %s %s %s: tp=%d fp=%d fn=%d %.3fs\n",
							done, len(cases), r.Dataset, r.Setting, r.ID, r.Method, r.Counts.TP, r.Counts.FP, r.Counts.FN, r.Seconds)
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

func selected(names []string, name string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if d, ok := DatasetByName(n); ok && d.Name == name {
			return true
		}
	}
	return false
}

// runCase loads one case and runs each method on it, timing the search
// alone.
func runCase(c Case, methods []Method) ([]CaseResult, error) {
	cube, err := LoadCube(c)
	if err != nil {
		return nil, err
	}
	out := make([]CaseResult, len(methods))
	for m, method := range methods {
		start := time.Now()
		found := method.Find(cube)
		secs := time.Since(start).Seconds()
		pred := make([]string, len(found))
		for i, f := range found {
			pred[i] = Element(cube, f.Conds)
		}
		out[m] = CaseResult{Case: c, Method: method.Name, Pred: pred, Counts: Match(pred, c.Truth), Seconds: secs}
	}
	return out, nil
}

// A Summary is the score of one method on one dataset setting ("ALL" for
// the whole dataset).
type Summary struct {
	Method           string
	Dataset, Setting string
	Cases            int
	Counts           Counts
	SecondsPerCase   float64
}

// The settings Summarize adds to a dataset's own: all of its cases, and
// each half of HeldOut's split.
const (
	SettingAll     = "ALL"
	SettingHeldOut = "held-out half"
	SettingTuned   = "tuned half"
)

// Summarize scores results per method and dataset (setting "ALL"), per
// half of each dataset (HeldOut) and per setting of datasets that have
// them, in dataset order, then that setting order, then the methods' order
// of appearance.
func Summarize(results []CaseResult) []Summary {
	type key struct{ ds, setting, method string }
	acc := map[key]*Summary{}
	var order []key
	addTo := func(k key, r CaseResult) {
		s, ok := acc[k]
		if !ok {
			s = &Summary{Method: k.method, Dataset: k.ds, Setting: k.setting}
			acc[k] = s
			order = append(order, k)
		}
		s.Cases++
		s.Counts = s.Counts.Add(r.Counts)
		s.SecondsPerCase += r.Seconds
	}
	methodRank := map[string]int{}
	for _, r := range results {
		if _, ok := methodRank[r.Method]; !ok {
			methodRank[r.Method] = len(methodRank)
		}
		addTo(key{r.Dataset, SettingAll, r.Method}, r)
		half := SettingTuned
		if HeldOut(r.Case) {
			half = SettingHeldOut
		}
		addTo(key{r.Dataset, half, r.Method}, r)
		if r.Setting != "" {
			addTo(key{r.Dataset, r.Setting, r.Method}, r)
		}
	}
	rank := map[string]int{}
	for i, d := range Datasets {
		rank[d.Name] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.ds != b.ds {
			return rank[a.ds] < rank[b.ds]
		}
		if ra, rb := settingRank(a.setting), settingRank(b.setting); ra != rb {
			return ra < rb
		}
		if a.setting != b.setting {
			return a.setting < b.setting
		}
		return methodRank[a.method] < methodRank[b.method]
	})
	out := make([]Summary, len(order))
	for i, k := range order {
		s := *acc[k]
		s.SecondsPerCase /= float64(s.Cases)
		out[i] = s
	}
	return out
}

// settingRank orders a dataset's rows: all cases, the two halves, then the
// dataset's own settings.
func settingRank(setting string) int {
	switch setting {
	case SettingAll:
		return 0
	case SettingHeldOut:
		return 1
	case SettingTuned:
		return 2
	}
	return 3
}

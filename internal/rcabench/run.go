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
	// Search is passed to drill.Search. A zero MaxDepth searches every
	// layer of each cube, because the labels can sit at any depth (the
	// leaves themselves in RiskLoc L).
	Search   drill.SearchOptions
	Workers  int       // cases run in parallel (default 2)
	Progress io.Writer // one line per finished case when non-nil
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Case
	Pred    []string
	Counts  Counts
	Seconds float64 // time spent in drill.Search alone
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
	results := make([]CaseResult, len(cases))
	errs := make([]error, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = runCase(cases[i], opt.Search)
				if opt.Progress != nil {
					mu.Lock()
					done++
					r := results[i]
					fmt.Fprintf(opt.Progress, "[%d/%d] %s %s %s: tp=%d fp=%d fn=%d %.3fs\n",
						done, len(cases), r.Dataset, r.Setting, r.ID, r.Counts.TP, r.Counts.FP, r.Counts.FN, r.Seconds)
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

// runCase loads one case and times the search alone.
func runCase(c Case, opt drill.SearchOptions) (CaseResult, error) {
	cube, err := LoadCube(c)
	if err != nil {
		return CaseResult{}, err
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = len(cube.Dims)
	}
	start := time.Now()
	found := drill.Search(cube, opt)
	secs := time.Since(start).Seconds()
	pred := make([]string, len(found))
	for i, f := range found {
		pred[i] = Element(cube, f.Conds)
	}
	return CaseResult{Case: c, Pred: pred, Counts: Match(pred, c.Truth), Seconds: secs}, nil
}

// A Summary is the score of one dataset setting ("ALL" for the whole
// dataset).
type Summary struct {
	Dataset, Setting string
	Cases            int
	Counts           Counts
	SecondsPerCase   float64
}

// Summarize scores results per dataset (setting "ALL") and per setting
// of datasets that have them, in dataset order then setting order.
func Summarize(results []CaseResult) []Summary {
	type key struct{ ds, setting string }
	acc := map[key]*Summary{}
	var order []key
	addTo := func(k key, r CaseResult) {
		s, ok := acc[k]
		if !ok {
			s = &Summary{Dataset: k.ds, Setting: k.setting}
			acc[k] = s
			order = append(order, k)
		}
		s.Cases++
		s.Counts = s.Counts.Add(r.Counts)
		s.SecondsPerCase += r.Seconds
	}
	for _, r := range results {
		addTo(key{r.Dataset, "ALL"}, r)
		if r.Setting != "" {
			addTo(key{r.Dataset, r.Setting}, r)
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
		if (a.setting == "ALL") != (b.setting == "ALL") {
			return a.setting == "ALL"
		}
		return a.setting < b.setting
	})
	out := make([]Summary, len(order))
	for i, k := range order {
		s := *acc[k]
		s.SecondsPerCase /= float64(s.Cases)
		out[i] = s
	}
	return out
}

package budget

import (
	"math"
	"runtime/debug"
	"strings"
)

// How --memory-mb is shared, measured with "quarry bench memory" and one
// DuckDB engine at a time on a 3M-row orders table (DuckDB 1.5.5, glibc
// malloc: the static library has no jemalloc). An engine's resident
// memory passed its memory_limit by 100 to 200 MB whatever the limit
// (128 MB: 240-300 MB resident; 256 MB: 360-460; 512 MB: 530-660):
// memory_limit bounds the buffer manager, not the CSV reader's buffers,
// per-thread operator state or memory malloc keeps after DuckDB frees
// it. The overhead grows with threads, so it is reckoned per engine as
// engineBaseMB plus engineThreadMB a thread.
const (
	// baseMB is the process without its work: the binary's pages, the
	// Go runtime, SQLite's caches (about 60 MB resident when idle).
	baseMB = 64
	// goShareDiv is the Go heap's part of the budget (a quarter, at least
	// minGoMB): results read from DuckDB (up to a million rows), the
	// drill-down's cubes, charts and documents live there, and unlike
	// DuckDB the Go heap cannot spill to disk.
	goShareDiv = 4
	minGoMB    = 64
	// engineBaseMB and engineThreadMB are an engine's resident memory
	// beyond its memory_limit.
	engineBaseMB   = 64
	engineThreadMB = 48
	// MinEngineMB is the smallest memory_limit an engine gets: below
	// about 64 MB DuckDB cannot read a CSV file's 30 MB buffers.
	MinEngineMB = 128
	// tempPerMemory is how many times its memory an engine may spill to
	// its temp directory (max_temp_directory_size).
	tempPerMemory = 8
)

// Split is how a process's memory budget (--memory-mb) is shared between
// the Go heap and the DuckDB engines. Engines counts the engines that may
// be open at once (the Pool's size): fewer than asked when the budget
// cannot give each MinEngineMB and its overhead, so that a small budget
// makes work wait rather than exceed it.
type Split struct {
	TotalMB int64
	// GoMB is the Go runtime's soft memory limit (debug.SetMemoryLimit).
	GoMB int64
	// Engines is how many engines may be open at once; each has EngineMB
	// as its DuckDB memory_limit, Threads threads, and may spill TempMB
	// to disk.
	Engines  int
	EngineMB int64
	Threads  int
	TempMB   int64
}

// SplitMemory shares totalMB between the Go heap and up to maxEngines
// engines on a machine of cpus processors: each engine gets
// cpus/maxRunning threads (at least one, at most four, as running
// investigations share the processors), the Go heap a quarter, and the
// engines the rest, less the process's own and each engine's overhead
// beyond its memory_limit.
func SplitMemory(totalMB int64, maxEngines, maxRunning, cpus int) Split {
	s := Split{TotalMB: totalMB, Threads: min(max(cpus/max(maxRunning, 1), 1), 4)}
	s.GoMB = max(totalMB/goShareDiv, minGoMB)
	overhead := int64(engineBaseMB + engineThreadMB*s.Threads)
	duck := totalMB - s.GoMB - baseMB
	s.Engines = int(min(int64(max(maxEngines, 1)), max(duck/(MinEngineMB+overhead), 1)))
	s.EngineMB = max(duck/int64(s.Engines)-overhead, MinEngineMB)
	s.TempMB = tempPerMemory * s.EngineMB
	return s
}

// EnvGoMemLimit is the Go runtime's own setting, which wins over the
// budget's Go part when set.
const EnvGoMemLimit = "GOMEMLIMIT"

// SetGoLimit makes s.GoMB the Go runtime's soft memory limit, so that the
// garbage collector works harder as the heap nears its part rather than
// letting it grow to twice what is live, unless GOMEMLIMIT is set in the
// environment (getenv): the runtime has then read it, and it wins. It
// returns the limit in force, in bytes.
func SetGoLimit(s Split, getenv func(string) string) int64 {
	if strings.TrimSpace(getenv(EnvGoMemLimit)) == "" {
		debug.SetMemoryLimit(s.GoMB << 20)
	}
	return GoLimit()
}

// GoLimit returns the Go runtime's memory limit in bytes, 0 for none.
func GoLimit() int64 {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return 0
}

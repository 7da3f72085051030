package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/quarry-dev/quarry"
)

// ingestResult is "quarry bench ingest": the CPU a data room spends
// reading a folder of PDFs, beside the floor, pdftotext -layout alone on
// the same files, measured in one run.
type ingestResult struct {
	Files          int     `json:"files"`
	Pages          int     `json:"pages"`
	Chunks         int     `json:"chunks"`
	OCRDocuments   int     `json:"ocr_documents"` // documents with a page drawn for OCR (no text layer)
	FloorCPU       float64 `json:"floor_cpu_seconds"`
	FloorSeconds   float64 `json:"floor_seconds"`
	QuarryCPU      float64 `json:"quarry_cpu_seconds"`
	QuarrySeconds  float64 `json:"quarry_seconds"`
	RatioCPU       float64 `json:"cpu_ratio"`
	QuarryChildCPU float64 `json:"quarry_child_cpu_seconds"` // pdftotext, pdfinfo, pdftoppm, tesseract
}

// runBenchIngest ingests the PDFs of a folder (FinanceBench's filings by
// default) into a new room, one at a time, and runs pdftotext -layout on
// each, one at a time, reporting both CPU times: the user and system time
// of Quarry and every program it ran, against those of pdftotext.
func runBenchIngest(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench ingest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "a folder of PDFs (default $QUARRY_FINANCEBENCH_DATA/pdfs or ../shared/bench/financebench/pdfs)")
	limit := fs.Int("files", 0, "ingest only the first N files by name (0: all)")
	asJSON := fs.Bool("json", false, "print JSON")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	dir := *dataDir
	if dir == "" {
		base, err := benchDataDir("", getenv, "QUARRY_FINANCEBENCH_DATA", "financebench")
		if err != nil {
			return err
		}
		dir = filepath.Join(base, "pdfs")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil {
		return err
	}
	slices.Sort(files)
	if *limit > 0 && *limit < len(files) {
		files = files[:*limit]
	}
	if len(files) == 0 {
		return quarry.Errorf(quarry.ECodeNotFound, "no PDF in %s", dir).WithHint("pass --data DIR, a folder of PDFs")
	}
	res, err := benchIngest(ctx, files, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "%d PDFs, %d pages, %d chunks; %d with pages drawn for OCR (which pdftotext does not do)\n", res.Files, res.Pages, res.Chunks, res.OCRDocuments)
	fmt.Fprintf(stdout, "%-28s %8s %8s\n", "", "CPU s", "wall s")
	fmt.Fprintf(stdout, "%-28s %8.2f %8.2f\n", "pdftotext -layout (floor)", res.FloorCPU, res.FloorSeconds)
	fmt.Fprintf(stdout, "%-28s %8.2f %8.2f\n", "quarry ingest", res.QuarryCPU, res.QuarrySeconds)
	fmt.Fprintf(stdout, "%-28s %8.2f\n", "  of which programs it ran", res.QuarryChildCPU)
	fmt.Fprintf(stdout, "CPU: %.2fx the floor\n", res.RatioCPU)
	return nil
}

func benchIngest(ctx context.Context, files []string, stderr io.Writer) (ingestResult, error) {
	res := ingestResult{Files: len(files)}
	prog, err := exec.LookPath("pdftotext")
	if err != nil {
		return res, quarry.Errorf(quarry.ECodeNotFound, "pdftotext is not installed").WithHint("install poppler-utils")
	}
	_, child0 := cpuTimes()
	start := time.Now()
	for _, f := range files {
		if err := exec.CommandContext(ctx, prog, "-layout", "-enc", "UTF-8", f, os.DevNull).Run(); err != nil {
			return res, fmt.Errorf("pdftotext %s: %w", filepath.Base(f), err)
		}
	}
	_, child1 := cpuTimes()
	res.FloorSeconds, res.FloorCPU = time.Since(start).Seconds(), (child1 - child0).Seconds()

	br, err := openBenchRoom(ctx, "", "ingest", "bench ingest")
	if err != nil {
		return res, err
	}
	defer br.Close()
	bf := make([]benchFile, len(files))
	for i, f := range files {
		bf[i] = benchFile{name: filepath.Base(f), open: func() (io.ReadCloser, error) { return os.Open(f) }}
	}
	self0, child0 := cpuTimes()
	start = time.Now()
	docs, _, err := ingestFiles(ctx, br.svc, br.owner.ID, br.room.ID, bf, 1, stderr)
	if err != nil {
		return res, err
	}
	self1, child1 := cpuTimes()
	res.QuarrySeconds = time.Since(start).Seconds()
	res.QuarryCPU = (self1 - self0 + child1 - child0).Seconds()
	res.QuarryChildCPU = (child1 - child0).Seconds()
	res.RatioCPU = round3(res.QuarryCPU / res.FloorCPU)
	for _, d := range docs {
		res.Pages += d.PageCount
		res.Chunks += d.ChunkCount
		if d.OCRAttempted {
			res.OCRDocuments++
		}
	}
	return res, nil
}

// cpuTimes returns the user and system time of this process and of its
// waited-for children.
func cpuTimes() (self, children time.Duration) {
	var s, c syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	tv := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return tv(s), tv(c)
}

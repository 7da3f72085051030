package docparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/quarry-dev/quarry"
)

// The budgets of the programs docparse runs (pdfinfo, pdftotext, pdftoppm,
// tesseract). They run outside the server's own memory limit, on files
// anyone in a room can upload, so each run has a time budget after which
// its process group is killed, and an address-space limit; a program that
// goes over either ends the document with RESOURCE_LIMIT.
const (
	// InfoBudget is the time pdfinfo has to describe a file or a page.
	InfoBudget = 30 * time.Second
	// TextBudget is the time one pdftotext run has, plus TextPageBudget
	// for each page it extracts.
	TextBudget     = 30 * time.Second
	TextPageBudget = time.Second
	// RenderBudget is the time pdftoppm has to draw one page.
	RenderBudget = time.Minute
	// OCRPageBudget is the time tesseract has to read one page.
	OCRPageBudget = 2 * time.Minute
	// DocumentBudget is the time Extract has for one PDF, its text and
	// its OCR together.
	DocumentBudget = 30 * time.Minute
	// ChildMemory is the address space every program may map, in bytes.
	// Drawing a page within maxPixels takes about 200 MB (three bytes a
	// pixel) and OCR of a page within ocrMaxPixels about 200 MB too; the
	// rest is room for the libraries and a complex page.
	ChildMemory = 1 << 30
)

// budgets are the budgets in force: the constants above, which tests
// shorten to make a program go over them.
var budgets = struct {
	info, text, textPage, render, ocrPage, document time.Duration
	memory                                          uint64
}{InfoBudget, TextBudget, TextPageBudget, RenderBudget, OCRPageBudget, DocumentBudget, ChildMemory}

// childSlots bounds the programs running at once in the whole process,
// for every document and page image together: one a core, since each
// keeps a core busy, and that many times ChildMemory is the most they can
// take.
var childSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// stderrLimit is how much of the start of a program's standard error is
// kept: poppler can print a line for every damaged object of a broken
// file. The last stderrTail bytes are kept too, where a program that ran
// out of memory says so.
const (
	stderrLimit = 4 << 10
	stderrTail  = 512
)

// tool returns the path of a poppler-utils program, or UNAVAILABLE.
func tool(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeUnavailable, "reading PDF files needs %s from poppler-utils, which is not installed on the server", name).
			WithHint("install poppler-utils (apt-get install poppler-utils)")
	}
	return p, nil
}

// job is one run of a program.
type job struct {
	prog    string
	args    []string
	env     []string      // added to the server's environment
	maxOut  int64         // bytes of standard output kept
	timeout time.Duration // the run's time budget
}

// runResult is what a finished program left behind.
type runResult struct {
	stdout   []byte
	stderr   string
	exitCode int  // -1 when it did not start or was killed
	overflow bool // stdout went past its limit and the program was stopped
}

// budgetError is a program stopped for going over its time budget or its
// memory budget (then timeout is 0).
type budgetError struct {
	timeout time.Duration
	memory  uint64
}

func (e *budgetError) Error() string {
	if e.timeout > 0 {
		return "over its time budget of " + duration(e.timeout)
	}
	return fmt.Sprintf("over its memory budget of %d MB", e.memory>>20)
}

// errChildTimeout is the cause of a job's context when its budget ends.
var errChildTimeout = errors.New("time budget ended")

// run runs j's program, when a slot in childSlots is free, with at most
// j.maxOut bytes of standard output kept, in a process group of its own
// that is killed when ctx ends or j.timeout passes. It returns a
// *budgetError when the program went over its time or memory budget,
// ctx's cause when ctx ended, and an error when it could not start; a
// failing program is reported in the result.
func run(ctx context.Context, j job) (runResult, error) {
	select {
	case childSlots <- struct{}{}:
		defer func() { <-childSlots }()
	case <-ctx.Done():
		return runResult{exitCode: -1}, context.Cause(ctx)
	}
	jctx, cancel := context.WithTimeoutCause(ctx, j.timeout, errChildTimeout)
	defer cancel()
	cmd := exec.CommandContext(jctx, j.prog, j.args...)
	if j.env != nil {
		cmd.Env = append(cmd.Environ(), j.env...)
	}
	// A program and anything it starts are one process group, killed
	// together; they are also killed if the server dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// WaitDelay bounds the wait for the pipes if something else holds
	// them open.
	cmd.WaitDelay = time.Second
	stderr := &cappedBuffer{max: stderrLimit}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return runResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return runResult{exitCode: -1}, err
	}
	if err := limitMemory(cmd.Process.Pid, budgets.memory); err != nil {
		cmd.Cancel()
		cmd.Wait()
		return runResult{exitCode: -1}, fmt.Errorf("limiting the memory of %s: %w", j.prog, err)
	}
	var res runResult
	res.stdout, err = io.ReadAll(io.LimitReader(out, j.maxOut+1))
	if int64(len(res.stdout)) > j.maxOut {
		res.overflow = true
		res.stdout = res.stdout[:j.maxOut]
		cancel()
	}
	waitErr := cmd.Wait()
	res.stderr = stderr.String()
	res.exitCode = cmd.ProcessState.ExitCode()
	if cerr := context.Cause(ctx); cerr != nil {
		return res, cerr
	}
	if context.Cause(jctx) == errChildTimeout {
		return res, &budgetError{timeout: j.timeout}
	}
	if outOfMemory(stderr.head.Bytes()) || outOfMemory(stderr.tail) {
		return res, &budgetError{memory: budgets.memory}
	}
	if res.overflow {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return res, waitErr
	}
	return res, nil
}

// limitMemory limits the address space of process pid to n bytes. Go
// cannot set a child's limits between fork and exec, so it is set just
// after the exec, while the program is still being loaded and long before
// it reads its input.
func limitMemory(pid int, n uint64) error {
	lim := syscall.Rlimit{Cur: n, Max: n}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_AS, uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// oomMarks are what the programs print when an allocation fails: poppler's
// gmem, leptonica (under tesseract), C++'s std::bad_alloc and strerror.
var oomMarks = [][]byte{[]byte("Out of memory"), []byte("out of memory"), []byte("malloc fail"), []byte("bad_alloc"), []byte("Cannot allocate memory")}

// outOfMemory reports whether stderr says an allocation failed. Poppler
// then still exits 0, with an empty or broken image.
func outOfMemory(stderr []byte) bool {
	for _, m := range oomMarks {
		if bytes.Contains(stderr, m) {
			return true
		}
	}
	return false
}

// cappedBuffer keeps the first max bytes written to it and the last
// stderrTail bytes, and drops the rest.
type cappedBuffer struct {
	head bytes.Buffer
	tail []byte
	max  int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.head.Len(); room > 0 {
		b.head.Write(p[:min(room, len(p))])
	}
	b.tail = append(b.tail, p[max(0, len(p)-stderrTail):]...)
	b.tail = b.tail[max(0, len(b.tail)-stderrTail):]
	return len(p), nil
}

// String is the start of what was written.
func (b *cappedBuffer) String() string { return b.head.String() }

// errDocumentBudget is the cause of a document's context when
// budgets.document ends.
var errDocumentBudget = errors.New("document time budget ended")

// childError turns run's error for the program that did what (such as
// "rendering page 3 of report.pdf") into the document's error: a
// RESOURCE_LIMIT naming what and the budget it went over, ctxError when
// ctx ended, and err itself otherwise.
func childError(ctx context.Context, err error, name, what string) error {
	var be *budgetError
	if errors.As(err, &be) {
		hint := "the document is too complex to read here: split it, or print it to a new PDF and upload that"
		if be.timeout == 0 {
			hint = "the page is too large or complex to read here: print the document to a new PDF at a normal page size and upload that"
		}
		return quarry.Errorf(quarry.ECodeResourceLimit, "%s went %s", what, be).WithHint(hint)
	}
	if ctx.Err() != nil {
		return ctxError(ctx, name)
	}
	return err
}

// ctxError is the error for a document whose reading ctx ended: a
// RESOURCE_LIMIT when it went over budgets.document, else an UNAVAILABLE
// *quarry.Error that also wraps ctx's error, so that both
// quarry.ErrorCode and errors.Is work on it.
func ctxError(ctx context.Context, name string) error {
	if errors.Is(context.Cause(ctx), errDocumentBudget) {
		return quarry.Errorf(quarry.ECodeResourceLimit, "reading %s went over its time budget of %s", name, duration(budgets.document)).
			WithHint("split the document into smaller files")
	}
	err := ctx.Err()
	if err == nil {
		err = context.Canceled
	}
	msg := fmt.Sprintf("reading %s was cancelled", name)
	if errors.Is(err, context.DeadlineExceeded) {
		msg = fmt.Sprintf("reading %s did not finish in time", name)
	}
	q := quarry.Errorf(quarry.ECodeUnavailable, "%s", msg).WithHint("try again; a very large or complex document may need to be split")
	return fmt.Errorf("%w: %w", q, err)
}

// duration writes d for a person: "2 minutes", "30 seconds", "200ms".
func duration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	case d >= time.Second && d%time.Second == 0:
		if d == time.Second {
			return "1 second"
		}
		return fmt.Sprintf("%d seconds", d/time.Second)
	}
	return d.String()
}

// firstLine is the first non-empty line of s, for messages.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

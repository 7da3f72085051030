package docparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// stderrLimit is how much of a program's standard error is kept: poppler
// can print a line for every damaged object of a broken file.
const stderrLimit = 4 << 10

// tool returns the path of a poppler-utils program, or UNAVAILABLE.
func tool(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", quarry.Errorf(quarry.ECodeUnavailable, "reading PDF files needs %s from poppler-utils, which is not installed on the server", name).
			WithHint("install poppler-utils (apt-get install poppler-utils)")
	}
	return p, nil
}

// runResult is what a finished program left behind.
type runResult struct {
	stdout   []byte
	stderr   string
	exitCode int  // -1 when it did not start or was killed
	overflow bool // stdout went past its limit and the program was stopped
}

// run runs a program with at most maxOut bytes of standard output kept. It
// returns an error only when ctx ended or the program could not start; a
// failing program is reported in the result.
func run(ctx context.Context, maxOut int64, env []string, prog string, args ...string) (runResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	if env != nil {
		cmd.Env = append(cmd.Environ(), env...)
	}
	// The program is killed when ctx ends; WaitDelay bounds the wait for
	// its pipes if something else holds them open.
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
	var res runResult
	res.stdout, err = io.ReadAll(io.LimitReader(out, maxOut+1))
	if int64(len(res.stdout)) > maxOut {
		res.overflow = true
		res.stdout = res.stdout[:maxOut]
		cancel()
	}
	waitErr := cmd.Wait()
	res.stderr = stderr.String()
	res.exitCode = cmd.ProcessState.ExitCode()
	if cerr := context.Cause(ctx); cerr != nil && !res.overflow {
		return res, cerr
	}
	if err != nil && !res.overflow {
		return res, err
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !res.overflow {
		return res, waitErr
	}
	return res, nil
}

// cappedBuffer keeps the first max bytes written to it and drops the rest.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// ctxError is the error for a document whose reading ctx ended. It is an
// UNAVAILABLE *quarry.Error that also wraps ctx's error, so that both
// quarry.ErrorCode and errors.Is work on it.
func ctxError(ctx context.Context, name string) error {
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

// firstLine is the first non-empty line of s, for messages.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

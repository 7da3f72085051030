package sweep_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// budget bounds one child process: its wall time and its resident memory.
type budget struct {
	timeout time.Duration
	rssMB   int64
}

// pollEvery is how often a child's resident memory is read. A runaway that
// grows by gigabytes a second passes the budget by at most a few hundred
// megabytes before it is killed.
const pollEvery = 100 * time.Millisecond

// child is what one child process did.
type child struct {
	exit    int    // exit status; -1 when it was killed or did not start
	killed  string // "timeout" or "memory budget" when the harness killed it
	stdout  []byte
	stderr  []byte
	seconds float64
	peakMB  float64 // the larger of the polled VmRSS and the kernel's ru_maxrss
	budget  budget
}

// runChild runs name with args in dir, in a process group of its own, with
// only the environment env, and kills the whole group when it outlives
// b.timeout or its resident memory passes b.rssMB.
func runChild(dir string, env []string, b budget, name string, args ...string) child {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return child{exit: -1, stderr: []byte(err.Error()), budget: b}
	}
	pid := cmd.Process.Pid
	done := make(chan struct{})
	var (
		mu       sync.Mutex
		killed   string
		polledKB int64
	)
	kill := func(why string) {
		mu.Lock()
		if killed == "" {
			killed = why
		}
		mu.Unlock()
		// The negative pid is the process group: quarry and anything it
		// started.
		syscall.Kill(-pid, syscall.SIGKILL)
	}
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		tick := time.NewTicker(pollEvery)
		defer tick.Stop()
		deadline := time.NewTimer(b.timeout)
		defer deadline.Stop()
		for {
			select {
			case <-done:
				return
			case <-deadline.C:
				kill("timeout")
				return
			case <-tick.C:
				kb, hwm := vmRSSKB(pid)
				mu.Lock()
				polledKB = max(polledKB, kb, hwm)
				mu.Unlock()
				if kb > b.rssMB<<10 {
					kill("memory budget")
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	watch.Wait()
	// Whatever the child left behind in its group goes with it.
	syscall.Kill(-pid, syscall.SIGKILL)

	c := child{exit: cmd.ProcessState.ExitCode(), killed: killed, stdout: stdout.Bytes(), stderr: stderr.Bytes(),
		seconds: time.Since(start).Seconds(), budget: b}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		c.stderr = append(c.stderr, []byte("\n"+err.Error())...)
	}
	// The kernel's ru_maxrss sees the last moments the polls miss. A child
	// that os/exec starts shares the test process's memory until its exec
	// (vfork), and Linux keeps the larger peak across the exec, so it also
	// counts the test process's own peak: the sweep keeps that small and
	// prints it.
	maxKB := polledKB
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxKB = max(maxKB, ru.Maxrss) // kilobytes on Linux
	}
	c.peakMB = float64(maxKB) / 1024
	return c
}

// vmRSSKB reads the resident set size of pid and its peak so far (VmRSS
// and VmHWM in /proc/PID/status), in kilobytes; 0 once the process is gone.
func vmRSSKB(pid int) (rss, hwm int64) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		switch name {
		case "VmHWM":
			hwm = kb
		case "VmRSS":
			return kb, hwm // VmRSS follows VmHWM
		}
	}
	return 0, hwm
}

// quarryError is the code, message and hint of the error a quarry command
// printed on stderr ("quarry: error CODE: MESSAGE", then "hint: HINT").
type quarryError struct{ code, message, hint string }

// parseQuarryError finds the error quarry printed on stderr; ok is false
// when it printed none in that form.
func parseQuarryError(stderr []byte) (e quarryError, ok bool) {
	for line := range strings.SplitSeq(string(stderr), "\n") {
		if rest, found := strings.CutPrefix(line, "quarry: error "); found {
			code, msg, _ := strings.Cut(rest, ": ")
			e, ok = quarryError{code: code, message: msg}, true
			continue
		}
		if rest, found := strings.CutPrefix(line, "hint: "); found && ok {
			e.hint = rest
		}
	}
	return e, ok
}

// panicked reports whether a Go program's stderr shows a panic or a fatal
// runtime error.
func panicked(stderr []byte) bool {
	return bytes.Contains(stderr, []byte("panic: ")) || bytes.Contains(stderr, []byte("fatal error: ")) ||
		bytes.Contains(stderr, []byte("goroutine 1 [")) || bytes.Contains(stderr, []byte("SIGSEGV"))
}

// tail returns the last n bytes of b, for a failure message.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}

func (c child) String() string {
	return fmt.Sprintf("exit %d %s %.1fs %.0f MB", c.exit, c.killed, c.seconds, c.peakMB)
}

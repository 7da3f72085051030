// Package otherprocess lets a test run part of itself in a second process:
// the test binary is started again, takes something (a file lock, an open
// log) as another Quarry process would, and keeps it until the test lets go
// or kills it. It is how the cross-process guarantees of the audit log and
// the session store are tested for real.
package otherprocess

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Hold is what the second process does: take hold of what arg names and
// return the function that lets go.
type Hold func(arg string) (release func() error, err error)

// Main is a package's TestMain body. Started by Start, the binary runs hold
// with Start's arg, prints "held" and waits for its standard input to close;
// otherwise it runs the tests.
func Main(m *testing.M, env string, hold Hold) {
	arg := os.Getenv(env)
	if arg == "" {
		os.Exit(m.Run())
	}
	release, err := hold(arg)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("held")
	bufio.NewReader(os.Stdin).ReadString('\n')
	release()
	os.Exit(0)
}

// Start starts the test binary as a second process that holds arg (see
// Main) and returns once it does. The process ends with the test; kill it
// to see what a process that dies leaves behind.
func Start(t *testing.T, env, arg string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+arg)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "held\n" {
		t.Fatalf("second process: %q", line)
	}
	return cmd
}

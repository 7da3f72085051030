// Package pgtest starts private PostgreSQL servers for tests: initdb into
// a temporary directory, the server on 127.0.0.1 at a free port with its
// own socket directory, run as the postgres user when the test runs as
// root (initdb refuses root), and a fresh database for each caller.
//
// Without PostgreSQL (initdb in PATH or /usr/lib/postgresql/*/bin) a test
// that needs it skips, except under CI=true, where it fails.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server is a running PostgreSQL server.
type Server struct {
	// DSN reaches the server's postgres database as the superuser
	// postgres, by password over TCP.
	DSN      string
	Password string
	Port     int
	dir      string
	cmd      *exec.Cmd
	exited   chan struct{}
	dbs      atomic.Int64
}

var shared struct {
	sync.Mutex
	enabled bool
	srv     *Server
	err     error
}

// Main runs the package's tests with one server for all of them, started
// by the first Start and stopped at the end: call it from TestMain.
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	shared.Lock()
	shared.enabled = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	if shared.srv != nil {
		shared.srv.Stop()
	}
	shared.Unlock()
	os.Exit(code)
}

// Start returns the DSN of a new, empty database on a private server: the
// package's shared server under Main, otherwise one of its own, stopped
// when the test ends. It skips the test without PostgreSQL, or fails it
// under CI=true.
func Start(t testing.TB) string {
	t.Helper()
	bin := Require(t)
	var srv *Server
	var err error
	shared.Lock()
	if shared.enabled {
		if shared.srv == nil && shared.err == nil {
			shared.srv, shared.err = StartServer(bin)
		}
		srv, err = shared.srv, shared.err
	} else {
		srv, err = StartServer(bin)
		if err == nil {
			t.Cleanup(srv.Stop)
		}
	}
	shared.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	dsn, err := srv.CreateDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// Require returns FindBin's directory, or skips the test without
// PostgreSQL, or fails it under CI=true.
func Require(t testing.TB) string {
	t.Helper()
	bin, err := FindBin()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("%v; install Debian's postgresql to run this test", err)
	}
	return bin
}

// Exec runs statements on the database of dsn (as its owner, not
// read-only), failing the test on an error: a fixture's tables and rows.
func Exec(t testing.TB, dsn string, stmts ...string) {
	t.Helper()
	ctx, conn := connect(t, dsn)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// FindBin returns the directory of PostgreSQL's initdb and postgres: the
// one of initdb in PATH, else the newest /usr/lib/postgresql/*/bin.
func FindBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if dir := filepath.Dir(p); executable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL not found: no initdb in PATH or /usr/lib/postgresql/*/bin")
}

func version(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// StartServer initializes a cluster in a temporary directory and starts
// it; Stop stops it and removes the directory.
func StartServer(bin string) (*Server, error) {
	cred, uid, gid, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, Password: randomHex(12)}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	sock := filepath.Join(dir, "sock")
	pwfile := filepath.Join(dir, "pw")
	if err := os.Mkdir(sock, 0o700); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(pwfile, []byte(s.Password+"\n"), 0o600); err != nil {
		return fail(err)
	}
	if cred != nil {
		for _, p := range []string{dir, sock, pwfile} {
			if err := os.Chown(p, uid, gid); err != nil {
				return fail(err)
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres",
		"--pwfile="+pwfile, "--auth-local=trust", "--auth-host=scram-sha-256",
		"-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	initdb.Dir = dir
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	os.Remove(pwfile)
	for attempt := 1; ; attempt++ {
		err := s.start(bin, sock, cred)
		if err == nil {
			return s, nil
		}
		if attempt == 3 {
			return fail(err)
		}
	}
}

// start runs the server at a free port and waits until it answers. The
// server is a child of a locked thread with a parent-death signal, so it
// does not outlive a test binary that is killed.
func (s *Server) start(bin, sock string, cred *syscall.Credential) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	logf, err := os.Create(filepath.Join(s.dir, "server.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	// Durability is off for speed; the shared buffers hold a benchmark
	// room of 50,000 chunks with its vectors and indexes, as those of a
	// server sized for its data would.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(s.dir, "data"),
		"-p", strconv.Itoa(port), "-k", sock,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=30", "-c", "shared_buffers=512MB")
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	started := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		// Pdeathsig follows the thread that started the child: keep it.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			close(exited)
			return
		}
		started <- nil
		cmd.Wait()
		close(exited)
	}()
	if err := <-started; err != nil {
		return err
	}
	s.cmd, s.exited, s.Port = cmd, exited, port
	s.DSN = s.dsn("postgres")
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, s.DSN)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("postgres exited: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			log, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("postgres did not answer within 30s: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *Server) dsn(db string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword("postgres", s.Password),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// CreateDatabase creates a new empty database and returns its DSN.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test_%d", s.dbs.Add(1))
	conn, err := pgx.Connect(ctx, s.DSN)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return s.dsn(name), nil
}

// Stop shuts the server down (fast shutdown, then a kill after 10 s) and
// removes its directory.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			s.kill()
		}
	}
	os.RemoveAll(s.dir)
}

func (s *Server) kill() {
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
}

// runAs returns the credential of the postgres user when running as root
// (nil otherwise).
func runAs() (cred *syscall.Credential, uid, gid int, err error) {
	if os.Geteuid() != 0 {
		return nil, 0, 0, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, 0, 0, fmt.Errorf("running as root, PostgreSQL needs the postgres user: %v", err)
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid, gid, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Dir is the server's directory (data, socket, log).
func (s *Server) Dir() string { return s.dir }

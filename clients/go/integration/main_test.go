// Package integration tests the generated Go clients against a real Quarry server.
//
// TestMain starts scripts/test-server.ts (the embedded engine with known rows, on a free port)
// with node from the repository root, runs the tests, and stops it by its process id. With
// QUARRY_URL set, the tests use that server instead and start none.
package integration_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// baseURL is the server under test, e.g. http://127.0.0.1:40123.
var baseURL string

func TestMain(m *testing.M) {
	if url := os.Getenv("QUARRY_URL"); url != "" {
		baseURL = strings.TrimRight(url, "/")
		os.Exit(m.Run())
	}
	server, err := startServer()
	if err != nil {
		fmt.Fprintf(os.Stderr, "could not start the Quarry test server: %v\n", err)
		os.Exit(1)
	}
	baseURL = server.url
	code := m.Run()
	if err := server.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping the Quarry test server: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

type testServer struct {
	url   string
	cmd   *exec.Cmd
	stdin io.Closer
	done  chan error
}

// repoRoot is the Quarry checkout this module lives in (clients/go/integration/../../..).
func repoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot tell where this test file is")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "node_modules", "tsx")); err != nil {
		return "", fmt.Errorf("%s has no node_modules/tsx: run `npm install` in the repository first", root)
	}
	return root, nil
}

func startServer() (*testServer, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	// node itself, not npx or the tsx CLI: the process id held here is the server's.
	cmd := exec.Command("node", "--import", "tsx", "scripts/test-server.ts")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The server stops when its stdin closes, so it cannot outlive this process.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	server := &testServer{cmd: cmd, stdin: stdin, done: make(chan error, 1)}

	urls := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if url, ok := strings.CutPrefix(scanner.Text(), "QUARRY_URL="); ok {
				urls <- url
			}
		}
		// Keep draining until the process exits, then report how it ended.
		server.done <- cmd.Wait()
	}()
	select {
	case server.url = <-urls:
		return server, nil
	case err := <-server.done:
		return nil, fmt.Errorf("scripts/test-server.ts exited before serving: %v", err)
	case <-time.After(3 * time.Minute):
		_ = server.stop()
		return nil, errors.New("scripts/test-server.ts printed no QUARRY_URL within 3 minutes")
	}
}

// stop sends SIGTERM to the server's process id and waits for it (SIGKILL after 20 s).
func (s *testServer) stop() error {
	defer s.stdin.Close()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case err := <-s.done:
		return err
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("pid %d did not exit within 20 s of SIGTERM; killed", s.cmd.Process.Pid)
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWorkerDiesWithSupervisor: when the dpcheck process is killed with
// SIGKILL (which it cannot handle), the worker checking for it is not left
// running alone: it exits at once. The worker here reads standard input
// from a pipe the test never closes, so that it would never end by
// itself.
func TestWorkerDiesWithSupervisor(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process")
	}
	if runtime.GOOS != "linux" {
		t.Skip("finds the worker in /proc")
	}
	stdin, hold, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	cmd := dpcheckCommand(nil, "-") // output to /dev/null: no pipe of the test's for the worker to hold
	cmd.Stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	worker := waitWorker(t, cmd.Process.Pid)
	t.Cleanup(func() { _ = syscall.Kill(worker, syscall.SIGKILL) }) // if it outlived the test
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for range 6000 { // it is gone in milliseconds; without the fix, never
		if !running(worker) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the worker %d still runs after dpcheck was killed", worker)
}

// TestWorkerWatchesThePipe: the pipe alone, as on a system without
// Linux's parent-death signal, ends the worker when its write end is
// closed (the supervisor gone), with the exit status workerOrphaned. The
// worker is started by the test, waiting on standard input that never
// ends.
func TestWorkerWatchesThePipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the worker as a process")
	}
	stdin, hold, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := dpcheckCommand([]string{workerEnv + "=1", parentPipeEnv + "=3"}, "-")
	cmd.Stdin, cmd.ExtraFiles = stdin, []*os.File{r}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	r.Close()
	w.Close() // the supervisor is gone
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute): // it ends in milliseconds; without the watch, never
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("the worker still runs after its supervisor's pipe was closed")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != workerOrphaned {
		t.Errorf("the worker ended with %v, want exit status %d", err, workerOrphaned)
	}
}

// waitWorker returns the pid of the worker of the supervisor pid.
func waitWorker(t *testing.T, pid int) int {
	t.Helper()
	for range 6000 {
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		for _, p := range stats {
			if f := procStat(p); len(f) > 1 && f[1] == strconv.Itoa(pid) {
				w, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
				return w
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no worker ran")
	return 0
}

// procStat is the fields of a /proc/PID/stat file after the command's
// name: state, ppid, …; nil when it cannot be read.
func procStat(path string) []string {
	b, err := os.ReadFile(path)
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// running reports whether process pid exists and is not a zombie (one
// that has exited, not yet reaped).
func running(pid int) bool {
	f := procStat("/proc/" + strconv.Itoa(pid) + "/stat")
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

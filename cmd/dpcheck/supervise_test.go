package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWorkerExit: the worker's own statuses pass through; every other end
// of it is exit status 4 with a message, but a second Ctrl-C, which kills
// it as the user asked.
func TestWorkerExit(t *testing.T) {
	exited := func(code int) syscall.WaitStatus { return syscall.WaitStatus(code << 8) }
	for _, tt := range []struct {
		ws   syscall.WaitStatus
		want int
		says string
	}{
		{exited(workerBase + exitPass), exitPass, ""},
		{exited(workerBase + exitFail), exitFail, ""},
		{exited(workerBase + exitInvalid), exitInvalid, ""},
		{exited(workerBase + exitAborted), exitAborted, ""},
		{exited(workerBase + exitInternal), exitInternal, ""},
		{exited(2), exitInternal, "the checking process failed (exit status 2; what it printed is above)"},
		{exited(0), exitInternal, "the checking process failed (exit status 0;"},
		{syscall.WaitStatus(syscall.SIGKILL), exitInternal, "killed (SIGKILL), perhaps by the system for lack of memory"},
		{syscall.WaitStatus(syscall.SIGSEGV), exitInternal, "killed by segmentation fault"},
		{syscall.WaitStatus(syscall.SIGINT), 130, ""},
		{syscall.WaitStatus(syscall.SIGTERM), exitAborted, "dpcheck: terminated (SIGTERM)"},
	} {
		var stderr bytes.Buffer
		if got := workerExit(tt.ws, &stderr); got != tt.want {
			t.Errorf("%v: exit %d, want %d", tt.ws, got, tt.want)
		}
		if tt.says == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), tt.says) {
			t.Errorf("%v: says %q, want %q", tt.ws, stderr.String(), tt.says)
		}
	}
}

// dpcheckCommand is the test binary acting as the dpcheck command (see
// TestMain).
func dpcheckCommand(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "DPCHECK_TEST_MAIN=1"), env...)
	return cmd
}

// TestCrashExits4: a Go fatal error, a panic in a goroutine or a kill of
// the process that checks is exit status 4, "dpcheck failed", never 2, the
// status of a broken input.
func TestCrashExits4(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as processes")
	}
	for _, kind := range []string{"stack", "panic", "kill"} {
		cmd := dpcheckCommand([]string{"DPCHECK_TEST_CRASH=" + kind}, "testdata/pass.dp")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInternal {
			t.Errorf("%s: %v, want exit status 4", kind, err)
		}
		if !strings.Contains(stderr.String(), "dpcheck: internal error — the checking process") {
			t.Errorf("%s: stderr ends %q", kind, tail(stderr.String()))
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-300):] }

// TestSIGTERMWritesTheReport: SIGTERM, as a CI system cancels a job, stops
// the check like Ctrl-C: the report of what was checked is written, the
// cut-off statement shows STOP, and the exit status is 3.
func TestSIGTERMWritesTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "big.dp")
	// Checking a million states takes seconds: long enough to be stopped.
	src := "model above_threshold(n = 100, k = 100)\nquery eps(delta = 0)\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := dpcheckCommand(nil, file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal once the worker handles SIGTERM (not when the clock says so).
	waitHandlesSIGTERM(t, cmd.Process.Pid)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitAborted {
		t.Fatalf("%v, want exit status 3; stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "dpcheck: terminated (SIGTERM)") || !strings.Contains(stdout.String(), "stopped") {
		t.Errorf("stdout %q\nstderr %q", stdout.String(), stderr.String())
	}
}

// waitHandlesSIGTERM waits until the supervisor pid has a worker that has
// run for 1 s of CPU time, long past the start of main where it begins to
// handle SIGTERM, even on a loaded machine where the test binary's own
// initialisation costs more CPU (Linux's /proc tells; the time is the
// worker's progress, not the clock's; the check it stops takes far
// longer).
func waitHandlesSIGTERM(t *testing.T, pid int) {
	t.Helper()
	for range 6000 {
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		for _, p := range stats {
			b, _ := os.ReadFile(p)
			i := bytes.LastIndexByte(b, ')')
			if i < 0 {
				continue
			}
			f := strings.Fields(string(b[i+1:])) // state ppid … utime(12) stime(13)
			if len(f) < 13 || f[1] != strconv.Itoa(pid) {
				continue
			}
			ut, _ := strconv.Atoi(f[11])
			st, _ := strconv.Atoi(f[12])
			if ut+st >= 100 { // clock ticks, 100 a second
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no worker ran")
}

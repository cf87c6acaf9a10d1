package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
)

// The command runs its checks in a child process, the worker, and waits
// for it. Go ends a process that hits a fatal error (a stack overflow, or
// the system refusing memory) with exit status 2, which is dpcheck's status
// for a broken input: a CI gate would read a crash of dpcheck as a bad
// file. The worker exits with workerBase plus its status, so any other end
// of it — a fatal error, a signal that killed it — is the supervisor's exit
// status 4, "dpcheck failed", with a message.
const (
	// workerEnv, set to 1, makes the process the worker: it checks the
	// files itself.
	workerEnv = "DPCHECK_WORKER"
	// workerBase is added to the worker's exit status.
	workerBase = 64
	// parentPipeEnv names the worker's file descriptor of the read end
	// of a pipe whose write end only the supervisor holds: when the
	// supervisor dies (even by SIGKILL), the worker reads EOF there and
	// exits at once with workerOrphaned, instead of checking on alone
	// and holding its memory until its own limits speak.
	parentPipeEnv = "DPCHECK_PARENT_PIPE"
	// workerOrphaned is the worker's exit status when its supervisor is
	// gone; nobody reads it.
	workerOrphaned = workerBase + 32
)

// supervise runs the command's arguments in a worker process with the same
// standard input, output and error, forwards SIGINT and SIGTERM to it as a
// request to stop (SIGTERM, which it always handles, so that a Ctrl-C the
// terminal sends to both processes is not counted twice), and returns the
// exit status. ok is false when no worker could be started; the caller
// then checks in its own process.
//
// The worker dies with the supervisor: it watches a pipe the supervisor
// holds open (see parentPipeEnv), and on Linux the kernel kills it too
// when the supervisor's thread ends (dieWithParent).
func supervise(args []string, stderr io.Writer) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, false
	}
	defer w.Close() // only when the worker has ended: until then it is open
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	if runtime.GOOS != "windows" { // which passes no other files
		// ExtraFiles[0] is the worker's file descriptor 3.
		cmd.Env = append(cmd.Env, parentPipeEnv+"=3")
		cmd.ExtraFiles = []*os.File{r}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	dieWithParent(cmd)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = cmd.Start()
	r.Close() // the worker's end
	if err != nil {
		return 0, false
	}
	go func() {
		for range sigs {
			_ = cmd.Process.Signal(syscall.SIGTERM)
		}
	}()
	_ = cmd.Wait() // the status says what happened
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return workerExit(ws, stderr), true
}

// watchParent makes the worker exit with workerOrphaned as soon as its
// supervisor is gone: the pipe named by parentPipeEnv then reads EOF.
// Without the variable (a worker started otherwise) it does nothing.
func watchParent() {
	fd, err := strconv.Atoi(os.Getenv(parentPipeEnv))
	if err != nil || fd < 3 {
		return
	}
	f := os.NewFile(uintptr(fd), "supervisor")
	if f == nil {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, f) // nothing is ever written: it returns when the supervisor is gone
		os.Exit(workerOrphaned)
	}()
}

// workerExit turns how the worker ended into the command's exit status,
// and tells the user when dpcheck itself failed.
func workerExit(ws syscall.WaitStatus, stderr io.Writer) int {
	switch {
	case ws.Exited() && ws.ExitStatus() >= workerBase && ws.ExitStatus() <= workerBase+exitInternal:
		return ws.ExitStatus() - workerBase
	case ws.Signaled() && ws.Signal() == syscall.SIGINT:
		return 128 + int(syscall.SIGINT) // a second Ctrl-C: killed at once, as asked
	case ws.Signaled() && ws.Signal() == syscall.SIGTERM:
		// Only before it handles SIGTERM, at its very start: nothing was
		// checked.
		fmt.Fprintln(stderr, "dpcheck: terminated (SIGTERM)")
		return exitAborted
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
		fmt.Fprintln(stderr, "dpcheck: internal error — the checking process was killed (SIGKILL), perhaps by the system for lack of memory: lower --max-memory, or report it with the file that caused it")
	case ws.Signaled():
		fmt.Fprintf(stderr, "dpcheck: internal error — the checking process was killed by %v: please report it, with the file that caused it\n", ws.Signal())
	default:
		fmt.Fprintf(stderr, "dpcheck: internal error — the checking process failed (exit status %d; what it printed is above): please report it, with the file that caused it\n", ws.ExitStatus())
	}
	return exitInternal
}

// stopSignals returns a context that ends at the first SIGINT or SIGTERM,
// with the signal as its cause (context.Cause is a stopSignal). A second
// SIGINT (Ctrl-C pressed again) kills the process at once; SIGTERM only
// ever asks it to stop, however often it comes, so that the process writes
// what it has checked.
func stopSignals() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			if s == os.Interrupt {
				signal.Reset(os.Interrupt)
			}
			cancel(stopSignal{s})
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

// stopSignal is the cause of a run stopped by a signal.
type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string {
	if s.sig == syscall.SIGTERM {
		return "terminated (SIGTERM)"
	}
	return "interrupted"
}

func (s stopSignal) Unwrap() error { return context.Canceled }

// stoppedBy says why ctx ended: "interrupted", "terminated (SIGTERM)".
func stoppedBy(ctx context.Context) string {
	var s stopSignal
	if errors.As(context.Cause(ctx), &s) {
		return s.Error()
	}
	return "interrupted"
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
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
)

// supervise runs the command's arguments in a worker process with the same
// standard input, output and error, forwards SIGINT and SIGTERM to it as a
// request to stop (SIGTERM, which it always handles, so that a Ctrl-C the
// terminal sends to both processes is not counted twice), and returns the
// exit status. ok is false when no worker could be started; the caller
// then checks in its own process.
func supervise(args []string, stderr io.Writer) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
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

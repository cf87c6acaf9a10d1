package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent asks Linux to kill the worker when the supervisor's thread
// ends (the pipe of parentPipeEnv tells the worker as well, on every
// system). The kernel watches the thread that started the worker, so the
// supervisor stays on that thread until it exits.
func dieWithParent(cmd *exec.Cmd) {
	runtime.LockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

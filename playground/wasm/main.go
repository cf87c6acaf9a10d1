//go:build js && wasm

// Command wasm is dpcheck compiled to WebAssembly for the playground's
// page (GOOS=js GOARCH=wasm; go generate ./playground builds it). It runs
// in a Web Worker and defines one JavaScript function there:
//
//	dpcheckCheck(request, onProgress, onDone, stopped)
//
// request is an engine.Request as JSON; onProgress(stage, done, total)
// is called as the check goes; onDone(response) receives the
// engine.Response as JSON, once. stopped(), when given, is asked as the
// check goes whether the page wants it stopped (it reads a flag the page
// sets in shared memory): the check's context is then cancelled, and the
// response is the report of a stopped check, with the statements
// finished so far. A check holds the worker's only thread, so the page
// cannot call into the module while it runs; a check that does not come
// to ask soon enough is stopped by ending the worker (Worker.terminate).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/playground/engine"
	"github.com/dpcheck/dpcheck/verify"
)

// maxMemory bounds what a check in a browser tab may hold: a wasm32
// module addresses 4 GiB at most, and a tab much less comfortably.
const maxMemory = 1 << 30

// progressEvery is how often progress reaches the page.
const progressEvery = 100 * time.Millisecond

func main() {
	debug.SetMemoryLimit(maxMemory)
	check := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return nil
		}
		var req engine.Request
		onProgress, onDone := args[1], args[2]
		stopped := js.Undefined()
		if len(args) > 3 {
			stopped = args[3]
		}
		if err := json.Unmarshal([]byte(args[0].String()), &req); err != nil {
			onDone.Invoke(errorResponse(err))
			return nil
		}
		ctx, stop := context.WithCancel(context.Background())
		go func() {
			defer stop()
			defer func() { // a bug is an answer, not a page that waits for ever
				if r := recover(); r != nil {
					onDone.Invoke(errorResponse(fmt.Errorf("internal error — please report it, with the file that caused it: %v\n\n%s", r, debug.Stack())))
				}
			}()
			ctx := verify.WithProgress(ctx, throttle(onProgress, stopped, stop))
			cfg := dpcheck.Config{Limits: model.Limits{MaxMemory: maxMemory}}
			resp, err := engine.Check(ctx, cfg, req)
			if err != nil {
				onDone.Invoke(errorResponse(err))
				return
			}
			b, _ := json.Marshal(resp)
			onDone.Invoke(string(b))
		}()
		return nil
	})
	js.Global().Set("dpcheckCheck", check)
	js.Global().Set("dpcheckVersion", dpcheck.Version)
	select {} // serve the page's calls until the worker ends
}

// throttle passes progress to the page at most every progressEvery, asks
// the page then whether to stop (and cancels the check if so), and lets
// the other goroutines run (the memory watch): a check holds the only
// thread a WebAssembly module has.
func throttle(onProgress, stopped js.Value, cancel context.CancelFunc) func(verify.Progress) {
	var last time.Time
	return func(p verify.Progress) {
		runtime.Gosched()
		if now := time.Now(); now.Sub(last) >= progressEvery || p.Total == 0 {
			last = now
			onProgress.Invoke(p.Stage, p.Done, p.Total)
			if stopped.Type() == js.TypeFunction && stopped.Invoke().Truthy() {
				cancel()
			}
		}
	}
}

// errorResponse is the response of a check that could not be made.
func errorResponse(err error) string {
	b, _ := json.Marshal(engine.Response{Status: "internal", Text: "dpcheck: " + err.Error() + "\n"})
	return string(b)
}

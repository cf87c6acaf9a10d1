//go:build js && wasm

// Command wasm is dpcheck compiled to WebAssembly for the playground's
// page (GOOS=js GOARCH=wasm; go generate ./playground builds it). It runs
// in a Web Worker and defines one JavaScript function there:
//
//	dpcheckCheck(request, onProgress, onDone)
//
// request is an engine.Request as JSON; onProgress(stage, done, total)
// is called as the check goes; onDone(response) receives the
// engine.Response as JSON, once. dpcheckCancel() cancels the check under
// way at its next pause. A check holds the worker's only thread: the page
// stops a long one at once by ending the worker (Worker.terminate).
package main

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"sync"
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
	var mu sync.Mutex
	var cancel context.CancelFunc = func() {}
	check := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return nil
		}
		var req engine.Request
		onProgress, onDone := args[1], args[2]
		if err := json.Unmarshal([]byte(args[0].String()), &req); err != nil {
			onDone.Invoke(errorResponse(err))
			return nil
		}
		ctx, stop := context.WithCancel(context.Background())
		mu.Lock()
		cancel = stop
		mu.Unlock()
		go func() {
			defer stop()
			ctx := verify.WithProgress(ctx, throttle(onProgress))
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
	js.Global().Set("dpcheckCancel", js.FuncOf(func(js.Value, []js.Value) any {
		mu.Lock()
		cancel()
		mu.Unlock()
		return nil
	}))
	js.Global().Set("dpcheckVersion", dpcheck.Version)
	select {} // serve the page's calls until the worker ends
}

// throttle passes progress to the page at most every progressEvery, and
// lets the other goroutines run (the memory watch, a deadline): a check
// holds the only thread a WebAssembly module has.
func throttle(onProgress js.Value) func(verify.Progress) {
	var last time.Time
	return func(p verify.Progress) {
		runtime.Gosched()
		if now := time.Now(); now.Sub(last) >= progressEvery || p.Total == 0 {
			last = now
			onProgress.Invoke(p.Stage, p.Done, p.Total)
		}
	}
}

// errorResponse is the response of a check that could not be made.
func errorResponse(err error) string {
	b, _ := json.Marshal(engine.Response{Status: "internal", Text: "dpcheck: " + err.Error() + "\n"})
	return string(b)
}

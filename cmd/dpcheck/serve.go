package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/dpcheck/dpcheck/playground"
)

//go:embed serve_usage.txt
var serveUsage string

// runServe is "dpcheck serve": the playground on a local address until
// the context ends (Ctrl-C). The page and dpcheck compiled to
// WebAssembly are embedded in the binary; checks run in the browser.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("dpcheck serve", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	addr := fl.String("addr", "127.0.0.1:8080", "")
	help := fl.Bool("help", false, "")
	err := fl.Parse(args)
	if errors.Is(err, flag.ErrHelp) || err == nil && *help {
		fmt.Fprint(stdout, serveUsage)
		return exitPass
	}
	if err == nil && fl.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "dpcheck serve: %v\n\n%s", err, serveUsage)
		return exitInvalid
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "dpcheck serve: %v\n", err)
		return exitInvalid
	}
	srv := &http.Server{Handler: playground.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	url := "http://" + ln.Addr().String() + "/"
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(stderr, "dpcheck serve: warning: %s is reachable from other machines (the page is static: checks run in the browser)\n", ln.Addr())
		if ip != nil && ip.IsUnspecified() { // every interface: this machine's is one
			url = "http://127.0.0.1:" + port + "/"
		}
	}
	fmt.Fprintf(stdout, "dpcheck: the playground is at %s (Ctrl-C stops)\n", url)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "dpcheck serve: %v\n", err)
		return exitAborted
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	fmt.Fprintln(stderr, "dpcheck: the playground stopped")
	return exitPass
}

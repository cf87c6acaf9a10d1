package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer written by the server's goroutine and read by
// the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, &stdout, &stderr) }()
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for i := 0; i < 200 && url == ""; i++ {
		url = addr.FindString(stdout.String())
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		cancel()
		t.Fatalf("no address printed: %q %q", stdout.String(), stderr.String())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "dpcheck playground") {
		t.Errorf("GET %s: %d %.80q", url, resp.StatusCode, body)
	}
	cancel()
	if c := <-code; c != exitPass {
		t.Errorf("stopped: exit %d, want 0; stderr %q", c, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the playground stopped") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestServeUsage(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"serve", "--help"}, exitPass, "dpcheck serve [--addr HOST:PORT]"},
		{[]string{"serve", "--port", "1"}, exitInvalid, "dpcheck serve: flag provided but not defined: -port"},
		{[]string{"serve", "models/"}, exitInvalid, `dpcheck serve: unexpected argument "models/"`},
		{[]string{"serve", "--addr", busy.Addr().String()}, exitInvalid, "address already in use"},
		{[]string{"serve", "--addr", "no such host:x"}, exitInvalid, "dpcheck serve: listen tcp"},
	} {
		var stdout, stderr bytes.Buffer
		got := run(context.Background(), c.args, &stdout, &stderr)
		if got != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("dpcheck %s: exit %d (want %d), output %q, want it to contain %q", strings.Join(c.args, " "), got, c.code, stdout.String()+stderr.String(), c.out)
		}
	}
}

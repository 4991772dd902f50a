// Command echokernel is a minimal Jupyter kernel built on package jupyter
// with a toy interpreter, used to test the transport against real Jupyter
// clients (jupyter_client, jupyter_kernel_test) independently of the Go
// engine, and to measure the transport's start-up time (BenchmarkColdStart;
// the round trip is BenchmarkRoundTrip, and a whole goldp kernel against
// ipykernel is bench/kernel/bench.py).
//
// Usage:
//
//	echokernel -f connection.json
//
// Cells: "print(TEXT)" writes TEXT to stdout, "eprint(TEXT)" to stderr,
// "clear" clears the output, "display" shows a display_data, "input(PROMPT)" asks for a
// line and shows it, "error" fails, "sleep" blocks until interrupted, an
// empty cell shows nothing; anything else is shown as the cell's value.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/goldp/goldp/kernel/jupyter"
)

func main() {
	file := flag.String("f", "", "connection file")
	flag.Parse()
	ci, err := jupyter.LoadConnectionFile(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "echokernel:", err)
		os.Exit(1)
	}
	in := &echo{interrupt: make(chan struct{}, 1)}
	if err := jupyter.Serve(context.Background(), ci, in, jupyter.WithHistoryFile(os.Getenv("ECHOKERNEL_HISTORY"))); err != nil {
		fmt.Fprintln(os.Stderr, "echokernel:", err)
		os.Exit(1)
	}
}

type echo struct{ interrupt chan struct{} }

func (e *echo) Info() jupyter.LanguageInfo {
	return jupyter.LanguageInfo{Name: "echo", Version: "1.0", MIMEType: "text/plain", FileExtension: ".txt",
		Banner: "echo kernel", HelpLinks: []jupyter.HelpLink{{Text: "goldp", URL: "https://example.org/goldp"}}}
}

func (e *echo) Execute(ctx context.Context, req jupyter.ExecuteRequest, out jupyter.Output) jupyter.ExecuteReply {
	select { // forget an interrupt that arrived while idle
	case <-e.interrupt:
	default:
	}
	code := strings.TrimSpace(req.Code)
	switch {
	case code == "":
		return jupyter.ExecuteReply{Status: "ok"}
	case strings.HasPrefix(code, "print(") && strings.HasSuffix(code, ")"):
		out.Stream("stdout", strings.Trim(code[len("print("):len(code)-1], `"'`)+"\n")
		return jupyter.ExecuteReply{Status: "ok"}
	case strings.HasPrefix(code, "eprint(") && strings.HasSuffix(code, ")"):
		out.Stream("stderr", strings.Trim(code[len("eprint("):len(code)-1], `"'`)+"\n")
		return jupyter.ExecuteReply{Status: "ok"}
	case code == "clear":
		out.ClearOutput(false)
		return jupyter.ExecuteReply{Status: "ok"}
	case strings.HasPrefix(code, "input(") && strings.HasSuffix(code, ")"):
		v, err := out.Input(strings.Trim(code[len("input("):len(code)-1], `"'`), false)
		if err != nil {
			return jupyter.ExecuteReply{Status: "error", EName: "InputError", EValue: err.Error(), Traceback: []string{err.Error()}}
		}
		out.Stream("stdout", v+"\n")
		return jupyter.ExecuteReply{Status: "ok"}
	case code == "error":
		return jupyter.ExecuteReply{Status: "error", EName: "EchoError", EValue: "you asked for it", Traceback: []string{"EchoError: you asked for it"}}
	case code == "slow error": // time for the requests sent after it to arrive
		time.Sleep(300 * time.Millisecond)
		return jupyter.ExecuteReply{Status: "error", EName: "EchoError", EValue: "you asked for it", Traceback: []string{"EchoError: you asked for it"}}
	case code == "sleep":
		select {
		case <-e.interrupt:
			return jupyter.ExecuteReply{Status: "error", EName: "Interrupted", EValue: "interrupted", Traceback: []string{"Interrupted"}}
		case <-ctx.Done():
			return jupyter.ExecuteReply{Status: "error", EName: "Shutdown", EValue: "shut down"}
		}
	case code == "display":
		out.Display(map[string]any{"text/plain": "displayed"}, nil, "", false)
		return jupyter.ExecuteReply{Status: "ok"}
	}
	return jupyter.ExecuteReply{Status: "ok", Data: map[string]any{"text/plain": code}}
}

func (e *echo) Complete(ctx context.Context, code string, pos int) jupyter.CompleteReply {
	start := strings.LastIndexAny(code[:pos], " .(\n") + 1
	prefix := code[start:pos]
	var m []string
	for _, w := range []string{"print", "input", "error", "sleep", "display"} {
		if strings.HasPrefix(w, prefix) {
			m = append(m, w)
		}
	}
	return jupyter.CompleteReply{Matches: m, CursorStart: start, CursorEnd: pos}
}

func (e *echo) Inspect(ctx context.Context, code string, pos, detail int) jupyter.InspectReply {
	if strings.Contains(code, "print") {
		return jupyter.InspectReply{Found: true, Data: map[string]any{"text/plain": "print(TEXT) writes TEXT"}}
	}
	return jupyter.InspectReply{}
}

func (e *echo) IsComplete(ctx context.Context, code string) jupyter.IsCompleteReply {
	if strings.Count(code, "(") > strings.Count(code, ")") {
		return jupyter.IsCompleteReply{Status: "incomplete", Indent: "  "}
	}
	if strings.Count(code, "(") < strings.Count(code, ")") {
		return jupyter.IsCompleteReply{Status: "invalid"}
	}
	return jupyter.IsCompleteReply{Status: "complete"}
}

func (e *echo) Interrupt() {
	select {
	case e.interrupt <- struct{}{}:
	default:
	}
}

func (e *echo) Restart(ctx context.Context) error  { return nil }
func (e *echo) Shutdown(ctx context.Context) error { return nil }

package worker

import (
	"context"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/jupyter"
)

// Jupyter returns the Supervisor as the Interpreter the Jupyter server
// drives.
func (s *Supervisor) Jupyter() jupyter.Interpreter { return kernel{s} }

// kernel adapts a Supervisor to jupyter.Interpreter.
type kernel struct{ s *Supervisor }

func (k kernel) Info() jupyter.LanguageInfo { return k.s.opts.Info }

func (k kernel) Execute(ctx context.Context, req jupyter.ExecuteRequest, out jupyter.Output) jupyter.ExecuteReply {
	v, err := k.s.Execute(ctx, req.Code, sink{out, req.AllowStdin})
	if err != nil {
		e := cell.AsError(err)
		return jupyter.ExecuteReply{Status: "error", EName: e.Name, EValue: e.Error(), Traceback: e.Traceback}
	}
	r := jupyter.ExecuteReply{Status: "ok"}
	if len(v) > 0 {
		r.Data, r.Metadata = v, map[string]any{}
	}
	return r
}

func (k kernel) Complete(ctx context.Context, code string, cursorPos int) jupyter.CompleteReply {
	c := k.s.Complete(code, cursorPos)
	rep := jupyter.CompleteReply{Matches: c.Matches, CursorStart: c.Start, CursorEnd: c.End, Metadata: map[string]any{}}
	if rep.Matches == nil {
		rep.Matches = []string{}
	}
	if len(c.Kinds) == len(c.Matches) && len(c.Kinds) > 0 {
		types := make([]map[string]any, len(c.Matches))
		for i, m := range c.Matches {
			types[i] = map[string]any{"start": c.Start, "end": c.End, "text": m, "type": c.Kinds[i]}
		}
		rep.Metadata["_jupyter_types_experimental"] = types
	}
	return rep
}

func (k kernel) Inspect(ctx context.Context, code string, cursorPos, detailLevel int) jupyter.InspectReply {
	data, ok := k.s.Inspect(code, cursorPos, detailLevel)
	if !ok {
		data = map[string]any{}
	}
	return jupyter.InspectReply{Found: ok, Data: data, Metadata: map[string]any{}}
}

func (k kernel) IsComplete(ctx context.Context, code string) jupyter.IsCompleteReply {
	st, indent := k.s.IsComplete(code)
	return jupyter.IsCompleteReply{Status: st, Indent: indent}
}

func (k kernel) Interrupt()                         { k.s.Interrupt() }
func (k kernel) Restart(ctx context.Context) error  { return k.s.Restart(ctx) }
func (k kernel) Shutdown(ctx context.Context) error { return k.s.Shutdown(ctx) }

// sink is the jupyter.Output (a cell.Sink) of one execute_request, whose
// Input fails with cell.ErrNoInput when the request did not allow stdin.
type sink struct {
	jupyter.Output
	allowStdin bool
}

func (k sink) Input(prompt string, password bool) (string, error) {
	if !k.allowStdin {
		return "", cell.ErrNoInput
	}
	return k.Output.Input(prompt, password)
}

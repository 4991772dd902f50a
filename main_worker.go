package main

import (
	"context"
	"errors"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/engine"
	"github.com/goldp/goldp/kernel/worker"
)

// "goldp worker" is started by "goldp kernel" (it is not in the usage
// text): it holds the interpreter and serves cells over private pipes.
func init() { register("worker", cmdWorker) }

func cmdWorker(args []string) int {
	return worker.Main(func() (worker.Session, error) {
		s, err := engine.New(engine.Options{})
		if err != nil {
			return nil, err
		}
		return workerSession{s}, nil
	})
}

// workerSession adapts *engine.Session to worker.Session. It is a
// worker.SlowSession: the engine calls the publisher's Slow method before
// running anything but a quick statement.
type workerSession struct{ s *engine.Session }

var _ worker.SlowSession = workerSession{}

func (workerSession) AnnouncesSlow() {}

func (e workerSession) Execute(ctx context.Context, code string, pub display.Publisher) (display.Bundle, error) {
	res, err := e.s.Execute(ctx, code, pub)
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) {
			tb := ee.Traceback
			if len(tb) == 0 {
				tb = []string{ee.Error()}
			}
			return nil, &worker.CellError{Name: ee.Name, Value: ee.Error(), Traceback: tb}
		}
		return nil, err
	}
	if res == nil {
		return nil, nil
	}
	return res.Value, nil
}

func (e workerSession) Complete(code string, cursor int) (matches, kinds []string, start, end int) {
	c := e.s.Complete(code, cursor)
	return c.Matches, c.Kinds, c.Start, c.End
}

func (e workerSession) Inspect(code string, cursor, detail int) (display.Bundle, bool) {
	return e.s.Inspect(code, cursor, detail)
}

func (e workerSession) IsComplete(code string) (status, indent string) { return e.s.IsComplete(code) }

func (e workerSession) Reset() error { return e.s.Reset() }

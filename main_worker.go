package main

import (
	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/engine"
	"github.com/goldp/goldp/kernel/worker"
)

// "goldp worker" is started by "goldp kernel" (it is not in the usage
// text): it holds the interpreter and serves cells over private pipes.
func init() { register("worker", cmdWorker) }

func cmdWorker(args []string) int {
	return worker.Main(func() (cell.Session, error) { return newSession(engine.Options{}) })
}

// newSession starts an engine session; a failure is a nil cell.Session,
// not one holding a nil *engine.Session.
func newSession(o engine.Options) (cell.Session, error) {
	s, err := engine.New(o)
	if err != nil {
		return nil, err
	}
	return s, nil
}

package generic

import (
	"fmt"
	"iter"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// pullFuncs is a Pull of one of the two implementations.
type pullFuncs func(seq iter.Seq[int]) (func() (int, bool), func())

func stdPull(seq iter.Seq[int]) (func() (int, bool), func()) { return iter.Pull(seq) }

func ourPull(seq iter.Seq[int]) (func() (int, bool), func()) {
	next, stop := Pull((func(func(int) bool))(seq))
	return next.(func() (int, bool)), stop
}

// TestPullIsStd runs scripts of next and stop calls against sequences that
// log what they do, with iter.Pull and with Pull, and compares the logs:
// results, the order of the sequence's steps among the calls, panics.
func TestPullIsStd(t *testing.T) {
	seqs := map[string]func(log *[]string) iter.Seq[int]{
		"three": func(log *[]string) iter.Seq[int] {
			return func(yield func(int) bool) {
				defer func() { *log = append(*log, "seq returns") }()
				for i := 1; i <= 3; i++ {
					*log = append(*log, fmt.Sprint("yield ", i))
					if !yield(i) {
						*log = append(*log, fmt.Sprint("stopped at ", i))
						return
					}
				}
			}
		},
		"ignores-false": func(log *[]string) iter.Seq[int] {
			return func(yield func(int) bool) {
				for i := 1; i <= 3; i++ {
					*log = append(*log, fmt.Sprint("yield ", i, " ", yield(i)))
				}
			}
		},
		"panics": func(log *[]string) iter.Seq[int] {
			return func(yield func(int) bool) {
				*log = append(*log, fmt.Sprint("yield 1 ", yield(1)))
				panic("boom")
			}
		},
		"nil-deref": func(log *[]string) iter.Seq[int] {
			return func(yield func(int) bool) {
				yield(1)
				var p *int
				*log = append(*log, fmt.Sprint(*p))
			}
		},
		"empty": func(log *[]string) iter.Seq[int] {
			return func(yield func(int) bool) { *log = append(*log, "empty runs") }
		},
	}
	scripts := []string{"nnnnn", "s", "ss", "nsn", "nnsns", "nnnn", "snn", "nss"}
	for name, mk := range seqs {
		for _, script := range scripts {
			run := func(pull pullFuncs) []string {
				var log []string
				next, stop := pull(mk(&log))
				for _, op := range script {
					func() {
						defer func() {
							if r := recover(); r != nil {
								log = append(log, fmt.Sprint("panic: ", r))
							}
						}()
						if op == 'n' {
							v, ok := next()
							log = append(log, fmt.Sprint("next ", v, " ", ok))
						} else {
							stop()
							log = append(log, "stop")
						}
					}()
				}
				return log
			}
			want, got := run(stdPull), run(ourPull)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s:\n got %q\nwant %q", name, script, got, want)
			}
		}
	}
}

func TestPull2AndNil(t *testing.T) {
	next, stop := Pull2(func(yield func(string, int) bool) { yield("a", 1) })
	n := next.(func() (string, int, bool))
	k, v, ok := n()
	k2, v2, ok2 := n()
	stop()
	if k != "a" || v != 1 || !ok || k2 != "" || v2 != 0 || ok2 {
		t.Errorf("Pull2: %q %d %v, then %q %d %v", k, v, ok, k2, v2, ok2)
	}
	var seq func(func(float64) bool)
	next, _ = Pull(seq)
	func() {
		defer func() {
			if _, ok := recover().(runtime.Error); !ok {
				t.Error("next of a nil sequence: no runtime error")
			}
		}()
		next.(func() (float64, bool))()
	}()
	if got := reflect.TypeOf(next).String(); got != "func() (float64, bool)" {
		t.Errorf("next's type: %s", got)
	}
}

func TestPullGoexit(t *testing.T) {
	done := make(chan string)
	go func() {
		defer func() { done <- "exited" }()
		next, _ := Pull(func(yield func(int) bool) { runtime.Goexit() })
		next.(func() (int, bool))()
		done <- "returned"
	}()
	if got := <-done; got != "exited" {
		t.Errorf("a Goexit of the sequence: next %s", got)
	}
}

package engine

import (
	"fmt"
	"go/ast"
	"go/types"
	"math"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
	"golang.org/x/sys/unix"
	"gonum.org/v1/gonum/mat"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/front"
)

// Allocations a cell cannot get: an allocation larger than the memory
// the process may use would end the worker (the runtime's "out of memory"
// is fatal, not a panic), losing every definition. So the size arguments
// of make in a cell go through the runtime helper Len, and gonum's matrix
// constructors through checked versions: a request larger than the memory
// available panics in the cell with its size and the limit, the way Go
// reports a make whose length is out of range, and the session lives on.

// Values of fixed size: an array (or a struct holding one) has its size in
// its type, so a cell that makes one larger than the memory available
// (new([1 << 40]byte), var a [1 << 40]byte, [1 << 40]byte{}) is refused
// before it runs, by checkSizes, with the size and the limit: the
// interpreter would allocate it at once and the worker would die. Go
// itself refuses such a cell only for a local variable ("stack frame too
// large"); a refused cell says so plainly rather than answering otherwise.
//
// What stays unchecked: append growing a slice past the limit (one
// doubling at a time, so the real out of memory is reached with the
// session's memory already used), strings.Repeat and other allocations
// inside compiled packages (image.NewRGBA, gonum beyond its New*
// constructors, such as the ReuseAs methods and the results of Mul or
// Solve, reflect.New and reflect.MakeSlice called by a cell), many
// allocations each below the limit, and a map or slice grown one element
// at a time. Those end in the runtime's fatal "out of memory", which
// replaces the worker and says so.

// checkSizes returns the error of a cell that makes a value of a type
// larger than the memory available: a variable declared, a composite
// literal, or new(T).
func checkSizes(c *front.Checked) error {
	limit := memoryLimit()
	if c == nil || c.Info == nil || limit == 0 {
		return nil
	}
	sizes := types.SizesFor("gc", runtime.GOARCH)
	var bad error
	check := func(n ast.Node, what string, t types.Type) {
		if bad != nil || t == nil {
			return
		}
		switch t.Underlying().(type) {
		case *types.Array, *types.Struct:
		default:
			return
		}
		if front.HasTypeParam(t) {
			return // inside a generic: sized per instance (go/types asserts)
		}
		size := sizes.Sizeof(t) // negative when it overflows
		if size >= 0 && uint64(size) <= limit {
			return
		}
		need := "more than the address space"
		if size >= 0 {
			need = bytesText(float64(size))
		}
		line, col := c.Pos(n.Pos())
		bad = &front.Error{Line: line, Col: col, Msg: fmt.Sprintf("%s of type %s needs %s, more than the %s of memory available (the cell was not run)",
			what, types.TypeString(t, types.RelativeTo(c.Pkg)), need, bytesText(float64(limit)))}
	}
	ast.Inspect(c.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			check(n, "composite literal", c.Info.TypeOf(n))
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if obj := c.Info.Defs[id]; obj != nil {
					check(id, "variable "+id.Name, obj.Type())
				}
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) == 1 {
				if _, ok := c.Info.Uses[id].(*types.Builtin); ok && id.Name == "new" {
					check(n, "new", c.Info.TypeOf(n.Args[0]))
				}
			}
		}
		return bad == nil
	})
	return bad
}

// Goroutine storms: a cell that starts a million goroutines holds gigabytes
// and stops answering. A go statement of a cell first calls the runtime
// helper Spawn, which panics in the starting goroutine once the process
// runs maxGoroutines goroutines (nearly all of them started by cells: the
// worker itself runs a handful). It asks the runtime rather than keeping a
// count of its own: an interrupt ends interpreted goroutines without
// running their deferred calls, so a count decremented by the go
// statement's guard lost every goroutine an interrupted cell had started,
// and a session interrupted often enough refused every go statement.
const maxGoroutines = 100_000

// rtSpawn panics when a cell's go statement would start a goroutine past
// the limit.
func (s *Session) rtSpawn() {
	if runtime.NumGoroutine() >= maxGoroutines {
		panic(errStorm)
	}
}

// errStorm is the error of a goroutine storm.
var errStorm = fmt.Errorf("too many goroutines: %d started by cells are running, the limit of a session", maxGoroutines)

// Goroutines compiled code starts with a callback of a cell
// (wg.Go(func() { ... }), time.AfterFunc) are not counted by Spawn: a
// callback literal starts with the runtime helper CallStart (after its
// guard, see the front end's rule callbackguard), which panics with the same error once the
// process runs more than maxGoroutines goroutines. On the cell's own
// goroutine the panic is the cell's; on one compiled code started, the
// guard hands it to rtCallback, which reports it once and stops the cell
// as an interrupt would, so that the loop starting them ends at once.

// rtCallStart panics when too many goroutines run.
func (s *Session) rtCallStart() {
	if runtime.NumGoroutine() > maxGoroutines {
		panic(errStorm)
	}
}

// stormError returns the error of a cell a goroutine storm stopped, or nil.
func (s *Session) stormError() *cell.Error {
	s.cellMu.Lock()
	stormed := s.stormed
	s.cellMu.Unlock()
	if !stormed {
		return nil
	}
	return s.newError("Panic", errStorm.Error()+" (counting those compiled code started for callbacks of the cell)", 0, 0)
}

// Callbacks: a function literal passed to a function or method of a
// compiled package (time.AfterFunc(d, func() { ... })) may run on a
// goroutine the compiled code starts, where a panic would end the worker.
// Such a literal starts with a deferred callbackGuard (the front end's rule
// callbackguard writes it), which recovers a panic and hands
// it to the runtime helper Callback: on a goroutine the interpreter runs
// (the cell's own, or a go statement's, which has its own guard) the panic
// goes on as it was, so that sort.Slice(s, func...) panics in the cell as
// in Go; on a goroutine compiled code started, it is reported in the cell
// that runs (or on standard error) instead.
const callbackGuard = "__goldpCallback"

// rtCallback receives a panic recovered by a callback guard: it panics on
// with it on a goroutine the interpreter started, and reports it on one
// that compiled code started.
func (s *Session) rtCallback(pos string, r any) {
	if interpreted() {
		panic(r)
	}
	if r == errStorm {
		s.cellMu.Lock()
		first := !s.stormed
		s.stormed = true
		if first && s.running {
			s.stopCell()
		}
		s.cellMu.Unlock()
		if !first {
			return // reported once; each further goroutine just ends
		}
	}
	s.goPanicExit(r, "created by compiled code calling the func literal", pos)
	msg := fmt.Sprintf("panic in a callback defined at %s:%s: %v", s.fileName(), pos, r)
	s.cellMu.Lock()
	if s.running {
		s.goPanics = append(s.goPanics, msg)
	}
	s.cellMu.Unlock()
	fmt.Fprintln(s.stderr.w, msg)
}

// interpreted reports whether the calling goroutine was started by the
// interpreter, rather than by compiled code calling an interpreted func
// value: a goroutine compiled code starts with such a value begins in the
// wrapper yaegi makes for it (genFunctionWrapper), maybe under compiled
// frames of its own (sync.WaitGroup.Go). When the stack is too
// deep to tell, it says yes (the panic goes on, as in Go).
// TestCallbackPanic fails if a yaegi upgrade changes this.
func interpreted() bool {
	pcs := make([]uintptr, 4096)
	n := runtime.Callers(1, pcs)
	if n == len(pcs) {
		return true
	}
	frames := runtime.CallersFrames(pcs[:n])
	entry := "" // the outermost frame of the interpreter
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "github.com/traefik/yaegi/interp.") {
			entry = f.Function
		}
		if !more {
			break
		}
	}
	return !strings.HasPrefix(entry, "github.com/traefik/yaegi/interp.genFunctionWrapper.")
}

// rtLen returns n as an int after checking that n elements of the slice,
// map or channel type of zero fit in the memory available to the process;
// capOf marks the capacity of a slice, its element being the length (nil
// when unknown). A negative n, or a capacity below the length, panics as
// Go's make does (reflect's messages were "reflect.MakeSlice: negative
// len" and "len > cap"), except for a map, where Go ignores the hint.
func rtLen(n any, zero any, capOf ...any) int {
	v := reflect.ValueOf(n)
	isCap := len(capOf) > 0
	if isCap && capOf[0] != nil && v.CanInt() {
		if l := reflect.ValueOf(capOf[0]); l.CanInt() && l.Int() >= 0 && v.Int() < l.Int() ||
			l.CanUint() && (v.Int() < 0 || uint64(v.Int()) < l.Uint()) {
			panic(&runtimeError{msg: "makeslice: cap out of range"})
		}
	}
	var count uint64
	switch {
	case v.CanInt():
		if v.Int() < 0 {
			switch reflect.TypeOf(zero).Kind() {
			case reflect.Slice:
				if isCap {
					panic(&runtimeError{msg: "makeslice: cap out of range"})
				}
				panic(&runtimeError{msg: "makeslice: len out of range"})
			case reflect.Chan:
				panic(&runtimeError{msg: "makechan: size out of range", plain: true})
			case reflect.Map:
				return 0
			}
			return int(v.Int()) // make reports it
		}
		count = uint64(v.Int())
	case v.CanUint():
		count = v.Uint()
	case v.CanFloat(): // an untyped constant like 1e9
		count = uint64(v.Float())
	default:
		panic(fmt.Sprintf("make: size of type %T is not an integer", n))
	}
	t := reflect.TypeOf(zero)
	var size uint64
	what := "makeslice"
	switch t.Kind() {
	case reflect.Slice:
		size = uint64(t.Elem().Size())
	case reflect.Chan:
		size, what = uint64(t.Elem().Size()), "makechan"
	case reflect.Map:
		size, what = uint64(t.Key().Size()+t.Elem().Size()), "makemap"
	}
	checkAlloc(what, count, size)
	if count > math.MaxInt {
		return math.MaxInt // make reports it
	}
	return int(count)
}

// checkAlloc panics when count elements of size bytes exceed the memory
// available to the process.
func checkAlloc(what string, count, size uint64) {
	limit := memoryLimit()
	if limit == 0 || size == 0 || count <= limit/size {
		return
	}
	panic(fmt.Errorf("%s: %d elements of %d bytes need %s, more than the %s of memory available (the allocation was not attempted)",
		what, count, size, bytesText(float64(count)*float64(size)), bytesText(float64(limit))))
}

// checkedMatrices are gonum's matrix constructors with the size check:
// NewDense(200000, 200000, nil) would need 320 GB. Each checks what the
// constructor would allocate when it is given no data and valid
// dimensions (invalid ones are left to gonum's own panic).
func checkedMatrices() interp.Exports {
	// need checks n elements of size bytes, n the product of dims.
	need := func(what string, size uint64, dims ...int) {
		n := uint64(1)
		for _, d := range dims {
			if d <= 0 {
				return
			}
			if n > math.MaxUint64/uint64(d) {
				n = math.MaxUint64
			} else {
				n *= uint64(d)
			}
		}
		checkAlloc(what, n, size)
	}
	// band is the backing length of an r×c band matrix with kl and ku
	// diagonals below and above (gonum's BandDense layout).
	band := func(what string, r, c, kl, ku int) {
		if kl >= 0 && ku >= 0 && kl < r && ku < c {
			need(what, 8, min(r, c+kl), kl+ku+1)
		}
	}
	return interp.Exports{
		"gonum.org/v1/gonum/mat/mat_": {
			"NewDense": reflect.ValueOf(func(r, c int, data []float64) *mat.Dense {
				if data == nil {
					need("mat.NewDense", 8, r, c)
				}
				return mat.NewDense(r, c, data)
			}),
			"NewSymDense": reflect.ValueOf(func(n int, data []float64) *mat.SymDense {
				if data == nil {
					need("mat.NewSymDense", 8, n, n)
				}
				return mat.NewSymDense(n, data)
			}),
			"NewTriDense": reflect.ValueOf(func(n int, kind mat.TriKind, data []float64) *mat.TriDense {
				if data == nil {
					need("mat.NewTriDense", 8, n, n)
				}
				return mat.NewTriDense(n, kind, data)
			}),
			"NewVecDense": reflect.ValueOf(func(n int, data []float64) *mat.VecDense {
				if data == nil {
					need("mat.NewVecDense", 8, n)
				}
				return mat.NewVecDense(n, data)
			}),
			"NewDiagDense": reflect.ValueOf(func(n int, data []float64) *mat.DiagDense {
				if data == nil {
					need("mat.NewDiagDense", 8, n)
				}
				return mat.NewDiagDense(n, data)
			}),
			"NewCDense": reflect.ValueOf(func(r, c int, data []complex128) *mat.CDense {
				if data == nil {
					need("mat.NewCDense", 16, r, c)
				}
				return mat.NewCDense(r, c, data)
			}),
			"NewBandDense": reflect.ValueOf(func(r, c, kl, ku int, data []float64) *mat.BandDense {
				if data == nil {
					band("mat.NewBandDense", r, c, kl, ku)
				}
				return mat.NewBandDense(r, c, kl, ku, data)
			}),
			"NewDiagonalRect": reflect.ValueOf(func(r, c int, data []float64) *mat.BandDense {
				if data == nil {
					band("mat.NewDiagonalRect", r, c, 0, 0)
				}
				return mat.NewDiagonalRect(r, c, data)
			}),
			"NewSymBandDense": reflect.ValueOf(func(n, k int, data []float64) *mat.SymBandDense {
				if data == nil && k >= 0 && k < n {
					need("mat.NewSymBandDense", 8, n, k+1)
				}
				return mat.NewSymBandDense(n, k, data)
			}),
			"NewTriBandDense": reflect.ValueOf(func(n, k int, kind mat.TriKind, data []float64) *mat.TriBandDense {
				if data == nil && k >= 0 && k < n {
					need("mat.NewTriBandDense", 8, n, k+1)
				}
				return mat.NewTriBandDense(n, k, kind, data)
			}),
			"NewTridiag": reflect.ValueOf(func(n int, dl, d, du []float64) *mat.Tridiag {
				if dl == nil && d == nil && du == nil && n > 0 {
					checkAlloc("mat.NewTridiag", 3*uint64(n)-2, 8) // n + 2(n-1)
				}
				return mat.NewTridiag(n, dl, d, du)
			}),
		},
	}
}

// memoryLimit is the memory the process may use, in bytes: the least of
// its address-space limit, its cgroup's memory.max and the machine's
// memory; 0 when none is known.
var memoryLimit = sync.OnceValue(func() uint64 {
	var limit uint64
	lower := func(v uint64) {
		if v > 0 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &rl) == nil && rl.Cur != unix.RLIM_INFINITY {
		lower(rl.Cur)
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
			lower(v)
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseUint(f[1], 10, 64); err == nil {
					lower(kb << 10)
				}
			}
		}
	}
	return limit
})

// bytesText writes a byte count the way people read it: 50 GiB.
func bytesText(b float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}

// goPanicExit ends the process, when Options.GoPanicExits is set, for the
// panic r of a goroutine the code started: as a compiled program stops at
// such a panic, with "panic: " and its value as the runtime prints it,
// the goroutine's number and where the goroutine's code is (created, and
// pos, "line:col"), and exit status 2. Output is held from the moment of
// the panic: the cell's buffered output is written first, and nothing
// printed through the buffer after it.
func (s *Session) goPanicExit(r any, created, pos string) {
	if !s.opts.GoPanicExits {
		return
	}
	w := s.stderr.w
	if f, ok := w.(flushFirst); ok {
		w = f.w // flushed here, under the lock
	}
	if b := s.outBuf; b != nil {
		b.mu.Lock() // never released: the process ends
		b.flushLocked()
	}
	buf := make([]byte, 64)
	head, _, _ := strings.Cut(string(buf[:runtime.Stack(buf, false)]), "\n")
	fmt.Fprintf(w, "panic: %s\n\n%s\n%s\n\t%s:%s\n", panicText(r), head, created, s.fileName(), pos)
	os.Exit(2)
}

// panicText is a panic value as the runtime prints it after "panic: ":
// an error's Error, a Stringer's String, a string or a number as it is,
// a value of a named basic type as T(v), newlines followed by a tab.
// (The runtime prints other values as their type and address, which says
// nothing; they are printed with their type and %v.)
func panicText(r any) string {
	if rv, ok := r.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		r = rv.Interface()
	}
	var msg string
	switch v := r.(type) {
	case nil:
		msg = "nil"
	case error:
		msg = userNames(goPanicText(v.Error()))
	case fmt.Stringer:
		msg = v.String()
	case string:
		msg = v
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, complex64, complex128:
		msg = fmt.Sprint(v)
	default:
		switch reflect.TypeOf(v).Kind() {
		case reflect.String:
			msg = fmt.Sprintf("%T(\"%s\")", v, v)
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64:
			msg = fmt.Sprintf("%T(%v)", v, v)
		case reflect.Complex64, reflect.Complex128:
			msg = fmt.Sprintf("%T%v", v, v)
		default:
			msg = fmt.Sprintf("(%T) %v", v, v)
		}
	}
	return strings.ReplaceAll(msg, "\n", "\n\t")
}

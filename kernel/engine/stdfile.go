package engine

import (
	"go/ast"
	"go/types"
	"os"

	"golang.org/x/sys/unix"
)

// stdFile is os.Stdout or os.Stderr as the cells see it: a variable
// holding a duplicate (dup(2)) of the session's file. A cell that closes
// it closes neither the process's stream (the kernel's worker reads its fd
// 1 for compiled output) nor the session's, and the next cell gets a new
// duplicate: within the cell, writes after Close fail as in Go ("write
// /dev/stdout: file already closed"); the cells after it print normally.
type stdFile struct {
	orig *os.File // the session's file, never given to the cells
	own  *os.File // the duplicate given to the cells
	v    *os.File // the cells' variable (a cell may assign it)
}

// newStdFile returns the stdFile of orig, whose duplicates are named name
// (as os names its standard files). If orig cannot be duplicated, the
// cells get orig itself.
func newStdFile(orig *os.File, name string) *stdFile {
	f := &stdFile{orig: orig}
	f.own = f.dup(name)
	f.v = f.own
	return f
}

func (f *stdFile) dup(name string) *os.File {
	rc, err := f.orig.SyscallConn()
	if err != nil {
		return f.orig
	}
	nfd := -1
	rc.Control(func(fd uintptr) {
		nfd, err = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	})
	if err != nil || nfd < 0 {
		return f.orig
	}
	return os.NewFile(uintptr(nfd), name)
}

// renew gives the cells a new duplicate when the variable holds the
// session's duplicate and a cell closed it; with reset, the variable gets
// the session's duplicate back in any case (a new interpreter).
func (f *stdFile) renew(reset bool) {
	if f.v != f.own && !reset {
		return // the cells chose another file, as a program may
	}
	if closed(f.own) {
		f.own = f.dup(f.orig.Name())
	}
	f.v = f.own
}

// closed tells whether f was closed (without a system call).
func closed(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	return rc.Control(func(uintptr) {}) != nil
}

// usesStdFiles tells whether the checked cell names something through
// which it can write to the process's standard output or error behind
// the output buffer's back: os.Stdout or os.Stderr other than as the first
// argument of fmt.Fprint, Fprintf or Fprintln (which are routed through
// the buffer) or the receiver of Fd, Name or Stat, os.NewFile,
// log.Default, or package log/slog (whose default handler writes to the
// process's log output). See outbuf.go.
func usesStdFiles(file *ast.File, info *types.Info) bool {
	if file == nil || info == nil {
		return false
	}
	routed := map[*ast.Ident]bool{}
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// os.Stdout.Fd(), Name() and Stat() write nothing (a terminal
			// test is common).
			switch n.Sel.Name {
			case "Fd", "Name", "Stat":
				if id := calleeIdent(n.X); isObj(info, id, "os", "Stdout", "Stderr") {
					routed[id] = true
				}
			}
		case *ast.CallExpr:
			if isObj(info, calleeIdent(n.Fun), "fmt", "Fprint", "Fprintf", "Fprintln") && len(n.Args) > 0 {
				if id := calleeIdent(n.Args[0]); id != nil {
					routed[id] = true
				}
			}
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil || obj.Pkg() == nil {
				return true
			}
			switch obj.Pkg().Path() {
			case "os":
				found = isObj(info, n, "os", "NewFile") ||
					isObj(info, n, "os", "Stdout", "Stderr") && !routed[n]
			case "log":
				found = isObj(info, n, "log", "Default")
			case "log/slog":
				found = true
			}
		}
		return true
	})
	return found
}

// calleeIdent returns the identifier naming e (x or pkg.x), or nil.
func calleeIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// isObj tells whether id names one of the package-level objects names of
// the package with import path pkg.
func isObj(info *types.Info, id *ast.Ident, pkg string, names ...string) bool {
	if id == nil {
		return false
	}
	obj := info.Uses[id]
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != pkg || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	for _, n := range names {
		if obj.Name() == n {
			return true
		}
	}
	return false
}

package runner

import "golang.org/x/sys/unix"

// dupTo makes fd newfd a copy of oldfd (dup2; Linux on arm64 has only
// dup3).
func dupTo(oldfd, newfd int) error { return unix.Dup3(oldfd, newfd, 0) }

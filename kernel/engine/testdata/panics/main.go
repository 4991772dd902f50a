// Runtime panics and what recover() returns for them: each line prints
// the recovered value and whether it is a runtime.Error.
package main

import (
	"fmt"
	"runtime"
)

type P struct{ X int }

func try(name string, f func()) {
	defer func() {
		r := recover()
		isRT := false
		if r != nil {
			_, isRT = r.(runtime.Error)
		}
		fmt.Printf("%s: %v (runtime.Error %v)\n", name, r, isRT)
	}()
	f()
}

func main() {
	s := []int{1, 2, 3}
	a := [3]int{1, 2, 3}
	str := "abc"
	i, j, neg := 5, 1, -1
	var k int8 = 4
	var p *P
	var m map[string]int
	var v any = "text"
	var ch chan int
	zero := 0
	grid := [][]float64{{1, 2}, {3}}
	try("slice index", func() { _ = s[i] })
	try("slice index negative", func() { _ = s[neg] })
	try("slice index int8", func() { _ = s[k] })
	try("slice index constant", func() { _ = s[7] })
	try("nested index", func() { _ = grid[1][j] })
	try("array index", func() { _ = a[i] })
	try("array pointer index", func() { pa := &a; pa[i] = 1 })
	try("string index", func() { _ = str[i] })
	try("slice store", func() { s[i] = 1 })
	try("slice hi cap", func() { _ = s[j:i] })
	try("slice hi only", func() { _ = s[:i] })
	try("slice lo only", func() { _ = s[i:] })
	try("slice lo>hi", func() { _ = s[2:j] })
	try("slice neg lo", func() { _ = s[neg:] })
	try("slice neg hi", func() { _ = s[:neg] })
	try("string slice", func() { _ = str[j:i] })
	try("string lo", func() { _ = str[i:] })
	try("array slice", func() { _ = a[j:i] })
	try("slice3 max", func() { _ = s[0:1:i] })
	try("slice3 hi>max", func() { _ = s[0:2:j] })
	try("slice3 lo>hi", func() { _ = s[2:j:3] })
	try("nil pointer field", func() { _ = p.X })
	try("nil pointer deref", func() { var q *int; n := *q; _ = fmt.Sprint(n) })
	try("nil map", func() { m["a"] = 1 })
	try("divide", func() { _ = 1 / zero })
	try("conversion", func() { _ = v.(int) })
	try("close nil", func() { close(ch) })
	try("close closed", func() { c := make(chan int); close(c); close(c) })
	try("send closed", func() { c := make(chan int, 1); close(c); c <- 1 })
	try("explicit", func() { panic("boom") })
	try("in range", func() { _ = s[2] + a[j] + int(str[0]) + len(s[1:3]) })
}

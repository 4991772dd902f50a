// Command goclient measures a running "goldp kernel" process from a Go
// client (jupyter.ClientConn: its own ZMTP, no goroutine between the measuring
// code and the socket), the way bench.py measures it from Python, so that the
// kernel's own latency can be told apart from the Python client's.
//
// It starts the kernel binary itself (goldp kernel -f conn.json, with a
// history file in a temporary directory), then measures:
//
//	kernel_info rtt  kernel_info_request -> reply, median of 200
//	trivial cell     execute_request "1+1" -> execute_reply, median, p95 of 200,
//	                 and the CPU time the kernel and its worker spent per cell
//	                 (-session n: after n cells of declarations)
//	10k lines        a cell printing 10,000 lines: request -> idle (median of 3)
//	                 and the number of stream messages (the text is checked)
//	interrupt        interrupt_request of a busy loop -> execute_reply (median of 5)
//	complete/inspect request -> reply (median of 50)
//
// Usage: go run ./bench/kernel/goclient [-goldp bin/goldp] [-json out.json]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goldp/goldp/kernel/jupyter"
)

// trivialN is the number of trivial cells timed; kernelEnv is added to
// the kernel's environment.
var (
	trivialN  int
	sessionN  int
	kernelEnv []string
	perfStat  bool
	quick     bool
)

func main() {
	bin := flag.String("goldp", "bin/goldp", "the goldp `binary` to start as \"goldp kernel\"")
	jsonOut := flag.String("json", "", "also write the figures to this `file`")
	flag.IntVar(&trivialN, "trivial", 200, "run `n` trivial cells (more, to profile the kernel under load)")
	flag.IntVar(&sessionN, "session", 0, "before the trivial cells, run `n` cells that each declare a type with a method, a function and two variables (a notebook's worth: 40)")
	flag.BoolVar(&perfStat, "perf", false, "also count, with perf stat, the context switches and system calls of the kernel and its worker per trivial cell (needs perf and the right to trace them)")
	flag.BoolVar(&quick, "quick", false, "measure only kernel_info and the trivial cells (for paired runs of two builds)")
	flag.Func("env", "add `NAME=value` to the kernel's environment (repeatable; e.g. GODEBUG, GOMAXPROCS)", func(s string) error {
		kernelEnv = append(kernelEnv, s)
		return nil
	})
	flag.Parse()
	r, err := run(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
	keys := []string{"kernel_info rtt", "trivial median", "trivial p90", "trivial p95", "trivial p99", "trivial CPU", "  kernel CPU", "  worker CPU",
		"  kernel ctxsw", "  worker ctxsw", "  kernel RSS", "  worker RSS", "10k lines", "10k messages",
		"interrupt", "complete", "inspect"}
	fmt.Println("goldp measured by the Go client (jupyter.ClientConn):")
	for _, k := range keys {
		if _, ok := r[k]; !ok {
			continue
		}
		fmt.Printf("  %-18s %s\n", k, format(k, r[k]))
	}
	if perfReport != "" {
		fmt.Print(perfReport)
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("  (load average %s)\n", strings.Fields(string(b))[0])
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(r, "", " ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "goclient:", err)
			os.Exit(1)
		}
	}
}

func format(key string, v float64) string {
	switch {
	case key == "10k messages":
		return strconv.Itoa(int(v))
	case strings.HasSuffix(key, "RSS"):
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case strings.HasSuffix(key, "ctxsw"):
		return fmt.Sprintf("%.1f per cell", v)
	case v < 1e-5:
		return fmt.Sprintf("%.1f us", v*1e6)
	case v < 1e-3:
		return fmt.Sprintf("%.0f us", v*1e6)
	default:
		return fmt.Sprintf("%.2f ms", v*1e3)
	}
}

// freePorts returns n free loopback TCP ports.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

type client struct {
	codec   *jupyter.Codec
	session string
	shell   *jupyter.ClientConn // read synchronously by the measuring goroutine
	control *jupyter.ClientConn
	iopub   *jupyter.ClientConn // read by its own goroutine into iopubC
	iopubC  chan *jupyter.Message
}

func run(bin string) (map[string]float64, error) {
	ports, err := freePorts(5)
	if err != nil {
		return nil, err
	}
	key := jupyter.NewID()
	ci := jupyter.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: ports[0], ControlPort: ports[1],
		StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4], Key: key, SignatureScheme: "hmac-sha256"}
	dir, err := os.MkdirTemp("", "goclient-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fn := filepath.Join(dir, "conn.json")
	b, _ := json.Marshal(ci)
	if err := os.WriteFile(fn, b, 0o600); err != nil {
		return nil, err
	}
	// A history file of its own, written as under Jupyter.
	cmd := exec.Command(bin, "kernel", "-f", fn, "-history", filepath.Join(dir, "history.jsonl"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = append(os.Environ(), kernelEnv...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var c *client
	defer func() {
		if c != nil {
			c.send(c.control, "shutdown_request", map[string]any{"restart": false})
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			cmd.Process.Kill()
		}
	}()

	// The client's sockets are jupyter.ClientConns: requests are written
	// and replies read on this goroutine, with no goroutine or queue in
	// between, so the figures are the kernel's rather than the client's.
	c = &client{codec: jupyter.NewCodec([]byte(key)), session: jupyter.NewID(), iopubC: make(chan *jupyter.Message, 1<<16)}
	ep := func(p int) string { return "tcp://127.0.0.1:" + strconv.Itoa(p) }
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second) // the kernel may not have bound yet
	defer dcancel()
	if c.shell, err = jupyter.DialSocket(dctx, ep(ports[0]), jupyter.Dealer, c.session); err != nil {
		return nil, err
	}
	defer c.shell.Close()
	if c.control, err = jupyter.DialSocket(dctx, ep(ports[1]), jupyter.Dealer, c.session); err != nil {
		return nil, err
	}
	defer c.control.Close()
	if c.iopub, err = jupyter.DialSocket(dctx, ep(ports[3]), jupyter.Sub, ""); err != nil {
		return nil, err
	}
	defer c.iopub.Close()
	if err := c.iopub.Subscribe(""); err != nil {
		return nil, err
	}
	go c.reader(c.iopub, c.iopubC)

	r := map[string]float64{}
	// The first kernel_info may be sent before IOPub is subscribed; wait for
	// IOPub to carry the status of a request.
	for i := 0; ; i++ {
		mid, err := c.send(c.shell, "kernel_info_request", map[string]any{})
		if err != nil {
			return nil, err
		}
		if _, err := c.reply(c.shell, mid, 30*time.Second); err != nil {
			return nil, err
		}
		if _, err := c.untilIdle(mid, 200*time.Millisecond); err == nil {
			break
		} else if i == 50 {
			return nil, fmt.Errorf("IOPub carries nothing: %v", err)
		}
	}
	c.drain()

	var lat []float64
	for range 200 {
		t := time.Now()
		mid, err := c.send(c.shell, "kernel_info_request", map[string]any{})
		if err != nil {
			return nil, err
		}
		if _, err := c.reply(c.shell, mid, 30*time.Second); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t).Seconds())
	}
	r["kernel_info rtt"] = median(lat)
	time.Sleep(50 * time.Millisecond)
	c.drain()

	for i := range sessionN {
		cell := fmt.Sprintf("type P%d struct{ X, Y float64; Name string }\n"+
			"func (p P%d) Norm() float64 { return p.X*p.X + p.Y*p.Y }\n"+
			"func f%d(xs []float64, k int) (float64, error) { return xs[k], nil }\n"+
			"v%d := P%d{1, 2, \"a\"}\nm%d := mat.NewDense(2, 2, nil)", i, i, i, i, i, i)
		mid, err := c.send(c.shell, "execute_request", execContent(cell))
		if err != nil {
			return nil, err
		}
		rep, err := c.reply(c.shell, mid, 30*time.Second)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(string(rep.Content), `"status":"ok"`) {
			return nil, fmt.Errorf("session cell %d: %s", i, rep.Content)
		}
		if _, err := c.untilIdle(mid, 30*time.Second); err != nil {
			return nil, err
		}
	}
	for range 20 {
		if _, _, err := c.execute("1+1", false); err != nil {
			return nil, err
		}
	}
	lat = lat[:0]
	var stopPerf func() string
	if perfStat {
		if stopPerf, err = startPerf(cmd.Process.Pid); err != nil {
			return nil, err
		}
	}
	cpu0 := cpuTime(cmd.Process.Pid)
	k0, w0 := usage(cmd.Process.Pid)
	for range trivialN {
		_, d, err := c.execute("1+1", false)
		if err != nil {
			return nil, err
		}
		lat = append(lat, d.Seconds())
	}
	r["trivial median"] = median(lat)
	r["trivial p90"] = pct(lat, 90)
	r["trivial p95"] = pct(lat, 95)
	r["trivial p99"] = pct(lat, 99)
	r["trivial CPU"] = (cpuTime(cmd.Process.Pid) - cpu0) / float64(trivialN)
	k1, w1 := usage(cmd.Process.Pid)
	r["  kernel CPU"] = (k1.cpu - k0.cpu) / float64(trivialN)
	r["  worker CPU"] = (w1.cpu - w0.cpu) / float64(trivialN)
	r["  kernel ctxsw"] = (k1.ctxsw - k0.ctxsw) / float64(trivialN)
	r["  worker ctxsw"] = (w1.ctxsw - w0.ctxsw) / float64(trivialN)
	r["  kernel RSS"] = rss(cmd.Process.Pid)
	r["  worker RSS"] = rss(workerPID(cmd.Process.Pid))
	if stopPerf != nil {
		perfReport = stopPerf()
	}
	if quick {
		return r, nil
	}

	lat = lat[:0]
	count := 0
	const lines = "for i := 0; i < 10000; i++ {\n\tfmt.Println(i)\n}"
	var want strings.Builder
	for i := range 10000 {
		want.WriteString(strconv.Itoa(i))
		want.WriteByte('\n')
	}
	for range 3 {
		msgs, d, err := c.execute(lines, true)
		if err != nil {
			return nil, err
		}
		var text strings.Builder
		n := 0
		for _, m := range msgs {
			if m.Header.MsgType == "stream" {
				var sc struct{ Text string }
				json.Unmarshal(m.Content, &sc)
				text.WriteString(sc.Text)
				n++
			}
		}
		if text.String() != want.String() {
			return nil, fmt.Errorf("10k lines: the output differs (%d bytes, want %d)", text.Len(), want.Len())
		}
		count = max(count, n)
		lat = append(lat, d.Seconds())
	}
	r["10k lines"] = median(lat)
	r["10k messages"] = float64(count)

	lat = lat[:0]
	for range 5 {
		mid, err := c.send(c.shell, "execute_request", execContent("for {\n}"))
		if err != nil {
			return nil, err
		}
		time.Sleep(200 * time.Millisecond)
		t := time.Now()
		if _, err := c.send(c.control, "interrupt_request", map[string]any{}); err != nil {
			return nil, err
		}
		if _, err := c.reply(c.shell, mid, 10*time.Second); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t).Seconds())
		if _, err := c.reply(c.control, "", 10*time.Second); err != nil {
			return nil, err
		}
		if _, err := c.untilIdle(mid, 10*time.Second); err != nil {
			return nil, err
		}
	}
	r["interrupt"] = median(lat)

	for _, k := range []struct {
		kind    string
		content map[string]any
	}{
		{"complete", map[string]any{"code": "fmt.Print", "cursor_pos": 9}},
		{"inspect", map[string]any{"code": "strings.ToUpper", "cursor_pos": 10, "detail_level": 0}},
	} {
		lat = lat[:0]
		for range 50 {
			t := time.Now()
			mid, err := c.send(c.shell, k.kind+"_request", k.content)
			if err != nil {
				return nil, err
			}
			rep, err := c.reply(c.shell, mid, 30*time.Second)
			if err != nil {
				return nil, err
			}
			lat = append(lat, time.Since(t).Seconds())
			if !strings.Contains(string(rep.Content), `"status":"ok"`) {
				return nil, fmt.Errorf("%s: %s", k.kind, rep.Content)
			}
		}
		r[k.kind] = median(lat)
	}
	return r, nil
}

// cpuTime returns the CPU time in seconds (user and system) used so far by
// process pid and its children that are still running (the worker), read
// from /proc; 0 where it cannot be read.
func cpuTime(pid int) float64 {
	total := 0.0
	pids := []int{pid}
	if tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid)); err == nil {
		for _, t := range tasks {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
			for _, f := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(f); err == nil {
					pids = append(pids, n)
				}
			}
		}
	}
	for _, p := range pids {
		total += cpuTime1(p)
	}
	return total
}

// cpuTime1 returns the CPU time in seconds (user and system) used so far
// by process pid, 0 if it cannot be read.
func cpuTime1(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses:
	// utime and stime are the 12th and 13th of them.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ is 100 on Linux
}

// procUsage is the CPU time (seconds) and the context switches
// (voluntary and not, summed over its threads) of one process.
type procUsage struct{ cpu, ctxsw float64 }

// usage returns the usage of the kernel process pid and of its worker
// (its first child), read from /proc: the context switches count how
// often a thread went to sleep or was preempted, which on an idle path
// is how often it waited for another process or goroutine, and unlike
// latency it does not depend on the machine's load.
func usage(pid int) (kernel, worker procUsage) {
	kernel = procUsageOf(pid)
	if w := workerPID(pid); w != 0 {
		worker = procUsageOf(w)
	}
	return kernel, worker
}

func procUsageOf(pid int) procUsage {
	var u procUsage
	u.cpu = cpuTime1(pid)
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return u
	}
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				n, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
				u.ctxsw += n
			}
		}
	}
	return u
}

// perfReport is the per-cell table of perf stat's counts (-perf).
var perfReport string

// perfEvents are the events -perf counts: how often the kernel and the
// worker sleep and wake (context switches, futex and epoll waits) and the
// system calls they make, which unlike latency do not depend on the
// machine's load. The sysmon thread's nanosleeps are counted apart: they
// follow the clock, not the cells.
var perfEvents = []string{"context-switches", "syscalls:sys_enter_write", "syscalls:sys_enter_read",
	"syscalls:sys_enter_epoll_pwait", "syscalls:sys_enter_futex", "syscalls:sys_enter_nanosleep", "raw_syscalls:sys_enter"}

// startPerf starts perf stat on the kernel process pid and on its worker;
// the function it returns stops them and formats their counts per
// trivial cell.
func startPerf(pid int) (func() string, error) {
	wpid := workerPID(pid)
	if wpid == 0 {
		return nil, fmt.Errorf("-perf: no worker process found")
	}
	dir, err := os.MkdirTemp("", "goclient-perf-")
	if err != nil {
		return nil, err
	}
	var cmds []*exec.Cmd
	for _, p := range []int{pid, wpid} {
		c := exec.Command("perf", "stat", "-x,", "-e", strings.Join(perfEvents, ","), "-p", strconv.Itoa(p),
			"-o", filepath.Join(dir, strconv.Itoa(p)))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			return nil, fmt.Errorf("-perf: %v", err)
		}
		cmds = append(cmds, c)
	}
	time.Sleep(500 * time.Millisecond) // let perf attach
	return func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "  per trivial cell (perf stat):\n")
		for i, c := range cmds {
			c.Process.Signal(os.Interrupt)
			c.Wait()
			out, _ := os.ReadFile(filepath.Join(dir, strconv.Itoa([]int{pid, wpid}[i])))
			fmt.Fprintf(&b, "    %-7s", []string{"kernel", "worker"}[i])
			for _, line := range strings.Split(string(out), "\n") {
				f := strings.Split(line, ",")
				if len(f) < 3 {
					continue
				}
				v, err := strconv.ParseFloat(f[0], 64)
				if err != nil {
					continue
				}
				name := strings.TrimPrefix(strings.TrimPrefix(f[2], "syscalls:sys_enter_"), "raw_syscalls:sys_enter")
				if name == "" {
					name = "all syscalls"
				}
				fmt.Fprintf(&b, " %s %.2f,", name, v/float64(trivialN))
			}
			b.WriteString("\n")
		}
		os.RemoveAll(dir)
		return b.String()
	}, nil
}

// rss returns the resident set size of process pid in bytes, read from
// /proc (0 if it cannot be read).
func rss(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseFloat(f[1], 64)
	return pages * float64(os.Getpagesize())
}

// workerPID returns the process ID of the kernel's worker (its first
// child), 0 if there is none.
func workerPID(pid int) int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if f := strings.Fields(string(b)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return n
			}
		}
	}
	return 0
}

func execContent(code string) map[string]any {
	return map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": false}
}

// execute runs code. Unless toIdle it measures request -> execute_reply and
// then waits for idle; with toIdle it measures request -> idle. It returns
// the IOPub messages of the request.
func (c *client) execute(code string, toIdle bool) ([]*jupyter.Message, time.Duration, error) {
	t := time.Now()
	mid, err := c.send(c.shell, "execute_request", execContent(code))
	if err != nil {
		return nil, 0, err
	}
	var d time.Duration
	if !toIdle {
		if _, err := c.reply(c.shell, mid, 30*time.Second); err != nil {
			return nil, 0, err
		}
		d = time.Since(t)
	}
	msgs, err := c.untilIdle(mid, 30*time.Second)
	if err != nil {
		return nil, 0, err
	}
	if toIdle {
		d = time.Since(t)
		if _, err := c.reply(c.shell, mid, 30*time.Second); err != nil {
			return nil, 0, err
		}
	}
	return msgs, d, nil
}

func (c *client) send(s *jupyter.ClientConn, msgType string, content any) (string, error) {
	cb, err := json.Marshal(content)
	if err != nil {
		return "", err
	}
	m := &jupyter.Message{Header: jupyter.NewHeader(msgType, c.session, "bench"), Content: cb}
	frames, err := c.codec.Encode(m)
	if err != nil {
		return "", err
	}
	return m.Header.MsgID, s.Send(frames)
}

// reader decodes the messages of s onto ch until s fails.
func (c *client) reader(s *jupyter.ClientConn, ch chan *jupyter.Message) {
	for {
		frames, err := s.Recv(time.Time{})
		if err != nil {
			return
		}
		m, err := c.codec.Decode(frames)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goclient: bad message:", err)
			continue
		}
		ch <- m
	}
}

func parentID(m *jupyter.Message) string {
	var h struct {
		MsgID string `json:"msg_id"`
	}
	json.Unmarshal(m.ParentHeader, &h)
	return h.MsgID
}

// reply reads s until the message whose parent is mid (any, if mid is "").
func (c *client) reply(s *jupyter.ClientConn, mid string, timeout time.Duration) (*jupyter.Message, error) {
	deadline := time.Now().Add(timeout)
	for {
		frames, err := s.Recv(deadline)
		if err != nil {
			return nil, fmt.Errorf("no reply to %s within %v: %v", mid, timeout, err)
		}
		m, err := c.codec.Decode(frames)
		if err != nil {
			return nil, err
		}
		if mid == "" || parentID(m) == mid {
			return m, nil
		}
	}
}

// untilIdle returns the IOPub messages of mid up to its idle status.
func (c *client) untilIdle(mid string, timeout time.Duration) ([]*jupyter.Message, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	var msgs []*jupyter.Message
	for {
		select {
		case m := <-c.iopubC:
			if parentID(m) != mid {
				continue
			}
			if m.Header.MsgType == "status" && strings.Contains(string(m.Content), `"idle"`) {
				return msgs, nil
			}
			msgs = append(msgs, m)
		case <-t.C:
			return nil, fmt.Errorf("no idle for %s within %v", mid, timeout)
		}
	}
}

func (c *client) drain() {
	for {
		select {
		case <-c.iopubC:
		default:
			return
		}
	}
}

func median(xs []float64) float64 { return pct(xs, 50) }

func pct(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s)-1) + 0.5)
	return s[min(i, len(s)-1)]
}

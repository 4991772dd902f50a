package jupyter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// debianPython is the interpreter with the Debian Jupyter packages.
const debianPython = "/usr/bin/python3"

// TestJupyterClients runs jupyter_kernel_test's KernelTests and a few
// jupyter_client checks (testdata/kernel_test.py) against the echokernel
// program, which serves a toy interpreter through this package. It is
// skipped when Debian's Python or its Jupyter packages are missing.
func TestJupyterClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Python interoperability suite")
	}
	if _, err := os.Stat(debianPython); err != nil {
		t.Skip("no " + debianPython)
	}
	if err := exec.Command(debianPython, "-c", "import jupyter_kernel_test, jupyter_client").Run(); err != nil {
		t.Skip("python3-jupyter-kernel-test or python3-jupyter-client not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "echokernel")
	build := exec.Command("go", "build", "-o", bin, "./internal/echokernel")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building echokernel: %v\n%s", err, out)
	}
	kdir := filepath.Join(dir, "jupyter", "kernels", "goldp-echo")
	if err := os.MkdirAll(kdir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal(KernelSpec{
		Argv: []string{bin, "-f", "{connection_file}"}, DisplayName: "echo", Language: "echo",
		InterruptMode: "message", Metadata: map[string]any{},
	})
	if err := os.WriteFile(filepath.Join(kdir, "kernel.json"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(debianPython, "testdata/kernel_test.py")
	cmd.Env = append(os.Environ(),
		"JUPYTER_PATH="+filepath.Join(dir, "jupyter"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("kernel_test.py: %v\n%s", err, out.String())
	}
	t.Logf("%s", out.String())
}

// BenchmarkColdStart measures starting the echokernel process until its
// kernel_info_reply arrives on shell (process start, binding five sockets,
// ZMTP handshake, one signed round trip). It reports the median as
// median-ms.
func BenchmarkColdStart(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "echokernel")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/echokernel").CombinedOutput(); err != nil {
		b.Fatalf("building echokernel: %v\n%s", err, out)
	}
	codec := NewCodec([]byte("bench-key"))
	var lat []time.Duration
	for i := 0; i < b.N; i++ {
		ports := freePorts(b, 5)
		ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: ports[0], ControlPort: ports[1],
			StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4], Key: "bench-key", SignatureScheme: "hmac-sha256"}
		cf := filepath.Join(dir, "conn.json")
		js, _ := json.Marshal(ci)
		if err := os.WriteFile(cf, js, 0o600); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		cmd := exec.Command(bin, "-f", cf)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		shell := zmq4.NewDealer(context.Background(), zmq4.WithID(zmq4.SocketIdentity(NewID())),
			zmq4.WithDialerRetry(time.Millisecond), zmq4.WithDialerMaxRetries(5000))
		if err := shell.Dial(fmt.Sprintf("tcp://127.0.0.1:%d", ci.ShellPort)); err != nil {
			b.Fatal(err)
		}
		m := &Message{Header: NewHeader("kernel_info_request", "bench", "bench"), Content: []byte("{}")}
		frames, _ := codec.Encode(m)
		if err := shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
			b.Fatal(err)
		}
		zm, err := shell.Recv()
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		if r, err := codec.Decode(zm.Frames); err != nil || r.Header.MsgType != "kernel_info_reply" {
			b.Fatalf("reply %v %v", r, err)
		}
		shell.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1e3, "median-ms")
}

// freePorts returns n distinct TCP ports that were free a moment ago.
func freePorts(tb testing.TB, n int) []int {
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

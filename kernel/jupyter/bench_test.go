package jupyter

import (
	"context"
	"io"
	"log"
	"sort"
	"testing"
	"time"
)

// BenchmarkRoundTrip measures execute_request → execute_reply for a
// trivial cell over real zmq4 sockets on loopback, with the test double as
// interpreter (so it is the transport's cost alone). IOPub is consumed
// concurrently. The median is reported as median-µs.
func BenchmarkRoundTrip(b *testing.B) {
	k := startKernel(b)
	go func() {
		for range k.iopubCh {
		}
	}()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		id := k.execute("1", nil)
		r := <-k.shellCh
		lat = append(lat, time.Since(t0))
		if parentID(r) != id {
			b.Fatalf("reply to %s, want %s", parentID(r), id)
		}
		<-k.interp.started
	}
	b.StopTimer()
	reportMedian(b, lat)
}

// BenchmarkRoundTripIdle measures execute_request → status idle on IOPub
// (what nbclient waits for): every IOPub message of the cell is received.
func BenchmarkRoundTripIdle(b *testing.B) {
	k := startKernel(b)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		id := k.execute("1", nil)
		for {
			m := <-k.iopubCh
			if parentID(m) == id && m.Header.MsgType == "status" && string(m.Content) == `{"execution_state":"idle"}` {
				break
			}
		}
		lat = append(lat, time.Since(t0))
		<-k.shellCh
		<-k.interp.started
	}
	b.StopTimer()
	reportMedian(b, lat)
}

// BenchmarkKernelInfo measures kernel_info_request → reply on shell.
func BenchmarkKernelInfo(b *testing.B) {
	k := startKernel(b)
	go func() {
		for range k.iopubCh {
		}
	}()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		k.send(k.shell, "kernel_info_request", map[string]any{})
		<-k.shellCh
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportMedian(b, lat)
}

func reportMedian(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "median-µs")
}

// BenchmarkSign measures signing the four parts of a typical reply.
func BenchmarkSign(b *testing.B) {
	c := NewCodec([]byte("a0436f6c-1916-498b-8eb9-e81ab9368e84"))
	h := []byte(`{"msg_id":"9c9e4f2e-6f0c-4b0b-9d3c-0d6f5f1f0a11","session":"s","username":"u","date":"2026-01-01T00:00:00.000000Z","msg_type":"execute_reply","version":"5.3"}`)
	p := h
	md := []byte(`{}`)
	ct := []byte(`{"status":"ok","execution_count":1,"user_expressions":{},"payload":[]}`)
	b.ReportAllocs()
	for b.Loop() {
		c.Sign(h, p, md, ct)
	}
}

// BenchmarkDecode measures decoding and verifying one request.
func BenchmarkDecode(b *testing.B) {
	c := NewCodec([]byte("a0436f6c-1916-498b-8eb9-e81ab9368e84"))
	m := testMessage()
	frames, _ := c.Encode(m)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decode(frames); err != nil {
			b.Fatal(err)
		}
	}
}

// nullSocket is a socket that discards what is sent.
type nullSocket struct{ n int }

func (s *nullSocket) Send([][]byte) error        { s.n++; return nil }
func (s *nullSocket) SendAll(m [][][]byte) error { s.n += len(m); return nil }
func (s *nullSocket) Close() error               { return nil }

// BenchmarkExecuteDispatch measures the kernel-side CPU cost of one
// execute_request without the network: decode and verify, the four IOPub
// messages and the reply, each encoded and signed (sockets discard).
func BenchmarkExecuteDispatch(b *testing.B) {
	in := newFakeInterp()
	in.started = make(chan string, 1)
	s := &server{
		interp: in, codec: NewCodec([]byte("a0436f6c-1916-498b-8eb9-e81ab9368e84")),
		log: log.New(io.Discard, "", 0), session: NewID(), username: "kernel",
		history: newHistory("", log.New(io.Discard, "", 0)),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	defer s.cancel()
	shell, iopub := &nullSocket{}, &nullSocket{}
	s.shell, s.iopub = shell, iopub
	req := &Message{Identities: [][]byte{[]byte("client")}, Header: NewHeader("execute_request", "client-session", "u"),
		Content: []byte(`{"code":"1","silent":false,"store_history":false,"user_expressions":{},"allow_stdin":true,"stop_on_error":true}`)}
	frames, _ := s.codec.Encode(req)
	b.ReportAllocs()
	for b.Loop() {
		m, err := s.codec.Decode(frames)
		if err != nil {
			b.Fatal(err)
		}
		s.execute(m)
		<-in.started
	}
	if shell.n == 0 || iopub.n == 0 {
		b.Fatal("nothing sent")
	}
}

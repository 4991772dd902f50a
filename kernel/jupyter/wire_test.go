package jupyter

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"
)

func testMessage() *Message {
	return &Message{
		Identities:   [][]byte{[]byte("client-1"), []byte("client-2")},
		Header:       NewHeader("execute_request", "sess", "ada"),
		ParentHeader: []byte(`{}`),
		Metadata:     []byte(`{"k":1}`),
		Content:      []byte(`{"code":"1+1","silent":false}`),
		Buffers:      [][]byte{{0, 1, 2}, {}},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	c := NewCodec([]byte("secret"))
	m := testMessage()
	frames, err := c.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(frames[2]) != delimiter || len(frames) != 2+6+2 {
		t.Fatalf("frames: %q", frames)
	}
	if sig := frames[3]; !regexp.MustCompile(`^[0-9a-f]{64}$`).Match(sig) {
		t.Errorf("signature %q is not 64 hex digits", sig)
	}
	got, err := c.Decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if got.Header != m.Header || len(got.Identities) != 2 || string(got.Identities[1]) != "client-2" ||
		!bytes.Equal(got.Content, m.Content) || !bytes.Equal(got.Metadata, m.Metadata) ||
		len(got.Buffers) != 2 || !bytes.Equal(got.Buffers[0], []byte{0, 1, 2}) {
		t.Errorf("round trip: %+v", got)
	}
	// Appending to the decoded identities must not clobber the frames.
	_ = append(got.Identities, []byte("x"))
	if string(frames[2]) != delimiter {
		t.Error("Identities aliases the delimiter frame")
	}
}

func TestDecodeRejects(t *testing.T) {
	key := []byte("secret")
	c := NewCodec(key)
	frames, _ := c.Encode(testMessage())
	clone := func() [][]byte {
		out := make([][]byte, len(frames))
		for i, f := range frames {
			out[i] = bytes.Clone(f)
		}
		return out
	}
	tamper := func(i int, b []byte) [][]byte { f := clone(); f[i] = b; return f }
	for _, tc := range []struct {
		name   string
		frames [][]byte
		want   error
	}{
		{"wrong key", func() [][]byte { f, _ := NewCodec([]byte("other")).Encode(testMessage()); return f }(), ErrSignature},
		{"missing signature", tamper(3, []byte{}), ErrSignature},
		{"uppercase hex", tamper(3, bytes.ToUpper(frames[3])), nil}, // hex decoding accepts both cases
		{"short signature", tamper(3, frames[3][:10]), ErrSignature},
		{"non-hex signature", tamper(3, bytes.Repeat([]byte("z"), 64)), ErrSignature},
		{"tampered header", tamper(4, bytes.Replace(frames[4], []byte("ada"), []byte("eve"), 1)), ErrSignature},
		{"tampered content", tamper(7, []byte(`{"code":"rm"}`)), ErrSignature},
		{"no delimiter", tamper(2, []byte("<IDS|MSX>")), ErrNoDelimiter},
		{"short", clone()[:6], ErrShortMessage},
	} {
		_, err := c.Decode(tc.frames)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	// Without a key, any signature is accepted.
	if _, err := NewCodec(nil).Decode(tamper(3, []byte("whatever"))); err != nil {
		t.Errorf("unsigned codec: %v", err)
	}
	// Malformed JSON parts are errors naming the part.
	nc := NewCodec(nil)
	bad := func(i int, b string) error {
		f := clone()
		f[i] = []byte(b)
		_, err := nc.Decode(f)
		return err
	}
	for i, want := range map[int]string{4: "header", 5: "parent_header", 6: "metadata", 7: "content"} {
		if err := bad(i, `[1]`); err == nil || !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("bad %s: %v", want, err)
		}
	}
	if err := bad(4, `{"msg_id":"x"}`); err == nil {
		t.Error("header without msg_type accepted")
	}
}

func TestSignMatchesReference(t *testing.T) {
	// HMAC-SHA256("key", "abcd") computed independently (Python: hmac.new(b"key", b"abcd", "sha256")).
	c := NewCodec([]byte("key"))
	got := string(c.Sign([]byte("a"), []byte("b"), []byte("c"), []byte("d")))
	const want = "2a31ec0ee8d878c9eece9fb0df79b3b90b2256240163aa5ee50d176d3d1121f8"
	if got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
	if !c.Verify([]byte(got), []byte("ab"), []byte("c"), []byte(""), []byte("d")) {
		t.Error("signature is not over the concatenation of the parts")
	}
	if c.Verify([]byte(got), []byte("a"), []byte("b"), []byte("c"), []byte("e")) {
		t.Error("signature verified for different content")
	}
	if s := NewCodec(nil).Sign([]byte("a"), nil, nil, nil); len(s) != 0 {
		t.Errorf("unsigned codec signed: %q", s)
	}
}

func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewID()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	var h Header
	if err := json.Unmarshal([]byte(`{"msg_id":"1","msg_type":"x"}`), &h); err != nil || h.MsgType != "x" {
		t.Error(err)
	}
}

func FuzzDecode(f *testing.F) {
	key := []byte("fuzz-key")
	c := NewCodec(key)
	join := func(frames [][]byte) []byte {
		// Frames are joined with a separator the fuzzer can also produce.
		return bytes.Join(frames, []byte{0})
	}
	m := testMessage()
	frames, _ := c.Encode(m)
	f.Add(join(frames), true)
	m2 := &Message{Header: NewHeader("kernel_info_request", "s", "u")}
	frames, _ = c.Encode(m2)
	f.Add(join(frames), true)
	frames, _ = NewCodec(nil).Encode(testMessage())
	f.Add(join(frames), false)
	f.Add([]byte("<IDS|MSG>"), false)
	f.Add([]byte("<IDS|MSG>\x00\x00{}\x00{}\x00{}\x00{}"), false)
	f.Add([]byte("<IDS|MSG>\x00\x00{\"msg_type\":\"a\"}\x00{}\x00{}\x00{"), false)
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		codec := NewCodec(nil)
		if signed {
			codec = c
		}
		frames := bytes.Split(data, []byte{0})
		msg, err := codec.Decode(frames)
		if err != nil {
			if msg != nil {
				t.Fatal("message returned with an error")
			}
			return
		}
		if msg.Header.MsgType == "" {
			t.Fatal("decoded a message without msg_type")
		}
		// What decodes re-encodes (with the same raw parts) and decodes to
		// the same message.
		again, err := codec.Encode(msg)
		if err != nil {
			t.Fatal(err)
		}
		msg2, err := codec.Decode(again)
		if err != nil {
			t.Fatalf("re-encoded message does not decode: %v", err)
		}
		if msg2.Header != msg.Header || !bytes.Equal(msg2.Content, msg.Content) || len(msg2.Buffers) != len(msg.Buffers) {
			t.Fatalf("round trip changed the message")
		}
	})
}

func TestAppendHeader(t *testing.T) {
	s := &server{session: NewID(), username: "O'Brien \"the\" ünïcode\n"}
	for _, typ := range []string{"status", "execute_reply"} {
		b := s.appendHeader(nil, typ)
		var h Header
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if h.MsgType != typ || h.Session != s.session || h.Username != s.username || h.Version != ProtocolVersion || len(h.MsgID) != 36 {
			t.Errorf("header %+v", h)
		}
		if _, err := time.Parse(time.RFC3339Nano, h.Date); err != nil {
			t.Errorf("date %q: %v", h.Date, err)
		}
	}
}

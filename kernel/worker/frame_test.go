package worker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/goldp/goldp/kernel/cell"
)

func TestFrameRoundTrip(t *testing.T) {
	msgs := []*Msg{
		{Kind: KindExecute, ID: 1, Code: "x := 1\nx", AllowStdin: true},
		{Kind: KindReply, ID: 1, Data: map[string]any{"text/plain": "1"}},
		{Kind: KindReply, ID: 2, Fail: &cell.Error{Name: "Panic", Message: "boom", Line: 2, Col: 3, Traceback: []string{"a", "b"}}},
		{Kind: KindReply, ID: 3, Matches: []string{"Println", "Printf"}, Kinds: []string{"func", "func"}, Start: 4, End: 9},
		{Kind: KindDisplay, Data: map[string]any{"text/html": "<b>hi</b>"}, DisplayID: "d1", Update: true},
		{Kind: KindInput, ID: 4, Prompt: "name? ", Password: true},
		{Kind: KindInputReply, ID: 4, Text: "héllo\x00"},
		{Kind: KindStream, Name: "stderr", Text: "x\n"},
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	dec := NewDecoder(&buf)
	for i, want := range msgs {
		var got Msg
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("frame %d: got %+v, want %+v", i, got, *want)
		}
	}
	var m Msg
	if err := dec.Decode(&m); err != io.EOF {
		t.Errorf("after the last frame: got %v, want io.EOF", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	var full bytes.Buffer
	NewEncoder(&full).Encode(&Msg{Kind: KindReady})
	frame := full.Bytes()

	huge := make([]byte, 4)
	binary.BigEndian.PutUint32(huge, MaxFrame+1)
	noKind := append([]byte{0, 0, 0, 2}, "{}"...)
	badJSON := append([]byte{0, 0, 0, 3}, "{x}"...)
	for _, tc := range []struct {
		name string
		in   []byte
		want func(error) bool
	}{
		{"cut header", frame[:2], func(e error) bool { return e == io.ErrUnexpectedEOF }},
		{"cut payload", frame[:len(frame)-1], func(e error) bool { return e == io.ErrUnexpectedEOF }},
		{"too large", huge, func(e error) bool { return errors.Is(e, ErrFrameTooLarge) }},
		{"no kind", noKind, func(e error) bool { return e != nil && bytes.Contains([]byte(e.Error()), []byte("no kind")) }},
		{"bad json", badJSON, func(e error) bool { return e != nil }},
	} {
		var m Msg
		err := NewDecoder(bytes.NewReader(tc.in)).Decode(&m)
		if !tc.want(err) {
			t.Errorf("%s: unexpected error %v", tc.name, err)
		}
	}
}

// FuzzDecode feeds arbitrary bytes to the decoder: it must never panic,
// and every frame it accepts must encode back to a frame that decodes to
// the same message.
func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	enc.Encode(&Msg{Kind: KindExecute, ID: 1, Code: "fmt.Println(1)"})
	enc.Encode(&Msg{Kind: KindReply, ID: 1, Data: map[string]any{"text/plain": "1"}})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add(append([]byte{0, 0, 0, 9}, `{"k":"x"}`...))
	f.Fuzz(func(t *testing.T, in []byte) {
		dec := NewDecoder(bytes.NewReader(in))
		for range 100 {
			var m Msg
			if err := dec.Decode(&m); err != nil {
				return
			}
			var out bytes.Buffer
			if err := NewEncoder(&out).Encode(&m); err != nil {
				t.Fatalf("re-encoding %+v: %v", m, err)
			}
			var back Msg
			if err := NewDecoder(&out).Decode(&back); err != nil {
				t.Fatalf("decoding re-encoded %+v: %v", m, err)
			}
			if !reflect.DeepEqual(normalize(&m), normalize(&back)) {
				t.Fatalf("round trip changed the message: %+v != %+v", m, back)
			}
		}
	})
}

// normalize maps empty collections to nil (omitempty drops them).
func normalize(m *Msg) Msg {
	c := *m
	if len(c.Data) == 0 {
		c.Data = nil
	}
	if len(c.Metadata) == 0 {
		c.Metadata = nil
	}
	if len(c.Matches) == 0 {
		c.Matches = nil
	}
	if len(c.Kinds) == 0 {
		c.Kinds = nil
	}
	return c
}

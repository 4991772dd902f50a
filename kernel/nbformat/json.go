package nbformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeJSON decodes data into generic values, keeping numbers as
// json.Number so that they are written back with the same digits.
func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	// Anything but white space after the object is an error (Decoder.More
	// would let a stray "}" or "]" through).
	off := d.InputOffset()
	if rest := bytes.TrimLeft(data[off:], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("data after the notebook object at offset %d", len(data)-len(rest))
	}
	return v, nil
}

// encodeJSON writes v the way Jupyter (Python's json.dumps with indent=1,
// sort_keys=True, separators (",", ": ") and ensure_ascii=False) does, so
// that a notebook written by Jupyter and read then written by this package
// keeps its bytes.
func encodeJSON(b *bytes.Buffer, v any, depth int) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(string(x))
	case string:
		writeString(b, x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(pyFloat(x))
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return encodeJSON(b, l, depth)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",")
			}
			newline(b, depth+1)
			if err := encodeJSON(b, e, depth+1); err != nil {
				return err
			}
		}
		newline(b, depth)
		b.WriteString("]")
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // Python sorts by code point; UTF-8 byte order is the same
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			newline(b, depth+1)
			writeString(b, k)
			b.WriteString(": ")
			if err := encodeJSON(b, x[k], depth+1); err != nil {
				return err
			}
		}
		newline(b, depth)
		b.WriteString("}")
	default:
		// Anything else (a display bundle holding typed values): go through
		// encoding/json, then re-encode generically.
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		g, err := decodeJSON(raw)
		if err != nil {
			return err
		}
		return encodeJSON(b, g, depth)
	}
	return nil
}

func newline(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteByte(' ')
	}
}

// pyFloat formats f like Python's repr of a float: positional between
// 1e-4 and 1e16, else exponent form, always with a point or an exponent.
// NaN and infinities (not valid JSON) are written as Python writes them.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// writeString writes s as a JSON string with Python's escapes
// (ensure_ascii=False): only '"', '\\' and control characters are escaped.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				if c < 0x20 {
					fmt.Fprintf(b, `\u%04x`, c)
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
}

// splitLines splits s after each line break like Python's
// str.splitlines(True), which nbformat uses to store multi-line strings as
// lists.
func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		end := -1
		switch r {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				end = i + 2
			} else {
				end = i + 1
			}
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			end = i + n
		}
		if end >= 0 {
			out = append(out, s[start:end])
			start, i = end, end
			continue
		}
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	if out == nil {
		out = []string{}
	}
	return out
}

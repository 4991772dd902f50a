package data

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// csvTable is a comma-separated file held in memory with its header
// parsed. Fields are split on sep; quoted fields are not supported (the
// Census and UCI files have none).
type csvTable struct {
	name   string
	data   []byte
	sep    []byte
	header []string
	body   int // offset of the first data line
	line0  int // line number of the first data line
}

func newCSV(name string, data []byte, sep string) (*csvTable, error) {
	t := &csvTable{name: name, data: data, sep: []byte(sep)}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		nl = len(data)
	}
	head := bytes.TrimRight(data[:nl], "\r")
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%s:1: empty header", name)
	}
	for _, f := range bytes.Split(head, t.sep) {
		t.header = append(t.header, string(bytes.TrimSpace(f)))
	}
	t.body = min(nl+1, len(data))
	t.line0 = 2
	return t, nil
}

// col returns the index of a header column, or −1.
func (t *csvTable) col(names ...string) int {
	for _, n := range names {
		for j, h := range t.header {
			if h == n {
				return j
			}
		}
	}
	return -1
}

// each calls fn for every non-blank data line with its 1-based line
// number and its fields (views into the file, valid during the call).
// A line whose field count differs from want is an error.
func (t *csvTable) each(want int, fn func(line int, fields [][]byte) error) error {
	fields := make([][]byte, 0, want+1)
	data := t.data[t.body:]
	line := t.line0
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		var l []byte
		if nl < 0 {
			l, data = data, nil
		} else {
			l, data = data[:nl], data[nl+1:]
		}
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) > 0 {
			fields = fields[:0]
			if len(t.sep) == 1 {
				c, start := t.sep[0], 0
				for k := 0; k < len(l); k++ {
					if l[k] == c {
						fields = append(fields, l[start:k])
						start = k + 1
					}
				}
				fields = append(fields, l[start:])
			} else {
				for {
					k := bytes.Index(l, t.sep)
					if k < 0 {
						fields = append(fields, l)
						break
					}
					fields = append(fields, l[:k])
					l = l[k+len(t.sep):]
				}
			}
			if len(fields) != want {
				return fmt.Errorf("%s:%d: %d fields, want %d", t.name, line, len(fields), want)
			}
			if err := fn(line, fields); err != nil {
				return err
			}
		}
		line++
	}
	return nil
}

// parseNum parses a numeric field; a blank field is NaN (N/A).
func parseNum(b []byte) (float64, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return math.NaN(), true
	}
	// Fast path: optional sign and up to 15 digits.
	neg := false
	i := 0
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		i = 1
	}
	if i < len(b) && len(b)-i <= 15 {
		var v int64
		ok := true
		for _, c := range b[i:] {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			v = v*10 + int64(c-'0')
		}
		if ok {
			if neg {
				v = -v
			}
			return float64(v), true
		}
	}
	v, err := strconv.ParseFloat(string(b), 64)
	return v, err == nil
}

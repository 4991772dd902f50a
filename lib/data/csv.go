package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// csvTable streams a delimited text file line by line, with its header
// parsed. Fields are split on sep; quoted fields are not supported (the
// Census and UCI files have none). Memory use is one line, whatever the
// file size.
type csvTable struct {
	name   string
	r      *bufio.Reader
	sep    []byte
	header []string
	line   int    // number of the last line read
	long   []byte // a line longer than the reader's buffer
	// headerRead is set when the header came from the file.
	headerRead bool
}

const csvBuffer = 1 << 20

// newCSV reads the header line of r.
func newCSV(name string, r io.Reader, sep string) (*csvTable, error) {
	t := &csvTable{name: name, r: bufio.NewReaderSize(r, csvBuffer), sep: []byte(sep)}
	head, err := t.next()
	if err != nil && !(errors.Is(err, io.EOF) && len(head) > 0) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s:1: empty file, no header", name)
		}
		return nil, fmt.Errorf("%s:1: %w", name, err)
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%s:1: empty header", name)
	}
	for _, f := range bytes.Split(head, t.sep) {
		t.header = append(t.header, string(bytes.TrimSpace(f)))
	}
	t.headerRead = true
	return t, nil
}

// newHeaderless returns a table over r whose columns are given.
func newHeaderless(name string, r io.Reader, sep string, header []string) *csvTable {
	return &csvTable{name: name, r: bufio.NewReaderSize(r, csvBuffer), sep: []byte(sep), header: header}
}

// next returns the next line without its line ending (valid until the
// next call), or io.EOF after the last one.
func (t *csvTable) next() ([]byte, error) {
	t.line++
	l, err := t.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		t.long = append(t.long[:0], l...)
		for errors.Is(err, bufio.ErrBufferFull) {
			l, err = t.r.ReadSlice('\n')
			t.long = append(t.long, l...)
		}
		l = t.long
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(l) == 0 && errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	l = bytes.TrimSuffix(l, []byte("\n"))
	l = bytes.TrimSuffix(l, []byte("\r"))
	return l, nil
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
// number and its fields (views into the line, valid during the call).
// A line whose field count differs from want is an error, and so is a file
// without any data line (empty, or a header alone).
func (t *csvTable) each(want int, fn func(line int, fields [][]byte) error) error {
	fields := make([][]byte, 0, want+1)
	rows := 0
	for {
		l, err := t.next()
		if errors.Is(err, io.EOF) {
			if rows == 0 {
				if t.headerRead {
					return fmt.Errorf("%s: no data rows (the file has a header line only)", t.name)
				}
				return fmt.Errorf("%s: no data rows (empty file)", t.name)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", t.name, t.line, err)
		}
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		rows++
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
			return fmt.Errorf("%s:%d: %d fields, want %d", t.name, t.line, len(fields), want)
		}
		if err := fn(t.line, fields); err != nil {
			return err
		}
	}
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

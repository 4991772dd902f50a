// Package nbformat reads and writes Jupyter notebooks (.ipynb, nbformat
// version 4) for the headless runner.
//
// Reading keeps everything: fields this package does not model are kept and
// written back, metadata is kept as decoded JSON (numbers with their
// original digits), and a string stored as a list of lines is written back
// as the same list. Writing follows Jupyter exactly (one-space indent,
// sorted keys, non-ASCII characters unescaped, multi-line strings as lists
// of lines, a trailing newline), so a notebook saved by Jupyter and read
// then written unchanged keeps its bytes. WriteFile replaces a file
// atomically.
//
// Errors for malformed input name the file, the cell and output (numbered
// from 0, as in the JSON list) and the field, for example
// "x.ipynb: cell 3: output 0: field text: line 1 is the number 1, not a string".
package nbformat

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Notebook is a version 4 notebook.
type Notebook struct {
	// Format and Minor are nbformat and nbformat_minor (4 and 5 for the
	// current format).
	Format, Minor int
	// Metadata is the notebook metadata (kernelspec, language_info, ...).
	Metadata map[string]any
	// Cells are the cells in order.
	Cells []*Cell

	extra map[string]any // unknown top-level fields
}

// Cell is a code, markdown or raw cell.
type Cell struct {
	// ID is the cell id (nbformat 4.5); empty in older notebooks.
	ID string
	// Type is "code", "markdown" or "raw".
	Type string
	// Source is the cell's text.
	Source string
	// Metadata is the cell metadata.
	Metadata map[string]any
	// ExecutionCount is the count of the last execution of a code cell;
	// nil when it has not run.
	ExecutionCount *int
	// Outputs are the outputs of a code cell.
	Outputs []*Output

	lines       []string // Source as read, when stored as a list
	sourceIsStr bool     // Source was stored as one string
	extra       map[string]any
}

// Output types.
const (
	Stream        = "stream"
	DisplayData   = "display_data"
	ExecuteResult = "execute_result"
	ErrorOutput   = "error"
)

// Output is one output of a code cell.
type Output struct {
	// Type is Stream, DisplayData, ExecuteResult or ErrorOutput.
	Type string
	// Name ("stdout" or "stderr") and Text are set for Stream.
	Name, Text string
	// Data is the MIME bundle of DisplayData and ExecuteResult; text values
	// are plain strings (lists of lines are joined on reading).
	Data map[string]any
	// Metadata is the output metadata of DisplayData and ExecuteResult.
	Metadata map[string]any
	// ExecutionCount is set for ExecuteResult.
	ExecutionCount *int
	// EName, EValue and Traceback are set for ErrorOutput.
	EName, EValue string
	Traceback     []string

	// DisplayID is the display ID the output was shown under (kept in
	// memory for update_display_data; not stored in the file, like
	// Jupyter's transient field).
	DisplayID string

	lines map[string][]string // text fields as read, when stored as lists
	extra map[string]any
}

// New returns an empty nbformat 4.5 notebook.
func New() *Notebook {
	return &Notebook{Format: 4, Minor: 5, Metadata: map[string]any{}}
}

// NewCodeCell returns a code cell with a fresh id.
func NewCodeCell(source string) *Cell {
	return &Cell{ID: NewID(), Type: "code", Source: source, Metadata: map[string]any{}, Outputs: []*Output{}}
}

// NewID returns a fresh cell id (8 hex digits, like Jupyter's).
func NewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// EnsureIDs makes n an nbformat 4.5 notebook: it gives every cell without
// an id a fresh one (unique in n) and raises Minor to 5.
func (n *Notebook) EnsureIDs() {
	if n.Minor < 5 {
		n.Minor = 5
	}
	seen := map[string]bool{}
	for _, c := range n.Cells {
		if c.ID != "" {
			seen[c.ID] = true
		}
	}
	for _, c := range n.Cells {
		for c.ID == "" {
			if id := NewID(); !seen[id] {
				c.ID = id
				seen[id] = true
			}
		}
	}
}

// Language returns the notebook's language (metadata.kernelspec.language
// or metadata.language_info.name), "" when not recorded.
func (n *Notebook) Language() string {
	for _, k := range []string{"kernelspec", "language_info"} {
		if m, ok := n.Metadata[k].(map[string]any); ok {
			key := "language"
			if k == "language_info" {
				key = "name"
			}
			if s, ok := m[key].(string); ok {
				return s
			}
		}
	}
	return ""
}

// ReadFile reads a notebook file. Errors name the file, and for a malformed
// cell its index and field.
func ReadFile(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// Parse decodes a notebook.
func Parse(data []byte) (*Notebook, error) {
	g, err := decodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	top, ok := g.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a notebook: the top level is %s, not an object", kind(g))
	}
	nb := &Notebook{extra: map[string]any{}}
	for k, v := range top {
		switch k {
		case "nbformat":
			nb.Format, err = intField(v, "nbformat")
		case "nbformat_minor":
			nb.Minor, err = intField(v, "nbformat_minor")
		case "metadata":
			nb.Metadata, err = objField(v, "metadata")
		case "cells":
			l, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("field cells: want a list, got %s", kind(v))
			}
			for i, cv := range l {
				c, err := parseCell(cv)
				if err != nil {
					return nil, fmt.Errorf("cell %d: %w", i, err)
				}
				nb.Cells = append(nb.Cells, c)
			}
		default:
			nb.extra[k] = v
		}
		if err != nil {
			return nil, err
		}
	}
	if _, ok := top["nbformat"]; !ok {
		return nil, fmt.Errorf("not a notebook: no nbformat field")
	}
	if nb.Format != 4 {
		return nil, fmt.Errorf("field nbformat: version %d is not supported (only 4)", nb.Format)
	}
	if _, ok := top["cells"]; !ok {
		return nil, fmt.Errorf("no cells field")
	}
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	return nb, nil
}

func parseCell(v any) (*Cell, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object, got %s", kind(v))
	}
	c := &Cell{extra: map[string]any{}}
	var err error
	for k, f := range m {
		switch k {
		case "id":
			c.ID, err = strField(f, "id")
		case "cell_type":
			c.Type, err = strField(f, "cell_type")
		case "source":
			c.Source, c.lines, err = multiField(f, "source")
			c.sourceIsStr = err == nil && c.lines == nil
		case "metadata":
			c.Metadata, err = objField(f, "metadata")
		case "execution_count":
			c.ExecutionCount, err = countField(f, "execution_count")
		case "outputs":
			l, ok := f.([]any)
			if !ok {
				return nil, fmt.Errorf("field outputs: want a list, got %s", kind(f))
			}
			c.Outputs = []*Output{}
			for j, ov := range l {
				o, err := parseOutput(ov)
				if err != nil {
					return nil, fmt.Errorf("output %d: %w", j, err)
				}
				c.Outputs = append(c.Outputs, o)
			}
		default:
			c.extra[k] = f
		}
		if err != nil {
			return nil, err
		}
	}
	switch c.Type {
	case "code", "markdown", "raw":
	case "":
		return nil, fmt.Errorf("field cell_type: missing")
	default:
		return nil, fmt.Errorf("field cell_type: unknown type %q", c.Type)
	}
	if _, ok := m["source"]; !ok {
		return nil, fmt.Errorf("field source: missing")
	}
	if c.Metadata == nil {
		c.Metadata = map[string]any{}
	}
	if c.Type == "code" && c.Outputs == nil {
		c.Outputs = []*Output{}
	}
	return c, nil
}

func parseOutput(v any) (*Output, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object, got %s", kind(v))
	}
	o := &Output{extra: map[string]any{}, lines: map[string][]string{}}
	var err error
	for k, f := range m {
		switch k {
		case "output_type":
			o.Type, err = strField(f, "output_type")
		case "name":
			o.Name, err = strField(f, "name")
		case "text":
			var lines []string
			o.Text, lines, err = multiField(f, "text")
			if lines != nil {
				o.lines["text"] = lines
			}
		case "data":
			var d map[string]any
			d, err = objField(f, "data")
			if err == nil {
				o.Data = map[string]any{}
				for mime, dv := range d {
					if l, ok := dv.([]any); ok && isStrings(l) {
						s, lines, _ := multiField(l, "data")
						o.Data[mime] = s
						o.lines["data/"+mime] = lines
					} else {
						o.Data[mime] = dv
					}
				}
			}
		case "metadata":
			o.Metadata, err = objField(f, "metadata")
		case "execution_count":
			o.ExecutionCount, err = countField(f, "execution_count")
		case "ename":
			o.EName, err = strField(f, "ename")
		case "evalue":
			o.EValue, err = strField(f, "evalue")
		case "traceback":
			l, ok := f.([]any)
			if !ok || !isStrings(l) {
				return nil, fmt.Errorf("field traceback: want a list of strings, got %s", kind(f))
			}
			o.Traceback = make([]string, len(l))
			for i, s := range l {
				o.Traceback[i] = s.(string)
			}
		default:
			o.extra[k] = f
		}
		if err != nil {
			return nil, err
		}
	}
	switch o.Type {
	case Stream, DisplayData, ExecuteResult, ErrorOutput:
	case "":
		return nil, fmt.Errorf("field output_type: missing")
	default:
		return nil, fmt.Errorf("field output_type: unknown type %q", o.Type)
	}
	return o, nil
}

// Marshal encodes n as Jupyter writes it, ending with a newline.
func (n *Notebook) Marshal() ([]byte, error) {
	top := map[string]any{}
	for k, v := range n.extra {
		top[k] = v
	}
	top["nbformat"] = n.Format
	top["nbformat_minor"] = n.Minor
	top["metadata"] = orEmpty(n.Metadata)
	cells := make([]any, 0, len(n.Cells))
	for _, c := range n.Cells {
		cells = append(cells, c.generic(n.Minor))
	}
	top["cells"] = cells
	var b bytes.Buffer
	if err := encodeJSON(&b, top, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// Write writes n to w as Jupyter does.
func (n *Notebook) Write(w io.Writer) error {
	data, err := n.Marshal()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WriteFile writes n to path atomically: to a temporary file in the same
// directory, synced, then renamed over path. A crash or an interrupt leaves
// either the old file or the new one, never a truncated notebook. An
// existing file keeps its permissions; when path is a symbolic link, the
// file it points to is replaced and the link stays.
func WriteFile(path string, n *Notebook) error {
	data, err := n.Marshal()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeAtomic(path, data)
}

func writeAtomic(path string, data []byte) (err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	return nil
}

func (c *Cell) generic(minor int) map[string]any {
	m := map[string]any{}
	for k, v := range c.extra {
		m[k] = v
	}
	if c.ID != "" && minor >= 5 {
		m["id"] = c.ID
	}
	m["cell_type"] = c.Type
	m["metadata"] = orEmpty(c.Metadata)
	if c.sourceIsStr {
		m["source"] = c.Source
	} else {
		m["source"] = multi(c.Source, c.lines)
	}
	if c.Type == "code" {
		if c.ExecutionCount != nil {
			m["execution_count"] = *c.ExecutionCount
		} else {
			m["execution_count"] = nil
		}
		outs := make([]any, 0, len(c.Outputs))
		for _, o := range c.Outputs {
			outs = append(outs, o.generic())
		}
		m["outputs"] = outs
	}
	return m
}

func (o *Output) generic() map[string]any {
	m := map[string]any{}
	for k, v := range o.extra {
		m[k] = v
	}
	m["output_type"] = o.Type
	switch o.Type {
	case Stream:
		m["name"] = o.Name
		m["text"] = multi(o.Text, o.lines["text"])
	case DisplayData, ExecuteResult:
		data := map[string]any{}
		for mime, v := range o.Data {
			s, ok := v.(string)
			switch {
			case ok && o.lines["data/"+mime] != nil:
				data[mime] = multi(s, o.lines["data/"+mime])
			case ok && (strings.HasPrefix(mime, "text/") || mime == "image/svg+xml" || mime == "application/javascript"):
				data[mime] = multi(s, nil)
			default:
				data[mime] = v
			}
		}
		m["data"] = data
		m["metadata"] = orEmpty(o.Metadata)
		if o.Type == ExecuteResult {
			if o.ExecutionCount != nil {
				m["execution_count"] = *o.ExecutionCount
			} else {
				m["execution_count"] = nil
			}
		}
	case ErrorOutput:
		m["ename"] = o.EName
		m["evalue"] = o.EValue
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["traceback"] = tb
	}
	return m
}

// multi returns s as the list of lines it was read as when they still join
// to s, else split like nbformat.
func multi(s string, lines []string) []string {
	if lines != nil && strings.Join(lines, "") == s {
		return lines
	}
	return splitLines(s)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + string(x)
	case string:
		return fmt.Sprintf("the string %q", trunc(x))
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func isStrings(l []any) bool {
	for _, e := range l {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}

func strField(v any, name string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("field %s: want a string, got %s", name, kind(v))
	}
	return s, nil
}

func intField(v any, name string) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("field %s: want an integer, got %s", name, kind(v))
	}
	i, err := n.Int64()
	if err != nil {
		return 0, fmt.Errorf("field %s: want an integer, got %s", name, n)
	}
	return int(i), nil
}

func countField(v any, name string) (*int, error) {
	if v == nil {
		return nil, nil
	}
	i, err := intField(v, name)
	if err != nil {
		return nil, err
	}
	return &i, nil
}

func objField(v any, name string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("field %s: want an object, got %s", name, kind(v))
	}
	return m, nil
}

// multiField reads a string stored as a string or a list of strings; lines
// is the list when it was one.
func multiField(v any, name string) (s string, lines []string, err error) {
	switch x := v.(type) {
	case string:
		return x, nil, nil
	case []any:
		lines = make([]string, len(x))
		for i, e := range x {
			str, ok := e.(string)
			if !ok {
				return "", nil, fmt.Errorf("field %s: line %d is %s, not a string", name, i, kind(e))
			}
			lines[i] = str
		}
		return strings.Join(lines, ""), lines, nil
	}
	return "", nil, fmt.Errorf("field %s: want a string or a list of strings, got %s", name, kind(v))
}

package jupyter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
)

// ConnectionInfo is the content of a Jupyter connection file: where the
// five sockets listen and the key messages are signed with.
//
// A port of 0 means "any free port"; Serve then binds a free port and
// reports the ports it chose through the Ready option.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // address (tcp) or path prefix (ipc)
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`              // HMAC key; empty disables signing
	SignatureScheme string `json:"signature_scheme"` // "hmac-sha256"
	KernelName      string `json:"kernel_name,omitempty"`
}

// LoadConnectionFile reads and validates the connection file at path.
// Every field but kernel_name must be present; transport must be "tcp" or
// "ipc", signature_scheme "hmac-sha256" and ports integers in [0, 65535].
// An empty key is allowed and disables signatures.
func LoadConnectionFile(path string) (*ConnectionInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("jupyter: connection file: %w", err)
	}
	ci, err := ParseConnectionInfo(b)
	if err != nil {
		return nil, fmt.Errorf("jupyter: connection file %s: %w", path, err)
	}
	return ci, nil
}

// ParseConnectionInfo parses and validates the JSON of a connection file
// (see LoadConnectionFile).
func ParseConnectionInfo(b []byte) (*ConnectionInfo, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if raw == nil {
		return nil, fmt.Errorf("invalid JSON: expected an object, got null")
	}
	ci := new(ConnectionInfo)
	str := func(field string, dst *string) error {
		v, ok := raw[field]
		if !ok {
			return fmt.Errorf("field %q is missing", field)
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("field %q: want a string, got %s", field, v)
		}
		return nil
	}
	port := func(field string, dst *int) error {
		v, ok := raw[field]
		if !ok {
			return fmt.Errorf("field %q is missing", field)
		}
		p, err := strconv.Atoi(string(v))
		if err != nil || p < 0 || p > 65535 {
			return fmt.Errorf("field %q: want a port number in [0, 65535], got %s", field, v)
		}
		*dst = p
		return nil
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"transport", &ci.Transport},
		{"ip", &ci.IP},
		{"key", &ci.Key},
		{"signature_scheme", &ci.SignatureScheme},
	} {
		if err := str(f.name, f.dst); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{
		{"shell_port", &ci.ShellPort},
		{"control_port", &ci.ControlPort},
		{"stdin_port", &ci.StdinPort},
		{"iopub_port", &ci.IOPubPort},
		{"hb_port", &ci.HBPort},
	} {
		if err := port(f.name, f.dst); err != nil {
			return nil, err
		}
	}
	if v, ok := raw["kernel_name"]; ok {
		_ = json.Unmarshal(v, &ci.KernelName) // informational only
	}
	if err := ci.Validate(); err != nil {
		return nil, err
	}
	return ci, nil
}

// Validate reports the first field of ci that Serve cannot use.
func (ci *ConnectionInfo) Validate() error {
	switch ci.Transport {
	case "tcp", "ipc":
	default:
		return fmt.Errorf("field \"transport\": want \"tcp\" or \"ipc\", got %q", ci.Transport)
	}
	if ci.IP == "" {
		return fmt.Errorf("field \"ip\" is empty")
	}
	if ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("field \"signature_scheme\": only \"hmac-sha256\" is supported, got %q", ci.SignatureScheme)
	}
	for _, p := range []struct {
		name string
		v    int
	}{
		{"shell_port", ci.ShellPort}, {"control_port", ci.ControlPort},
		{"stdin_port", ci.StdinPort}, {"iopub_port", ci.IOPubPort}, {"hb_port", ci.HBPort},
	} {
		if p.v < 0 || p.v > 65535 {
			return fmt.Errorf("field %q: want a port number in [0, 65535], got %d", p.name, p.v)
		}
		if ci.Transport == "ipc" && p.v == 0 {
			return fmt.Errorf("field %q: ipc transport needs a non-zero port (it names the socket file)", p.name)
		}
	}
	return nil
}

// endpoint returns the ZeroMQ endpoint of a port, following Jupyter's
// convention for ipc: the socket file is "<ip>-<port>".
func (ci *ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return "ipc://" + ci.IP + "-" + strconv.Itoa(port)
	}
	ip := ci.IP
	if ip == "*" || ip == "" {
		ip = "0.0.0.0"
	}
	return "tcp://" + net.JoinHostPort(ip, strconv.Itoa(port))
}

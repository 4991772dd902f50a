package jupyter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodConnection = `{
  "shell_port": 53794, "iopub_port": 53795, "stdin_port": 53796,
  "control_port": 53797, "hb_port": 53798, "ip": "127.0.0.1",
  "key": "a0436f6c-1916-498b-8eb9-e81ab9368e84", "transport": "tcp",
  "signature_scheme": "hmac-sha256", "kernel_name": "goldp"
}`

func TestLoadConnectionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kernel-1.json")
	if err := os.WriteFile(path, []byte(goodConnection), 0o600); err != nil {
		t.Fatal(err)
	}
	ci, err := LoadConnectionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: 53794, ControlPort: 53797, StdinPort: 53796,
		IOPubPort: 53795, HBPort: 53798, Key: "a0436f6c-1916-498b-8eb9-e81ab9368e84",
		SignatureScheme: "hmac-sha256", KernelName: "goldp"}
	if *ci != want {
		t.Errorf("got %+v\nwant %+v", *ci, want)
	}
	if ep := ci.endpoint(ci.ShellPort); ep != "tcp://127.0.0.1:53794" {
		t.Errorf("endpoint %q", ep)
	}
	ipc := want
	ipc.Transport, ipc.IP = "ipc", "/tmp/kernel-x"
	if ep := ipc.endpoint(5); ep != "ipc:///tmp/kernel-x-5" {
		t.Errorf("ipc endpoint %q", ep)
	}
	v6 := want
	v6.IP = "::1"
	if ep := v6.endpoint(5); ep != "tcp://[::1]:5" {
		t.Errorf("IPv6 endpoint %q", ep)
	}

	if _, err := LoadConnectionFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestParseConnectionInfoErrors(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(goodConnection, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(goodConnection, old, new, 1)
	}
	for _, c := range []struct{ json, want string }{
		{`not json`, "invalid JSON"},
		{`null`, "invalid JSON"},
		{replace(`"transport": "tcp",`, ``), `"transport" is missing`},
		{replace(`"tcp"`, `"udp"`), `"transport": want "tcp" or "ipc", got "udp"`},
		{replace(`"hmac-sha256"`, `"hmac-md5"`), `"signature_scheme": only "hmac-sha256" is supported, got "hmac-md5"`},
		{replace(`"signature_scheme": "hmac-sha256",`, ``), `"signature_scheme" is missing`},
		{replace(`"key": "a0436f6c-1916-498b-8eb9-e81ab9368e84",`, ``), `"key" is missing`},
		{replace(`"key": "a0436f6c-1916-498b-8eb9-e81ab9368e84"`, `"key": 5`), `"key": want a string, got 5`},
		{replace(`"hb_port": 53798,`, ``), `"hb_port" is missing`},
		{replace(`53798`, `70000`), `"hb_port": want a port number in [0, 65535], got 70000`},
		{replace(`53794`, `"53794"`), `"shell_port": want a port number`},
		{replace(`53795`, `1.5`), `"iopub_port": want a port number`},
		{replace(`"ip": "127.0.0.1"`, `"ip": ""`), `"ip" is empty`},
		{replace(`"tcp"`, `"ipc"`) + "", ""}, // valid
	} {
		_, err := ParseConnectionInfo([]byte(c.json))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.json, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("error %v, want it to contain %q", err, c.want)
		}
	}
	ipc0 := replace(`"tcp"`, `"ipc"`)
	ipc0 = strings.Replace(ipc0, "53796", "0", 1)
	if _, err := ParseConnectionInfo([]byte(ipc0)); err == nil || !strings.Contains(err.Error(), "stdin_port") {
		t.Errorf("ipc with port 0: %v", err)
	}
}

package jupyter

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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

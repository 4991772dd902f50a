package jupyter

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWatchParent runs this test binary as a middle process that starts a
// grandchild watching its parent, then kills the middle process with
// SIGKILL: the grandchild's context must be cancelled with ErrParentGone.
// The grandchild is not the test's child, so it reports what it saw in a
// file.
func TestWatchParent(t *testing.T) {
	switch os.Getenv("GOLDP_WATCHPARENT_ROLE") {
	case "grandchild":
		ctx, cancel := WatchParent(context.Background(), 10*time.Millisecond)
		defer cancel()
		os.Stdout.WriteString("watching\n")
		report := "nothing within 10 s"
		select {
		case <-ctx.Done():
			report = "cancelled: " + context.Cause(ctx).Error()
			if errors.Is(context.Cause(ctx), ErrParentGone) {
				report = "parent gone"
			}
		case <-time.After(10 * time.Second):
		}
		os.WriteFile(os.Getenv("GOLDP_WATCHPARENT_REPORT"), []byte(report), 0o644)
		os.Exit(0)
	case "middle":
		cmd := exec.Command(os.Args[0], "-test.run=^TestWatchParent$")
		cmd.Env = append(os.Environ(), "GOLDP_WATCHPARENT_ROLE=grandchild")
		cmd.Stdout = os.Stdout
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			os.Exit(5)
		}
		os.Stdout.WriteString("pid " + strconv.Itoa(cmd.Process.Pid) + "\n")
		select {} // until killed
	}

	report := t.TempDir() + "/report"
	mid := exec.Command(os.Args[0], "-test.run=^TestWatchParent$")
	mid.Env = append(os.Environ(), "GOLDP_WATCHPARENT_ROLE=middle", "GOLDP_WATCHPARENT_REPORT="+report)
	out, err := mid.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := mid.Start(); err != nil {
		t.Fatal(err)
	}
	// Read "pid N" and "watching" (in either order).
	var pid int
	buf := make([]byte, 0, 256)
	deadline := time.Now().Add(20 * time.Second)
	for (pid == 0 || !strings.Contains(string(buf), "watching")) && time.Now().Before(deadline) {
		b := make([]byte, 64)
		n, err := out.Read(b)
		buf = append(buf, b[:n]...)
		for _, line := range strings.Split(string(buf), "\n") {
			if p, ok := strings.CutPrefix(line, "pid "); ok {
				pid, _ = strconv.Atoi(p)
			}
		}
		if err != nil {
			break
		}
	}
	if pid == 0 || !strings.Contains(string(buf), "watching") {
		mid.Process.Kill()
		t.Fatalf("the middle process did not start a watching grandchild: %q", buf)
	}
	mid.Process.Kill()
	mid.Wait()
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(report); err == nil && len(b) > 0 {
			if string(b) != "parent gone" {
				t.Fatalf("the grandchild reported %q, want \"parent gone\"", b)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatal("the grandchild did not notice its parent was killed")
}

package jupyter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
)

// KernelSpec is the content of a kernelspec's kernel.json.
type KernelSpec struct {
	Argv          []string       `json:"argv"`
	DisplayName   string         `json:"display_name"`
	Language      string         `json:"language"`
	InterruptMode string         `json:"interrupt_mode"`
	Metadata      map[string]any `json:"metadata"`
}

// InstallKernelSpec writes the kernelspec name (usually "goldp") into the
// kernels directory dir: dir/name/kernel.json with the given argv (which
// should contain "{connection_file}"), display name "Go (goldp)",
// language "go" and interrupt_mode "message", plus logo-32x32.png and
// logo-64x64.png. Each file is written atomically (temporary file, then
// rename). It returns the kernelspec directory.
func InstallKernelSpec(dir, name string, argv []string) (string, error) {
	if !validKernelName(name) {
		return "", fmt.Errorf("jupyter: kernelspec name %q: want letters, digits, '.', '_' or '-' (as jupyter_client requires)", name)
	}
	if len(argv) == 0 {
		return "", fmt.Errorf("jupyter: kernelspec argv is empty")
	}
	display := "Go (goldp)"
	if name != "goldp" {
		display = "Go (goldp, " + name + ")"
	}
	spec := KernelSpec{
		Argv:          argv,
		DisplayName:   display,
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{},
	}
	js, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", err
	}
	kdir := filepath.Join(dir, name)
	if err := os.MkdirAll(kdir, 0o755); err != nil {
		return "", fmt.Errorf("jupyter: kernelspec: %w", err)
	}
	files := []struct {
		name string
		data []byte
	}{{"kernel.json", append(js, '\n')}}
	for _, size := range []int{32, 64} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, Logo(size)); err != nil {
			return "", err
		}
		files = append(files, struct {
			name string
			data []byte
		}{fmt.Sprintf("logo-%dx%d.png", size, size), buf.Bytes()})
	}
	for _, f := range files {
		if err := writeFileAtomic(filepath.Join(kdir, f.name), f.data, 0o644); err != nil {
			return "", fmt.Errorf("jupyter: kernelspec: %w", err)
		}
	}
	return kdir, nil
}

// validKernelName reports whether name is a kernelspec name jupyter_client
// accepts: ASCII letters, digits, '.', '_' and '-', and not "." or "..".
func validKernelName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// writeFileAtomic writes data to a temporary file next to path and renames
// it over path, so readers see either the old or the new file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Logo draws the goldp logo at size×size pixels: a white "Go" on a rounded
// square in the Go gopher blue, with a few scattered dots for the noise of
// local differential privacy. Edges are anti-aliased by supersampling.
func Logo(size int) image.Image {
	const ss = 4 // samples per pixel per axis
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blue := [3]float64{0x00, 0xAD, 0xD8}
	white := [3]float64{0xFF, 0xFF, 0xFF}
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var bg, fg float64 // coverage of the square and of the letters
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/ss) / float64(size)
					if inRoundedSquare(x, y, 0.03, 0.18) {
						bg++
						if inGlyphs(x, y) {
							fg++
						}
					}
				}
			}
			n := float64(ss * ss)
			a := bg / n
			if a == 0 {
				continue
			}
			t := fg / bg // share of white within the covered part
			c := color.NRGBA{A: uint8(math.Round(a * 255))}
			c.R = uint8(math.Round(blue[0]*(1-t) + white[0]*t))
			c.G = uint8(math.Round(blue[1]*(1-t) + white[1]*t))
			c.B = uint8(math.Round(blue[2]*(1-t) + white[2]*t))
			img.SetNRGBA(px, py, c)
		}
	}
	return img
}

// inRoundedSquare reports whether (x, y) in the unit square lies in the
// square inset by margin with corner radius r.
func inRoundedSquare(x, y, margin, r float64) bool {
	lo, hi := margin+r, 1-margin-r
	dx := math.Max(math.Max(lo-x, x-hi), 0)
	dy := math.Max(math.Max(lo-y, y-hi), 0)
	if x < margin || x > 1-margin || y < margin || y > 1-margin {
		return false
	}
	return dx*dx+dy*dy <= r*r
}

// inGlyphs reports whether (x, y) lies on the letters "Go" or the dots.
func inGlyphs(x, y float64) bool {
	// G: a ring open on the upper right, with a bar into the middle.
	gx, gy := 0.36, 0.50
	d := math.Hypot(x-gx, y-gy)
	ang := math.Atan2(gy-y, x-gx) // y axis up
	if d >= 0.13 && d <= 0.23 && !(ang > -0.05 && ang < 0.9) {
		return true
	}
	if y >= gy-0.01 && y <= gy+0.07 && x >= gx+0.01 && x <= gx+0.23 {
		return true
	}
	// o: a smaller ring.
	ox, oy := 0.74, 0.58
	if d := math.Hypot(x-ox, y-oy); d >= 0.07 && d <= 0.15 {
		return true
	}
	// Noise dots above the o.
	for _, p := range [][2]float64{{0.66, 0.25}, {0.80, 0.20}, {0.88, 0.33}} {
		if math.Hypot(x-p[0], y-p[1]) <= 0.035 {
			return true
		}
	}
	return false
}

package worker

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"": 0, "0": 0, "1048576": 1 << 20, "512M": 512 << 20, "4G": 4 << 30, "4g": 4 << 30,
		"1.5GiB": 3 << 29, "2KB": 2048, " 3 T ": 3 << 40, "100b": 100,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"x", "-1G", "4X", "G", "1e30T"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}

package worker

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize parses a byte count such as "4G", "512M", "1.5GiB" or
// "1048576": a number with an optional K, M, G or T suffix (powers of 1024,
// optionally followed by "B" or "iB"). The empty string is 0, meaning no
// limit. It reads Options.MaxRSS from a flag or GOLDP_WORKER_MAX_RSS.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	u := strings.ToUpper(t)
	u = strings.TrimSuffix(u, "IB")
	if !strings.HasSuffix(u, "IB") {
		u = strings.TrimSuffix(u, "B")
	}
	mult := 1.0
	if n := len(u); n > 0 {
		if i := strings.IndexByte("KMGT", u[n-1]); i >= 0 {
			mult = float64(int64(1) << (10 * (i + 1)))
			u = u[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("invalid size %q (want e.g. 4G, 512M or a byte count)", s)
	}
	return int64(v * mult), nil
}

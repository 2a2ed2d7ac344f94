// Package benchtest holds what the benchmarks of several packages measure with: latency
// percentiles and the CPU time of the benchmark's own process.
package benchtest

import (
	"slices"
	"syscall"
	"testing"
	"time"
)

// Percentile is the p-th percentile of ds (nearest rank); ds is left as it is.
func Percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

// Millis is d in milliseconds, as benchmarks report it.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// ProcessCPU is the user and system CPU time of the process so far: every goroutine's,
// an embedded server's too.
func ProcessCPU(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

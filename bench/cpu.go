package bench

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Throughput on a shared virtual machine moves with its neighbours: the
// hypervisor's steal time comes and goes across a large share of the box's
// CPU during one run. CPU time spent per operation moves far less, so the
// bench reports it beside every rate, and the steal it saw, so a slow run
// can be told from a slow change.

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter measures CPU time and the machine's steal share over a phase.
type cpuMeter struct {
	cpu          time.Duration
	steal, total int64
}

func startCPU() cpuMeter {
	m := cpuMeter{cpu: cpuTime()}
	m.steal, m.total = stealTicks()
	return m
}

// perOp is CPU milliseconds per operation since start.
func (m cpuMeter) perOp(n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(cpuTime()-m.cpu) / float64(time.Millisecond) / float64(n)
}

// stealPct is the share of all CPU time the hypervisor took since start.
func (m cpuMeter) stealPct() float64 {
	s, t := stealTicks()
	if t <= m.total {
		return 0
	}
	return 100 * float64(s-m.steal) / float64(t-m.total)
}

// stealTicks reads the steal and total columns of /proc/stat's cpu line;
// zeros where there is no /proc.
func stealTicks() (steal, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		total += n
		if i == 7 {
			steal = n
		}
	}
	return steal, total
}

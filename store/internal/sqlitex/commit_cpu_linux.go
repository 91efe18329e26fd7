package sqlitex

import "syscall"

// threadCPU is the CPU time of the calling OS thread (user plus system) in
// nanoseconds. Steal time is not in it, so it measures the writer's own
// work on a busy shared machine where its wall-clock busy time cannot.
func threadCPU() int64 {
	const rusageThread = 1 // RUSAGE_THREAD, Linux 2.6.26+
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

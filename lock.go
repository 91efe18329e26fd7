package main

import (
	"fmt"
	"os"
	"syscall"
)

// lockServe takes an exclusive lock beside the database so two servers never
// run jobs on one file; the reclaiming of orphaned jobs at start relies on it.
// The lock dies with the process, so a SIGKILL never leaves it stale.
func lockServe(dbPath string) (*os.File, error) {
	f, err := os.OpenFile(dbPath+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another payoutd server is using %s", dbPath)
	}
	return f, nil
}

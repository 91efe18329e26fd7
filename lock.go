package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockServe takes an exclusive lock on the database file itself, so two
// servers never run jobs on one file whatever path each was given: a
// symlink opens the same file and a hard link is the same inode, while a
// lock file named after the path would differ for each. The lock is a
// flock, which SQLite (POSIX fcntl locks) never sees, and it dies with the
// process, so a SIGKILL never leaves it stale. The returned file must stay
// open until the database is closed: closing any descriptor of the file
// drops this process's fcntl locks, SQLite's included.
func lockServe(dbPath string) (*os.File, error) {
	f, err := os.OpenFile(dbPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another payoutd server is using the database %s (the same file, by this or another path)", dbPath)
		}
		return nil, fmt.Errorf("lock database %s: %w", dbPath, err)
	}
	return f, nil
}

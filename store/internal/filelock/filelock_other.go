//go:build !linux

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// Without open file description locks (Linux) only servers are kept
// apart, by a flock on the file; the check of other names is not made.

// Server takes the server lock, or returns ErrServer.
func (l *Lock) Server() error {
	if err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrServer
		}
		return err
	}
	return nil
}

// Announce reports no other name: this system cannot tell.
func (l *Lock) Announce() (otherName bool, err error) { return false, nil }

// UsedThroughOtherName reports no other name: this system cannot tell.
func (l *Lock) UsedThroughOtherName() (bool, error) { return false, nil }

// LockBeside takes an exclusive flock on name, created if missing, and
// holds it until Close.
func (l *Lock) LockBeside(name string) (busy bool, err error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return errors.Is(err, syscall.EWOULDBLOCK), err
	}
	l.extra = append(l.extra, f)
	return false, nil
}

func fileID(path string) (dev, ino uint64, err error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return 0, 0, err
	}
	return uint64(st.Dev), uint64(st.Ino), nil
}

// Holder is another process that has the file open.
type Holder struct {
	PID  int
	Path string
}

// Holders is empty: this system has no /proc to look in.
func (l *Lock) Holders() []Holder { return nil }

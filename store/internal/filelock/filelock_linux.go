package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Locks are open file description (OFD) locks: owned by this descriptor,
// not the process, so SQLite opening and closing its own descriptors of
// the file never drops them, and two descriptors in one process conflict
// like two processes. They die with the process: a SIGKILL leaves none.

// Server takes the server byte, or returns ErrServer. It also takes a
// flock on the file, which is how the release before this one kept two
// servers apart, so the two releases never serve one file together.
func (l *Lock) Server() error {
	if err := l.ofd(unix.F_OFD_SETLK, unix.F_WRLCK, serverByte, 1); err != nil {
		if isBusy(err) {
			return ErrServer
		}
		return err
	}
	if err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if isBusy(err) {
			return ErrServer
		}
		return err
	}
	return nil
}

// Announce takes this name's slot and reports whether another process
// holds the file through another name. The slot is taken before the
// others are looked at, so of two processes starting at once at least one
// sees the other.
func (l *Lock) Announce() (otherName bool, err error) {
	if err := l.ofd(unix.F_OFD_SETLK, unix.F_RDLCK, l.slot, 1); err != nil {
		return false, err
	}
	for _, r := range [][2]int64{{slotBase, l.slot - slotBase}, {l.slot + 1, slotBase + int64(slotCount) - l.slot - 1}} {
		if r[1] <= 0 {
			continue
		}
		lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: r[0], Len: r[1]}
		if err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
			return false, err
		}
		if lk.Type != unix.F_UNLCK {
			return true, nil
		}
	}
	return false, nil
}

// SQLite's own locks, which every process using the file through SQLite
// holds whatever release or program it is: in WAL mode each connection
// holds a shared lock on the database file's SHARED range and on the DMS
// byte of the index (-shm) beside the name it opened the file by.
const (
	sqliteSharedFirst = 0x40000000 + 2 // PENDING_BYTE + 2
	sqliteSharedSize  = 510
	sqliteShmDMS      = 128 // UNIX_SHM_DMS: (22+8)*4 + 8
)

// UsedThroughOtherName reports whether some process has the file open in
// SQLite through another name than this lock's, while taking no part in
// these locks (so Announce cannot see it: an older payoutd release,
// another program). It holds SQLite's shared lock on the file, and nobody
// holds SQLite's lock on the index beside this name. The index is kept
// open until Close: closing a descriptor would drop this process's own
// SQLite locks on it.
func (l *Lock) UsedThroughOtherName() (bool, error) {
	if busy, err := l.conflicts(l.f, sqliteSharedFirst, sqliteSharedSize); err != nil || !busy {
		return false, err
	}
	shm, err := os.Open(l.real + "-shm")
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	l.extra = append(l.extra, shm)
	here, err := l.conflicts(shm, sqliteShmDMS, 1)
	return !here && err == nil, err
}

// conflicts reports whether another descriptor or process holds a lock on
// f's bytes [start, start+n).
func (l *Lock) conflicts(f *os.File, start, n int64) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: start, Len: n}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return false, err
	}
	return lk.Type != unix.F_UNLCK, nil
}

// LockBeside takes an exclusive flock on name, created if missing, and
// holds it until Close.
func (l *Lock) LockBeside(name string) (busy bool, err error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return isBusy(err), err
	}
	l.extra = append(l.extra, f)
	return false, nil
}

func (l *Lock) ofd(cmd int, typ int16, start, n int64) error {
	lk := unix.Flock_t{Type: typ, Whence: 0, Start: start, Len: n}
	return unix.FcntlFlock(l.f.Fd(), cmd, &lk)
}

func isBusy(err error) bool {
	return errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.EWOULDBLOCK)
}

func fileID(path string) (dev, ino uint64, err error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, 0, err
	}
	return uint64(st.Dev), st.Ino, nil
}

// Holder is another process that has the file open, and the path it
// opened it by.
type Holder struct {
	PID  int
	Path string
}

// Holders lists the other processes this one can see that have the file
// open under another name than this one's, from /proc, with the path each
// opened it by. Processes of another user or in another PID namespace (a
// second container) are not visible.
func (l *Lock) Holders() []Holder {
	dev, ino, err := fileID(l.real)
	if err != nil {
		return nil
	}
	procs, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []Holder
	seen := map[Holder]bool{}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		dir := filepath.Join("/proc", p.Name(), "fd")
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			var st unix.Stat_t
			if unix.Stat(filepath.Join(dir, fd.Name()), &st) != nil || uint64(st.Dev) != dev || st.Ino != ino {
				continue
			}
			target, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if err != nil {
				continue
			}
			if name, err := nameOf(target); err != nil || name == l.name {
				continue
			}
			if h := (Holder{pid, target}); !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out
}

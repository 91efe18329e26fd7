package sqlitex

import (
	"os"
	"syscall"
)

// syncData is fdatasync, as SQLite itself syncs its WAL on Linux: the
// frames and the file size, without journaling the inode's modification
// time on every commit. SQLite reuses the WAL file from its start after a
// checkpoint, so most syncs change no size and commit no metadata at all.
func syncData(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = raw.Control(func(fd uintptr) {
		for {
			if serr = syscall.Fdatasync(int(fd)); serr != syscall.EINTR {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}

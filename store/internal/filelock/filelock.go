// Package filelock is how every process that opens a payoutd database
// announces itself on the file, so that processes reaching one file by
// different paths see each other.
//
// SQLite coordinates readers and writers through two files it names after
// the path it was given (<path>-wal and <path>-shm). Two processes that
// reach one database through different names (a hard link, a copy of the
// directory entry under another name) each get their own log and index,
// and the file is corrupted the first time both write. The locks here sit
// on the database file itself, so they follow its identity, not its name:
//
//   - every process holds a read lock on the slot of the name it uses (the
//     directory and file name SQLite will put its log beside), and refuses
//     the file when any other slot is held;
//   - a server (serve, migrate) also holds the server byte exclusively.
package filelock

import (
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
)

// ErrServer is a server lock already held by another process.
var ErrServer = errors.New("another server holds the file")

// Lock is one process's hold on a database file: an open descriptor that
// carries its locks until Close.
type Lock struct {
	f     *os.File
	path  string // as given
	real  string // symlinks resolved: where SQLite puts the log
	name  string // nameOf(real)
	slot  int64
	extra []*os.File // legacy lock files (LockBeside)
}

// Open opens the database file at path (creating an empty one when create)
// without locking anything yet.
func Open(path string, create bool) (*Lock, error) {
	flag := os.O_RDONLY
	if create {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	name, err := nameOf(real)
	if err != nil {
		f.Close()
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return &Lock{f: f, path: path, real: real, name: name, slot: slotBase + int64(h.Sum64()%slotCount)}, nil
}

// Holds reports whether the file at path is the file this lock holds (the
// same device and inode), whatever its name.
func (l *Lock) Holds(path string) (bool, error) {
	held, err := l.f.Stat()
	if err != nil {
		return false, err
	}
	other, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return os.SameFile(held, other), nil
}

// Real is the path with symlinks resolved.
func (l *Lock) Real() string { return l.real }

// Close drops every lock. It must come after SQLite has closed the file:
// closing a descriptor of a file drops the process's POSIX locks on it,
// SQLite's included.
func (l *Lock) Close() error {
	var errs []error
	for _, f := range l.extra {
		errs = append(errs, f.Close())
	}
	l.extra = nil
	if l.f != nil {
		errs = append(errs, l.f.Close())
		l.f = nil
	}
	return errors.Join(errs...)
}

// The lock offsets lie far above the bytes SQLite locks (around 1 GiB), so
// the two never meet; a lock may lie past the end of a file.
const (
	serverByte = int64(1) << 62
	slotBase   = int64(1) << 61
	slotCount  = uint64(1) << 32
)

// nameOf names the place SQLite keeps the log of the file at real
// (symlinks resolved): its directory's identity (device and inode) and the
// file name. One directory reached through two mounts (a container's
// volume and the host's path to it) is one place, and one name.
func nameOf(real string) (string, error) {
	dev, ino, err := fileID(filepath.Dir(real))
	if err != nil {
		return "", err
	}
	return strconv.FormatUint(dev, 10) + ":" + strconv.FormatUint(ino, 10) + "/" + filepath.Base(real), nil
}

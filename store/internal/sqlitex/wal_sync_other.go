//go:build !linux

package sqlitex

import "os"

// syncData is fsync where fdatasync is not at hand.
func syncData(f *os.File) error { return f.Sync() }

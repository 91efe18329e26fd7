//go:build !linux

package sqlitex

// threadCPU is not measured off Linux: the bench reports zero.
func threadCPU() int64 { return 0 }

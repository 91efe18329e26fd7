package store

import (
	"crypto/rand"
	"encoding/binary"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case: no i, l, o, u, so
// ids survive being read aloud or copied by hand.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns prefix_ followed by 26 characters: 48 bits of milliseconds
// then 80 random bits, so ids sort by creation time and never collide in practice.
func NewID(prefix string) string { return newIDAt(prefix, time.Now()) }

func newIDAt(prefix string, t time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(t.UnixMilli())<<16)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the kernel's RNG never fails on Linux
	}
	out := make([]byte, len(prefix)+1+26)
	n := copy(out, prefix)
	out[n] = '_'
	enc := out[n+1:]
	// 128 bits in 26 base32 digits, most significant first.
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		enc[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out)
}

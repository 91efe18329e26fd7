package store

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case: no i, l, o, u, so
// ids survive being read aloud or copied by hand.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// idClock makes ids strictly increasing within this process: two ids made in
// the same millisecond get the previous random part plus one, so "newest
// first" by id is the order things happened (ULID's monotonic rule).
var idClock struct {
	sync.Mutex
	ms uint64
	hi uint16 // top 16 random bits
	lo uint64 // low 64 random bits
}

// NewID returns prefix_ followed by 26 characters: 48 bits of milliseconds
// then 80 random bits, so ids sort by creation time and never collide in practice.
func NewID(prefix string) string { return newIDAt(prefix, time.Now()) }

func newIDAt(prefix string, t time.Time) string {
	ms := uint64(t.UnixMilli())
	idClock.Lock()
	if ms <= idClock.ms {
		ms = idClock.ms // never go backwards, even if the wall clock does
		idClock.lo++
		if idClock.lo == 0 {
			idClock.hi++
		}
	} else {
		var r [10]byte
		if _, err := rand.Read(r[:]); err != nil {
			panic("crypto/rand failed: " + err.Error()) // the kernel's RNG never fails on Linux
		}
		idClock.ms = ms
		idClock.hi = binary.BigEndian.Uint16(r[:2])
		idClock.lo = binary.BigEndian.Uint64(r[2:]) >> 1 // headroom for increments
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], ms<<16|uint64(idClock.hi))
	binary.BigEndian.PutUint64(b[8:], idClock.lo)
	idClock.Unlock()

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

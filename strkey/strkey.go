package strkey

import (
	"encoding/base32"
	"encoding/binary"
)

// Version bytes: the key type in the top five bits, the algorithm (0 =
// ed25519) in the low three.
const (
	versionPublicKey byte = 6 << 3  // "G"
	versionSeed      byte = 18 << 3 // "S"
)

const (
	keyLen     = 32
	rawLen     = 1 + keyLen + 2 // version ‖ key ‖ CRC16
	encodedLen = rawLen * 8 / 5 // 280 bits are exactly 56 symbols: no padding, no spare bits
	muxedLen   = 69             // SEP-23 length of an M… address (key + 8-byte id)
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func encode(version byte, key []byte) string {
	var raw [rawLen]byte
	raw[0] = version
	copy(raw[1:], key)
	binary.LittleEndian.PutUint16(raw[1+keyLen:], crc16(raw[:1+keyLen]))
	var out [encodedLen]byte
	b32.Encode(out[:], raw[:])
	return string(out[:])
}

// decode checks s in the order that gives the most useful error: length,
// alphabet, checksum (a typo), then version (a valid key of the wrong kind).
func decode(s string, want byte) ([keyLen]byte, error) {
	var key [keyLen]byte
	if len(s) != encodedLen {
		if len(s) == muxedLen && s[0] == 'M' {
			return key, &detailError{"is a muxed (M…) address; use the G… account address instead", ErrLength}
		}
		return key, ErrLength
	}
	// The standard library decoder silently skips '\r' and '\n'; checking
	// the alphabet first means only the 32 base32 symbols reach it, and
	// lower case is refused rather than folded.
	for i := range len(s) {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '2' || c > '7') {
			return key, ErrEncoding
		}
	}
	var raw [rawLen]byte
	if n, err := b32.Decode(raw[:], []byte(s)); err != nil || n != rawLen {
		return key, ErrEncoding
	}
	if binary.LittleEndian.Uint16(raw[1+keyLen:]) != crc16(raw[:1+keyLen]) {
		return key, ErrChecksum
	}
	if raw[0] != want {
		return key, versionError(raw[0], want)
	}
	copy(key[:], raw[1:1+keyLen])
	// SEP-23: valid only if re-encoding gives the same string. With 35
	// bytes there are no unused trailing bits, so this cannot fail today;
	// it stays so that the rule holds if the layout ever changes.
	if encode(want, key[:]) != s {
		return [keyLen]byte{}, ErrEncoding
	}
	return key, nil
}

func versionError(got, want byte) error {
	switch {
	case want == versionPublicKey && got == versionSeed:
		return &detailError{"is a secret seed (S…), not a public address; never share it", ErrVersion}
	case want == versionPublicKey:
		return &detailError{"must be a Stellar public key starting with G", ErrVersion}
	case want == versionSeed:
		return &detailError{"must be a Stellar secret seed starting with S", ErrVersion}
	}
	return ErrVersion
}

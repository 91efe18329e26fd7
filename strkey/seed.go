package strkey

import "crypto/ed25519"

// EncodeSeed returns the "S…" StrKey of a 32-byte ed25519 seed (the input of
// ed25519.NewKeyFromSeed). Any other length gives "" rather than a panic.
func EncodeSeed(seed []byte) string {
	if len(seed) != ed25519.SeedSize {
		return ""
	}
	return encode(versionSeed, seed)
}

// DecodeSeed returns the 32-byte ed25519 seed of an "S…" StrKey. Errors
// match ErrLength, ErrEncoding, ErrChecksum or ErrVersion. Seeds are
// secrets: never put s or the error's input in a log.
func DecodeSeed(s string) ([]byte, error) {
	key, err := decode(s, versionSeed)
	if err != nil {
		return nil, err
	}
	return key[:], nil
}

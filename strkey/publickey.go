package strkey

import "crypto/ed25519"

// ValidatePublicKey reports whether s is a canonical StrKey of an ed25519
// public key ("G…"). The error matches ErrLength, ErrEncoding, ErrChecksum
// or ErrVersion with errors.Is, and its text can be shown as a field error.
func ValidatePublicKey(s string) error {
	_, err := decode(s, versionPublicKey)
	return err
}

// DecodePublicKey returns the 32-byte key of a "G…" StrKey, with the errors
// of ValidatePublicKey.
func DecodePublicKey(s string) (ed25519.PublicKey, error) {
	key, err := decode(s, versionPublicKey)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(key[:]), nil
}

// EncodePublicKey returns the "G…" StrKey of pub. A pub that is not
// ed25519.PublicKeySize bytes is not a key and gives "" (which no Validate
// accepts) rather than a panic in a request handler.
func EncodePublicKey(pub ed25519.PublicKey) string {
	if len(pub) != ed25519.PublicKeySize {
		return ""
	}
	return encode(versionPublicKey, pub)
}

package store

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"io/fs"
)

// Sealer encrypts vault signing keys at rest with AES-256-GCM under a master
// key that lives in its own file, never in the database.
type Sealer struct {
	aead   cipher.AEAD
	opened openedKeys // see seal_memo.go
}

// LoadOrCreateMasterKey reads the 32-byte master key at path, creating it
// (0600) on first start. The key is written whole or not at all (masterkey
// .go), and a key other users can read is refused.
func LoadOrCreateMasterKey(path string) (*Sealer, error) {
	key, err := readMasterKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createMasterKey(path)
	}
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plaintext; ad binds the ciphertext to its owner (the vault id)
// so a sealed key copied onto another row does not open.
func (s *Sealer) Seal(plaintext, ad []byte) []byte {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return s.aead.Seal(nonce, nonce, plaintext, ad)
}

// Open decrypts what Seal produced.
func (s *Sealer) Open(sealed, ad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed key too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], ad)
}

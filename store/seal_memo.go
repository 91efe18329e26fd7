package store

import (
	"bytes"
	"crypto/ed25519"
	"sync"

	"github.com/payoutd/payoutd/strkey"
)

// Keys known to open. Confirm checks that the funding vault's sealed key
// opens and matches the vault's address: an AES-GCM open and an Ed25519
// scalar multiplication on the write connection for every confirm.
// The answer depends only on the vault id, its address, the sealed bytes
// and the master key, and a Sealer's master key never changes, so each
// Sealer remembers the keys that opened. Only a yes is kept, and the memo
// is emptied when it grows past maxOpenedKeys (keys are few: one per vault).
const maxOpenedKeys = 4096

type openedKeys struct {
	mu sync.Mutex
	ok map[string]struct{}
}

func keyOpens(sealer *Sealer, id, address string, sealed []byte) bool {
	if sealer == nil || sealed == nil {
		return false
	}
	k := id + "\x00" + address + "\x00" + string(sealed)
	m := &sealer.opened
	m.mu.Lock()
	_, ok := m.ok[k]
	m.mu.Unlock()
	if ok {
		return true
	}
	if !openAndMatch(sealer, id, address, sealed) {
		return false
	}
	m.mu.Lock()
	if m.ok == nil || len(m.ok) >= maxOpenedKeys {
		m.ok = map[string]struct{}{}
	}
	m.ok[k] = struct{}{}
	m.mu.Unlock()
	return true
}

func openAndMatch(sealer *Sealer, id, address string, sealed []byte) bool {
	seed, err := sealer.Open(sealed, []byte(id))
	if err != nil || len(seed) != ed25519.SeedSize {
		return false
	}
	pub, err := strkey.DecodePublicKey(address)
	if err != nil {
		return false
	}
	return bytes.Equal(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey), pub)
}

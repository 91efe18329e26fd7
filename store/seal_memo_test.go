package store

import (
	"crypto/ed25519"
	"crypto/rand"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/strkey"
)

// TestKeyOpensRemembersPerMasterKey: a key that opened is remembered by
// its sealer only; under another master key, or altered, it does not open.
func TestKeyOpensRemembersPerMasterKey(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	a, err := LoadOrCreateMasterKey(filepath.Join(dir, "a.key"))
	is.NoErr(err)
	b, err := LoadOrCreateMasterKey(filepath.Join(dir, "b.key"))
	is.NoErr(err)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	is.NoErr(err)
	address := strkey.EncodePublicKey(pub)
	sealed := a.Seal(priv.Seed(), []byte("vlt_1"))
	for range 2 { // the second answer comes from the memo
		is.True(keyOpens(a, "vlt_1", address, sealed))
	}
	is.True(!keyOpens(b, "vlt_1", address, sealed))                 // another master key
	is.True(!keyOpens(a, "vlt_2", address, sealed))                 // copied onto another vault
	is.True(!keyOpens(a, "vlt_1", address, sealed[:len(sealed)-1])) // altered
	is.True(!keyOpens(a, "vlt_1", address, nil))
	is.True(!keyOpens(nil, "vlt_1", address, sealed))
}

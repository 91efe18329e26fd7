package strkey

import (
	"crypto/ed25519"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/matryer/is"
)

func TestDecodeSeed(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		seed, err := DecodeSeed(sdkSeed)
		is.NoErr(err)
		is.Equal(seed, mustHex(t, sdkSeedHex))
		is.Equal(EncodeSeed(seed), sdkSeed)
		// The seed's account is the published one: the version bytes and
		// checksums agree with the SDKs end to end.
		pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
		is.Equal(EncodePublicKey(pub), sdkAccount)
	})
	for name, tc := range map[string]struct {
		s   string
		err error
	}{
		"ErrPublicKey": {sepAccount, ErrVersion},
		"ErrLength":    {sdkSeed[:55], ErrLength},
		"ErrEncoding":  {sdkSeed[:55] + "1", ErrEncoding},
		"ErrChecksum":  {sdkSeed[:55] + "Q", ErrChecksum},
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			seed, err := DecodeSeed(tc.s)
			is.True(errors.Is(err, tc.err))
			is.Equal(seed, nil)
		})
	}
	t.Run("ErrVersionText", func(t *testing.T) {
		is := is.New(t)
		_, err := DecodeSeed(sepAccount)
		is.Equal(err.Error(), "must be a Stellar secret seed starting with S")
	})
	t.Run("ErrEncodeLength", func(t *testing.T) {
		is := is.New(t)
		is.Equal(EncodeSeed(make([]byte, 64)), "") // a private key, not a seed
	})
}

func TestRoundTripRandomKeys(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'p', 'a', 'y', 'o', 'u', 't', 'd'}))
	for range 1000 {
		var seed [ed25519.SeedSize]byte
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		pub := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)

		addr := EncodePublicKey(pub)
		if len(addr) != 56 || addr[0] != 'G' {
			t.Fatalf("EncodePublicKey = %q", addr)
		}
		gotPub, err := DecodePublicKey(addr)
		if err != nil || !gotPub.Equal(pub) {
			t.Fatalf("DecodePublicKey(%q) = %x, %v; want %x", addr, gotPub, err, pub)
		}

		s := EncodeSeed(seed[:])
		if len(s) != 56 || s[0] != 'S' {
			t.Fatalf("EncodeSeed = %q", s)
		}
		gotSeed, err := DecodeSeed(s)
		if err != nil || string(gotSeed) != string(seed[:]) {
			t.Fatalf("DecodeSeed(%q) = %x, %v", s, gotSeed, err)
		}
		if !errors.Is(ValidatePublicKey(s), ErrVersion) {
			t.Fatalf("ValidatePublicKey(seed %q) accepted", s)
		}
	}
}

package strkey

import (
	"errors"
	"testing"
)

func FuzzValidatePublicKey(f *testing.F) {
	for _, s := range []string{
		sepAccount, sdkAccount, sdkSeed, "", "GAAAAAAAACGC6",
		"G47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVP2I",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ",
		sepAccount[:55] + "=", sepAccount[:55] + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidatePublicKey(s)
		if err != nil {
			n := 0
			for _, sentinel := range []error{ErrLength, ErrEncoding, ErrVersion, ErrChecksum} {
				if errors.Is(err, sentinel) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("ValidatePublicKey(%q) = %v: want exactly one sentinel", s, err)
			}
			return
		}
		pub, err := DecodePublicKey(s)
		if err != nil {
			t.Fatalf("ValidatePublicKey accepted %q but DecodePublicKey: %v", s, err)
		}
		if got := EncodePublicKey(pub); got != s {
			t.Fatalf("EncodePublicKey(DecodePublicKey(%q)) = %q", s, got)
		}
	})
}

func FuzzDecodeSeed(f *testing.F) {
	f.Add(sdkSeed)
	f.Add(sepAccount)
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := DecodeSeed(s)
		if err != nil {
			return
		}
		if got := EncodeSeed(seed); got != s {
			t.Fatalf("EncodeSeed(DecodeSeed(%q)) = %q", s, got)
		}
	})
}

// Random 56-symbol strings almost never pass the checksum, so this fuzzer
// builds valid keys from fuzzed bytes and checks they survive the trip.
func FuzzEncodePublicKey(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Fuzz(func(t *testing.T, key []byte) {
		s := EncodePublicKey(key)
		if len(key) != 32 {
			if s != "" {
				t.Fatalf("EncodePublicKey(%d bytes) = %q, want \"\"", len(key), s)
			}
			return
		}
		pub, err := DecodePublicKey(s)
		if err != nil || string(pub) != string(key) {
			t.Fatalf("DecodePublicKey(EncodePublicKey(%x)) = %x, %v", key, pub, err)
		}
	})
}

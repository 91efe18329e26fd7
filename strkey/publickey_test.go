package strkey

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// SEP-23 "Valid test cases" (ecosystem/sep-0023.md v1.3.0) and the seed /
// account pair used across the Stellar SDKs' strkey tests.
const (
	sepAccount    = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"
	sepAccountHex = "3f0c34bf93ad0d9971d04ccc90f705511c838aad9734a4a2fb0d7a03fc7fe89a"
	sdkSeed       = "SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR"
	sdkSeedHex    = "69a8c4cbb9f64e8a0798f6e1ac65d06c3162929056bcf4cdb7d3738d1855f363"
	sdkAccount    = "GA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQHES5"
	sdkAccountHex = "363eaa3867841fbad0f4ed88c779e4fe66e56a2470dc98c0ec9c073d05c7b103"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodePublicKey(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		pub, err := DecodePublicKey(sepAccount)
		is.NoErr(err)
		is.Equal([]byte(pub), mustHex(t, sepAccountHex))
		is.Equal(EncodePublicKey(pub), sepAccount)
	})
	t.Run("OKChecksumLittleEndian", func(t *testing.T) {
		is := is.New(t)
		raw, err := b32.DecodeString(sepAccount)
		is.NoErr(err)
		is.Equal(len(raw), rawLen)
		is.Equal(raw[0], byte(48))
		is.Equal(crc16(raw[:33]), uint16(0xD9C8))
		is.Equal(raw[33:], []byte{0xc8, 0xd9})
	})
	t.Run("OKSDKAccount", func(t *testing.T) {
		is := is.New(t)
		pub, err := DecodePublicKey(sdkAccount)
		is.NoErr(err)
		is.Equal([]byte(pub), mustHex(t, sdkAccountHex))
	})
}

func TestValidatePublicKey(t *testing.T) {
	tests := []struct {
		name string
		s    string
		err  error
	}{
		{"OK", sepAccount, nil},
		{"ErrEmpty", "", ErrLength},
		{"ErrShort", sepAccount[:55], ErrLength},
		{"ErrLong", sepAccount + "A", ErrLength},
		{"ErrPaddingAppended", sepAccount + "====", ErrLength},
		{"ErrPaddingInPlace", sepAccount[:55] + "=", ErrEncoding},
		{"ErrLowercase", strings.ToLower(sepAccount), ErrEncoding},
		{"ErrOneLowercase", sepAccount[:10] + "q" + sepAccount[11:], ErrEncoding},
		{"ErrDigitOne", sepAccount[:10] + "1" + sepAccount[11:], ErrEncoding},
		{"ErrDigitEight", sepAccount[:10] + "8" + sepAccount[11:], ErrEncoding},
		{"ErrLeadingSpace", " " + sepAccount[1:], ErrEncoding},
		{"ErrTrailingNewline", sepAccount[:55] + "\n", ErrEncoding},
		{"ErrNonASCII", "É" + sepAccount[2:], ErrEncoding},
		{"ErrFlippedChar", sepAccount[:20] + "A" + sepAccount[21:], ErrChecksum},
		{"ErrFlippedLastChar", sepAccount[:55] + "Y", ErrChecksum},
		{"ErrSeed", sdkSeed, ErrVersion},
		{"ErrContract", "CA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA", ErrVersion},
		{"ErrLiquidityPool", "LA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUPJN", ErrVersion},
		{"ErrAlgorithm", "G47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVP2I", ErrVersion},
		{"ErrMuxed", "MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ", ErrLength},
		{"ErrClaimableBalance", "BAAD6DBUX6J22DMZOHIEZTEQ64CVCHEDRKWZONFEUL5Q26QD7R76RGR4TU", ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			err := ValidatePublicKey(tt.s)
			is.True(errors.Is(err, tt.err))
			_, derr := DecodePublicKey(tt.s)
			is.Equal(derr, err)
		})
	}
}

// Every SEP-23 invalid test case must be refused; none of them is a G key.
func TestValidatePublicKeySEP23Invalid(t *testing.T) {
	for _, s := range []string{
		"GAAAAAAAACGC6",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUR",
		"GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZA",
		"GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUACUSI",
		"G47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVP2I",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLKA",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAAV75I",
		"M47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUK===",
		"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUO",
		"PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAQACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6IAAAAAAAAPM",
		"PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAOQCAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4Z2PQ",
		"PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAOQCAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DXFH6",
		"BAAD6DBUX6J22DMZOHIEZTEQ64CVCHEDRKWZONFEUL5Q26QD7R76RGR4TV",
		"BAAT6DBUX6J22DMZOHIEZTEQ64CVCHEDRKWZONFEUL5Q26QD7R76RGXACA",
	} {
		if err := ValidatePublicKey(s); err == nil {
			t.Errorf("ValidatePublicKey(%q) = nil, want an error", s)
		}
	}
}

// A G key is 35 bytes = 280 bits = exactly 56 symbols, so no symbol carries
// unused bits and there is no non-canonical spelling of a valid key: every
// other last character (or any other single-symbol change) must fail the
// checksum, which catches every burst of up to 16 bits.
func TestValidatePublicKeyEverySubstitution(t *testing.T) {
	is := is.New(t)
	is.Equal(encodedLen*5, rawLen*8)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	for i := range len(sepAccount) {
		for _, c := range []byte(alphabet) {
			if c == sepAccount[i] {
				continue
			}
			s := sepAccount[:i] + string(c) + sepAccount[i+1:]
			if err := ValidatePublicKey(s); !errors.Is(err, ErrChecksum) {
				t.Fatalf("ValidatePublicKey(%q) = %v, want ErrChecksum", s, err)
			}
		}
	}
}

func TestValidatePublicKeyErrorText(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want string
	}{
		{"ErrLength", "GABC", "must be 56 characters long"},
		{"ErrMuxed", "MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ", "is a muxed (M…) address; use the G… account address instead"},
		{"ErrEncoding", strings.ToLower(sepAccount), "must contain only the letters A-Z and the digits 2-7"},
		{"ErrChecksum", sepAccount[:55] + "Y", "has an invalid checksum (check for a typo)"},
		{"ErrSeed", sdkSeed, "is a secret seed (S…), not a public address; never share it"},
		{"ErrVersion", "CA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA", "must be a Stellar public key starting with G"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ValidatePublicKey(tt.s).Error(), tt.want)
		})
	}
}

func TestEncodePublicKey(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		is.Equal(EncodePublicKey(mustHex(t, sepAccountHex)), sepAccount)
		is.Equal(EncodePublicKey(mustHex(t, sdkAccountHex)), sdkAccount)
	})
	t.Run("OKDoesNotAlias", func(t *testing.T) {
		is := is.New(t)
		pub, err := DecodePublicKey(sepAccount)
		is.NoErr(err)
		again, err := DecodePublicKey(sepAccount)
		is.NoErr(err)
		pub[0] ^= 0xff
		is.True(!bytes.Equal(pub, again))
	})
	for name, pub := range map[string]ed25519.PublicKey{
		"ErrNil":   nil,
		"ErrShort": make([]byte, 31),
		"ErrLong":  make([]byte, 33),
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(EncodePublicKey(pub), "")
		})
	}
}

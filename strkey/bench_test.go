package strkey

import "testing"

func BenchmarkValidatePublicKey(b *testing.B) {
	for b.Loop() {
		if err := ValidatePublicKey(sepAccount); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodePublicKey(b *testing.B) {
	pub, err := DecodePublicKey(sepAccount)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = EncodePublicKey(pub)
	}
}

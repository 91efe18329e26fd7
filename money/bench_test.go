package money

import "testing"

var sinkInt int64
var sinkString string

func BenchmarkParse(b *testing.B) {
	usd := mustLookup(b, "USD")
	for b.Loop() {
		v, err := Parse("123456.78", usd)
		if err != nil {
			b.Fatal(err)
		}
		sinkInt = v
	}
}

func BenchmarkFormat(b *testing.B) {
	usd := mustLookup(b, "USD")
	for b.Loop() {
		sinkString = Format(12345678, usd)
	}
}

func BenchmarkConvert(b *testing.B) {
	usd, inr := mustLookup(b, "USD"), mustLookup(b, "INR")
	r := mustRate(b, "83.2512")
	for b.Loop() {
		v, err := ConvertChecked(12345678, usd, r, inr)
		if err != nil {
			b.Fatal(err)
		}
		sinkInt = v
	}
}

func BenchmarkPercentOf(b *testing.B) {
	for b.Loop() {
		sinkInt = PercentOf(12345678, 1250)
	}
}

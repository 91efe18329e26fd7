package documents

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestFormatINR(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paise int64
		want  string
	}{
		{"Zero", 0, "0.00"},
		{"Paise", 5, "0.05"},
		{"UnderOneRupee", 99, "0.99"},
		{"OneRupee", 100, "1.00"},
		{"ThreeDigits", 99999, "999.99"},
		{"Thousand", 100000, "1,000.00"},
		{"NegativeThousand", -100000, "-1,000.00"},
		{"NegativePaise", -5, "-0.05"},
		{"TenThousand", 1234500, "12,345.00"},
		{"Lakh", 12345678, "1,23,456.78"},
		{"TenLakh", 123456789, "12,34,567.89"},
		{"Crore", 1000000000, "1,00,00,000.00"},
		{"HundredCrore", 123456789012, "1,23,45,67,890.12"},
		{"MaxInt64", math.MaxInt64, "92,23,37,20,36,85,47,758.07"},
		{"MinInt64", math.MinInt64, "-92,23,37,20,36,85,47,758.08"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(FormatINR(tc.paise), tc.want)
		})
	}
}

func TestFormatForeign(t *testing.T) {
	for _, tc := range []struct {
		name     string
		minor    int64
		exponent int
		want     string
	}{
		{"USD", 150000, 2, "1,500.00"},
		{"USDMillion", 123456789, 2, "1,234,567.89"},
		{"JPYNoDecimals", 1234567, 0, "1,234,567"},
		{"KWDThreeDecimals", 1234567, 3, "1,234.567"},
		{"KWDFils", 5, 3, "0.005"},
		{"Negative", -100000, 2, "-1,000.00"},
		{"ExactThousands", 100000000, 2, "1,000,000.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(formatForeign(tc.minor, tc.exponent), tc.want)
		})
	}
}

func TestINRMarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    INR
		want string
	}{
		{"Zero", 0, "0.00"},
		{"TrailingZero", 123450, "1234.50"},
		{"NoGrouping", 123456789, "1234567.89"},
		{"Paise", 7, "0.07"},
		{"Negative", -1230, "-12.30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, err := json.Marshal(struct {
				V INR `json:"v"`
			}{tc.v})
			is.NoErr(err) // encoding/json also checks it is a valid number
			is.Equal(string(got), `{"v":`+tc.want+`}`)
		})
	}
}

func TestRupeesHalfUp(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paise int64
		want  int64
	}{
		{"Whole", 1000, 10},
		{"BelowHalf", 1049, 10},
		{"Half", 1050, 11},
		{"AboveHalf", 1099, 11},
		{"Zero", 0, 0},
		{"HalfOfOne", 50, 1},
		{"NegativeHalf", -1050, -11},
		{"NegativeBelowHalf", -1049, -10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(rupeesHalfUp(tc.paise), tc.want)
		})
	}
}

func TestFormatTimestamp(t *testing.T) {
	is := is.New(t)
	ist := time.FixedZone("IST", 5*3600+30*60)
	is.Equal(formatTimestamp(time.Date(2026, 11, 21, 15, 30, 0, 0, ist)), "2026-11-21T10:00:00.000Z")
	is.Equal(formatTimestamp(time.Date(2026, 1, 2, 3, 4, 5, 678900000, time.UTC)), "2026-01-02T03:04:05.678Z")
}

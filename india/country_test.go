package india_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func TestCountryCodes(t *testing.T) {
	t.Run("Count", func(t *testing.T) {
		is := is.New(t)
		n := 0
		for a := 'A'; a <= 'Z'; a++ {
			for b := 'A'; b <= 'Z'; b++ {
				code := string([]rune{a, b})
				if india.IsCountryCode(code) {
					n++
					is.True(india.CountryName(code) != "")
				}
			}
		}
		is.Equal(n, 249) // ISO 3166-1 officially assigned code elements
	})
	t.Run("Names", func(t *testing.T) {
		is := is.New(t)
		for code, want := range map[string]string{
			"IN": "India",
			"US": "United States of America",
			"GB": "United Kingdom of Great Britain and Northern Ireland",
			"NA": "Namibia", // a code some CSV readers turn into a missing value
			"AX": "Åland Islands",
			"CI": "Côte d'Ivoire",
			"SS": "South Sudan", // the newest assignment (2011)
			"BQ": "Bonaire, Sint Eustatius and Saba",
			"KP": "Korea (Democratic People's Republic of)",
			"IR": "Iran (Islamic Republic of)",
		} {
			is.True(india.IsCountryCode(code)) // code
			is.Equal(india.CountryName(code), want)
		}
	})
	t.Run("ErrNotAssigned", func(t *testing.T) {
		is := is.New(t)
		// XK user-assigned; UK, EU, AC reserved; AN, YU withdrawn; case, length.
		for _, code := range []string{"XK", "UK", "EU", "AC", "AN", "YU", "ZZ", "in", "In", "IND", "I", ""} {
			is.True(!india.IsCountryCode(code)) // code
			is.Equal(india.CountryName(code), "")
		}
	})
}

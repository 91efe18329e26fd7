package india

import (
	_ "embed"
	"fmt"
)

// countriesTSV lists every officially assigned ISO 3166-1 alpha-2 code with
// its English short name (source in the file's header).
//
//go:embed data/countries.tsv
var countriesTSV string

var countryNames = loadCountries()

func loadCountries() map[string]string {
	rows := parseTSV("countries.tsv", countriesTSV, 2)
	names := make(map[string]string, len(rows))
	for _, r := range rows {
		code := r[0]
		if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' || r[1] == "" {
			panic(fmt.Sprintf("india: countries.tsv: bad row %q", r))
		}
		if _, dup := names[code]; dup {
			panic("india: countries.tsv: duplicate " + code)
		}
		names[code] = r[1]
	}
	return names
}

// IsCountryCode reports whether code is an officially assigned ISO 3166-1
// alpha-2 code. Only upper case is accepted ("in" is not India): the API
// stores and compares codes as given, so a lower-case code is an input error
// to report rather than to fix silently.
func IsCountryCode(code string) bool {
	_, ok := countryNames[code]
	return ok
}

// CountryName returns the ISO English short name for an alpha-2 code, or ""
// for a code that is not officially assigned.
func CountryName(code string) string {
	return countryNames[code]
}

package money

import (
	"slices"
	"testing"

	"github.com/matryer/is"
)

func mustLookup(t testing.TB, code string) Currency {
	t.Helper()
	c, ok := Lookup(code)
	if !ok {
		t.Fatalf("Lookup(%q): not found", code)
	}
	return c
}

func TestLookup(t *testing.T) {
	exponents := map[string]int{
		"INR": 2, "USD": 2, "EUR": 2, "GBP": 2, "AED": 2, "SGD": 2, "CHF": 2,
		"JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0, "UGX": 0, "XOF": 0,
		"KWD": 3, "BHD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3,
		"XCD": 2, "XCG": 2, "ZWG": 2, "SLE": 2, "VED": 2,
	}
	for code, exp := range exponents {
		t.Run(code, func(t *testing.T) {
			is := is.New(t)
			c, ok := Lookup(code)
			is.True(ok)
			is.Equal(c.Code, code)
			is.Equal(c.Exponent, exp)
			is.True(c.Name != "")
		})
	}
	t.Run("Name", func(t *testing.T) {
		is := is.New(t)
		is.Equal(mustLookup(t, "INR").Name, "Indian Rupee")
	})
	// Lower case, metals and N.A. units, funds, withdrawn codes, junk.
	for _, code := range []string{
		"usd", "Usd", "inr", " USD", "USD ", "", "US", "USDX",
		"XAU", "XAG", "XPT", "XPD", "XDR", "XSU", "XUA", "XTS", "XXX", "XBA",
		"BOV", "CLF", "CHE", "CHW", "COU", "MXV", "USN", "UYI", "UYW",
		"HRK", "ANG", "ZWL", "SLL", "CUC", "BGN",
	} {
		t.Run("NotFound"+code, func(t *testing.T) {
			is := is.New(t)
			_, ok := Lookup(code)
			is.True(!ok)
		})
	}
}

func TestCurrencies(t *testing.T) {
	is := is.New(t)
	list := Currencies()
	is.True(len(list) >= 150)
	is.True(slices.IsSortedFunc(list, func(a, b Currency) int {
		switch {
		case a.Code < b.Code:
			return -1
		case a.Code > b.Code:
			return 1
		}
		return 0
	}))
	for _, c := range list {
		is.True(c.Exponent >= 0 && c.Exponent <= 3) // List One has nothing else once funds are out
		got, ok := Lookup(c.Code)
		is.True(ok)
		is.Equal(got, c)
	}
}

func TestParseTable(t *testing.T) {
	for name, text := range map[string]string{
		"ErrFields":    "USD,2\n",
		"ErrExponent":  "USD,x,US Dollar\n",
		"ErrNegative":  "USD,-1,US Dollar\n",
		"ErrTooBig":    "USD,7,US Dollar\n",
		"ErrCode":      "usd,2,US Dollar\n",
		"ErrDuplicate": "USD,2,US Dollar\nUSD,2,US Dollar\n",
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			_, err := parseTable(text)
			is.True(err != nil)
		})
	}
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		table, err := parseTable("# comment\nUSD,2,US Dollar\n")
		is.NoErr(err)
		is.Equal(table["USD"], Currency{Code: "USD", Exponent: 2, Name: "US Dollar"})
	})
}

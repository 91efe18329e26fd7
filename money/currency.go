package money

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Currency is an ISO 4217 currency. Exponent is the number of minor-unit
// digits: 2 for INR (100 paise), 0 for JPY, 3 for KWD.
type Currency struct {
	Code     string
	Exponent int
	Name     string
}

// The table is data, not code, so that a List One amendment is a one-line
// diff that anyone can check against the published list.
//
//go:embed iso4217.csv
var iso4217CSV string

var currencies = sync.OnceValue(func() map[string]Currency {
	table, err := parseTable(iso4217CSV)
	if err != nil {
		// The file is compiled in; a bad line is a build defect that the
		// package tests catch, never a runtime condition.
		panic(err)
	}
	return table
})

// Lookup returns the currency with the ISO 4217 alphabetic code. Codes are
// matched exactly: "usd" is not found, so that what is stored is always the
// canonical form the client sent.
func Lookup(code string) (Currency, bool) {
	c, ok := currencies()[code]
	return c, ok
}

// Currencies returns every known currency, sorted by code.
func Currencies() []Currency {
	table := currencies()
	list := make([]Currency, 0, len(table))
	for _, c := range table {
		list = append(list, c)
	}
	slices.SortFunc(list, func(a, b Currency) int { return strings.Compare(a.Code, b.Code) })
	return list
}

func parseTable(text string) (map[string]Currency, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	r.FieldsPerRecord = 3
	table := make(map[string]Currency)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return table, nil
		}
		if err != nil {
			return nil, fmt.Errorf("money: iso4217.csv: %w", err)
		}
		exp, err := strconv.Atoi(rec[1])
		if err != nil || exp < 0 || exp > maxExponent {
			return nil, fmt.Errorf("money: iso4217.csv: %s: bad exponent %q", rec[0], rec[1])
		}
		if !isCode(rec[0]) {
			return nil, fmt.Errorf("money: iso4217.csv: bad code %q", rec[0])
		}
		if _, dup := table[rec[0]]; dup {
			return nil, fmt.Errorf("money: iso4217.csv: duplicate code %q", rec[0])
		}
		table[rec[0]] = Currency{Code: rec[0], Exponent: exp, Name: rec[2]}
	}
}

func isCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

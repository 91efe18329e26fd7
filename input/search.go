package input

import (
	"maps"
	"slices"
	"strings"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// AmountsOf reads a search as an amount, when it is one: in the chosen
// currency, or in every currency it can be written in ("450.13" is cents
// of USD and fils of KWD, but no JPY).
func AmountsOf(search, currency string) []store.AmountMatch {
	text := strings.ReplaceAll(search, ",", "")
	if text == "" || strings.Trim(text, "0123456789.") != "" {
		return nil
	}
	byMinor := map[int64][]string{}
	for _, cur := range money.Currencies() {
		if currency != "" && cur.Code != currency {
			continue
		}
		if minor, err := money.Parse(text, cur); err == nil {
			byMinor[minor] = append(byMinor[minor], cur.Code)
		}
	}
	var out []store.AmountMatch
	for _, minor := range slices.Sorted(maps.Keys(byMinor)) {
		out = append(out, store.AmountMatch{Minor: minor, Currencies: byMinor[minor]})
	}
	return out
}

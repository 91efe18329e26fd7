package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// nonAmountNumbers are the JSON numbers the document describes that are
// not amounts of money, each with the reason it needs no exact integer
// companion.
var nonAmountNumbers = map[string]string{
	"Payment/properties/settlementRate": "a rate: INR per unit of the payment's currency",
	"FIRA/properties/settlementRate":    "a rate: INR per unit of the foreign currency",
	"FIRAGST/properties/rate":           "a rate: INR per unit of the payout's currency",
	"GSTRate/properties/rate":           "a rate: INR per unit of currency",
	"Invoice/properties/inrRate":        "a rate: INR per unit of the invoice currency",
}

// TestContractMinorCompanions: every amount of money the document
// describes as a JSON number has an exact integer companion beside it. An
// INR amount has its Paise one (TestContractINRCompanions); any other
// number, an Amount or a plain number, has one named after it with Minor
// appended, an integer, required exactly when the amount is, unless
// nonAmountNumbers says why it is no amount. A payment's currency may be
// INR, so its amounts are INR amounts too: invoiceAmount and a GST
// valuation's invoiceValue once had no companion.
func TestContractMinorCompanions(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	refers := func(p map[string]any, name string) bool {
		ref := "#/components/schemas/" + name
		return asStr(p["$ref"]) == ref || slices.ContainsFunc(asArr(p["oneOf"]), func(o any) bool { return asStr(asMap(o)["$ref"]) == ref })
	}
	isNumber := func(p map[string]any) bool {
		return asStr(p["type"]) == "number" || refers(p, "Amount") ||
			slices.ContainsFunc(asArr(p["oneOf"]), func(o any) bool { return asStr(asMap(o)["type"]) == "number" })
	}
	seen := map[string]bool{}
	n := 0
	walkProperties(c.doc, func(string) bool { return false }, func(where, name string, obj, p map[string]any) bool {
		at := where + "/properties/" + name
		switch {
		case refers(p, "INRAmount") || refers(p, "Percent"):
			// INR has its own companion test; a percentage is no amount.
		case isNumber(p):
			n++
			if nonAmountNumbers[at] != "" {
				seen[at] = true
				return true
			}
			minor := asMap(asMap(obj["properties"])[name+"Minor"])
			if asStr(minor["type"]) != "integer" {
				t.Errorf("%s: an amount as a JSON number without %sMinor, an integer, beside it", at, name)
			}
			required := asArr(obj["required"])
			if slices.Contains(required, any(name)) != slices.Contains(required, any(name+"Minor")) {
				t.Errorf("%s: required %v but %sMinor required %v", at, slices.Contains(required, any(name)),
					name, slices.Contains(required, any(name+"Minor")))
			}
		default:
			return false
		}
		return true
	})
	if n < 8 {
		t.Fatalf("found %d numbers outside INR amounts; the walk missed most of them", n)
	}
	for at := range nonAmountNumbers {
		if !seen[at] {
			t.Errorf("nonAmountNumbers names %s, which the document does not describe as a number", at)
		}
	}
}

// sameMinor requires an amount written with its currency's decimals (the
// document's Amount) and its Minor companion to be the same number: the
// decimal's digits without the point are the integer.
func sameMinor(amount, minor any, where string) error {
	dec, ok1 := amount.(json.Number)
	m, ok2 := minor.(json.Number)
	if !ok1 || !ok2 {
		return nil
	}
	digits := strings.TrimLeft(strings.Replace(string(dec), ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	if digits != string(m) {
		return fmt.Errorf("%s is %s but its Minor companion is %s", where, dec, m)
	}
	return nil
}

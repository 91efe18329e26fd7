package server_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// inrCompanionsExempt are INR amounts without a Paise companion, each for a
// reason: the GSTR-3B export's sup_details carries only the official GSTN
// keys, and its figures are outwardSupplies', whose companions they share.
var inrCompanionsExempt = map[string]string{
	"GST3B/properties/sup_details": "official GSTN keys only",
	"GSTR1/properties/exp":         "the GSTR-1 offline tool's keys only; payoutd's totals carry the companions",
	"GSTR1/properties/cdnur":       "the GSTR-1 offline tool's keys only; payoutd's totals carry the companions",
}

// TestContractINRCompanions: every INR amount a schema describes has its
// exact integer companion beside it, named after it with Paise appended,
// typed Paise or INRPaise (a map of amounts, a map of paise under the same
// keys), and required exactly when the amount is. One payout's or
// challan's value is capped below 2^53 paise (INRPaise's maximum).
func TestContractINRCompanions(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	const inr = "#/components/schemas/INRAmount"
	isINR := func(p map[string]any) bool {
		if asStr(p["$ref"]) == inr {
			return true
		}
		return slices.ContainsFunc(asArr(p["oneOf"]), func(o any) bool { return asStr(asMap(o)["$ref"]) == inr })
	}
	isPaise := func(p map[string]any) bool {
		ok := func(ref string) bool {
			return ref == "#/components/schemas/Paise" || ref == "#/components/schemas/INRPaise"
		}
		return ok(asStr(p["$ref"])) || slices.ContainsFunc(asArr(p["oneOf"]), func(o any) bool { return ok(asStr(asMap(o)["$ref"])) })
	}
	n := 0
	skip := func(where string) bool { return inrCompanionsExempt[where] != "" }
	walkProperties(c.doc, skip, func(where, name string, obj, p map[string]any) bool {
		companion := asMap(asMap(obj["properties"])[name+"Paise"])
		switch {
		case isINR(p):
			n++
			if !isPaise(companion) {
				t.Errorf("%s/%s: an INR amount without %sPaise (Paise or INRPaise) beside it", where, name, name)
			}
		case isINR(asMap(p["additionalProperties"])):
			n++
			if !isPaise(asMap(companion["additionalProperties"])) {
				t.Errorf("%s/%s: a map of INR amounts without %sPaise, a map of paise, beside it", where, name, name)
			}
		default:
			return false
		}
		required := asArr(obj["required"])
		if slices.Contains(required, any(name)) != slices.Contains(required, any(name+"Paise")) {
			t.Errorf("%s/%s: required %v but %sPaise required %v", where, name, slices.Contains(required, any(name)),
				name, slices.Contains(required, any(name+"Paise")))
		}
		return true
	})
	schemas := asMap(asMap(c.doc["components"])["schemas"])
	if n < 40 {
		t.Fatalf("found %d INR amounts; the walk missed most of them", n)
	}
	if max := asMap(schemas["INRPaise"])["maximum"]; fmt.Sprint(max) != "9007199254740991" {
		t.Errorf("INRPaise's maximum is %v, not 2^53 − 1", max)
	}
}

// exactCompanionsAgree requires, in a response body, every decimal beside
// an integer companion named after it with Paise appended to be that many
// paise, exactly, and so for maps of them (exactFigures); and every amount
// beside one with Minor appended to be that many minor units (sameMinor).
func exactCompanionsAgree(v any, where string) error {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			if err := exactCompanionsAgree(e, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			if !strings.HasSuffix(k, "Paise") {
				if err := samePaise(e, x[k+"Paise"], where+"."+k); err != nil {
					return err
				}
				if err := sameMinor(e, x[k+"Minor"], where+"."+k); err != nil {
					return err
				}
			}
			if err := exactCompanionsAgree(e, where+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

func samePaise(amount, paise any, where string) error {
	if paise == nil {
		return nil
	}
	if m, ok := amount.(map[string]any); ok {
		pm := asMap(paise)
		for k, a := range m {
			if err := samePaise(a, pm[k], where+"."+k); err != nil {
				return err
			}
		}
		return nil
	}
	dec, ok1 := amount.(json.Number)
	p, ok2 := paise.(json.Number)
	if !ok1 || !ok2 {
		return nil
	}
	r, ok := new(big.Rat).SetString(string(dec))
	if !ok {
		return fmt.Errorf("%s: %s is not a decimal", where, dec)
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() || r.Num().String() != string(p) {
		return fmt.Errorf("%s is %s but its Paise companion is %s", where, dec, p)
	}
	return nil
}

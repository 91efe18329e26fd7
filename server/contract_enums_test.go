package server_test

import (
	"slices"
	"strings"
	"testing"
)

// fixedEnums are the response enums that may not grow, each for a reason a
// client can rely on; every other enum a response can carry must be an
// x-extensible-enum, which generated clients decode as a plain string.
var fixedEnums = map[string]string{
	"GSTR1/properties/exp/items/properties/exp_typ":              "the GST portal's GSTR-1 export types",
	"GSTR1/properties/cdnur/items/properties/typ":                "the GST portal's GSTR-1 export note types",
	"GSTR1/properties/cdnur/items/properties/ntty":               "a credit note is C in GSTR-1",
	"Act/properties/name":                                        "the Income-tax Acts in force",
	"Act/properties/yearTerm":                                    "the terms those Acts use",
	"FIRAGST/properties/timeOfSupplyBasis":                       "the CGST Act's time-of-supply rules",
	"FIRAGST/properties/rateBasis":                               "the CGST rules' choices of exchange rate",
	"GSTRate/properties/basis":                                   "the CGST rules' choices of exchange rate",
	"Form15CA/properties/part":                                   "the parts of Form 15CA",
	"ITR4Prefill/properties/section":                             "ITR-4 is for s.44ADA",
	"TaxLiability/properties/regime":                             "the Income-tax Act's regimes",
	"TaxLiability/properties/returnForm":                         "the return forms for those regimes",
	"TaxLiability/properties/incomeBasis":                        "presumptive or not, nothing else",
	"TaxPayment/properties/kind":                                 "the Act's kinds of tax paid by the assessee",
	"TaxPaymentEventData/properties/kind":                        "the Act's kinds of tax paid by the assessee",
	"JournalEntry/properties/type":                               "double entry has two sides",
	"JWKS/properties/keys/items/properties/kty":                  "RFC 8037",
	"JWKS/properties/keys/items/properties/crv":                  "RFC 8037",
	"JWKS/properties/keys/items/properties/alg":                  "RFC 8037",
	"JWKS/properties/keys/items/properties/use":                  "RFC 7517",
	"TokenResponse/properties/token_type":                        "RFC 6750",
	"NoStore":                                                    "the one Cache-Control value those responses send",
	"Sequestration/properties/currency":                          "the reserve is in rupees",
	"WalletSummary/properties/indicativeInr/properties/currency": "an INR total",
	"ResolveResult/properties/status":                            "what a resolve does",
	"ResolveResult/properties/resolvedBy":                        "what a resolve does",
	"ReconciliationResolvedData/properties/resolvedBy":           "what a resolve does",
}

// TestContractOpenEnums: every enum a response can carry is open
// (x-extensible-enum) unless fixedEnums says why it cannot grow, the
// event union aside (its discriminator is each variant's type; the
// document tells clients how to read types they do not know), and no
// request enum is open: a value the server does not know is 400.
func TestContractOpenEnums(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	schemas := asMap(asMap(c.doc["components"])["schemas"])
	reach := func(roots []any) map[string]bool {
		seen := map[string]bool{}
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if ref := asStr(x["$ref"]); strings.HasPrefix(ref, "#/components/schemas/") {
					name := strings.TrimPrefix(ref, "#/components/schemas/")
					if !seen[name] {
						seen[name] = true
						walk(schemas[name])
					}
				}
				if ref := asStr(x["$ref"]); strings.HasPrefix(ref, "#/components/responses/") || strings.HasPrefix(ref, "#/components/headers/") {
					walk(c.at(strings.TrimPrefix(ref, "#")))
				}
				for k, e := range x {
					if k != "example" && k != "examples" {
						walk(e)
					}
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		for _, r := range roots {
			walk(r)
		}
		return seen
	}
	var responses, requests []any
	for _, op := range c.ops {
		responses = append(responses, op.raw["responses"])
		requests = append(requests, op.raw["requestBody"], op.raw["parameters"])
	}
	for _, w := range asMap(c.doc["webhooks"]) {
		responses = append(responses, w) // what payoutd sends
	}
	type enum struct {
		where string
		open  bool
	}
	enums := func(names map[string]bool) []enum {
		var out []enum
		var walk func(where string, v any)
		walk = func(where string, v any) {
			switch x := v.(type) {
			case map[string]any:
				if x["enum"] != nil {
					out = append(out, enum{where, false})
				}
				if x["x-extensible-enum"] != nil {
					out = append(out, enum{where, true})
				}
				for k, e := range x {
					if k != "example" && k != "examples" && k != "$ref" {
						walk(where+"/"+k, e)
					}
				}
			case []any:
				for i, e := range x {
					walk(where+"/"+itoa(i), e)
				}
			}
		}
		for name := range names {
			walk(name, schemas[name])
		}
		return out
	}
	sent := reach(responses)
	for _, e := range enums(sent) {
		variantType := strings.HasSuffix(e.where, "Event/properties/type") // each event variant's discriminator
		if !e.open && fixedEnums[e.where] == "" && !variantType {
			t.Errorf("%s: a response enum that is not open; make it x-extensible-enum or say in fixedEnums why it cannot grow", e.where)
		}
	}
	for _, e := range enums(reach(requests)) {
		if e.open {
			t.Errorf("%s: an open enum in a request; request enums stay closed", e.where)
		}
	}
	for where := range fixedEnums {
		if name, _, _ := strings.Cut(where, "/"); !sent[name] {
			t.Errorf("fixedEnums names %s, which no response carries", where)
		}
	}
	if !slices.ContainsFunc(enums(sent), func(e enum) bool { return e.where == "PaymentStatus" && e.open }) {
		t.Error("PaymentStatus is not an open enum in responses")
	}
}

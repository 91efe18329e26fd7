package server_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// TestContractEventTypesOneSource: every list of event types the document
// holds is store.EventTypes, the one the server subscribes, filters and
// emits by: the request enum (EventTypeName), the response enum
// (EventTypeValue), the webhooks, the event union's discriminator mapping
// and the types its variants declare.
func TestContractEventTypesOneSource(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	schemas := asMap(asMap(c.doc["components"])["schemas"])
	want := slices.Sorted(slices.Values(store.EventTypes))
	strs := func(v any) []string {
		var out []string
		for _, x := range asArr(v) {
			out = append(out, asStr(x))
		}
		return slices.Sorted(slices.Values(out))
	}
	union := asMap(schemas["Event"])
	var variants []string
	for _, ref := range asArr(union["oneOf"]) {
		name := strings.TrimPrefix(asStr(asMap(ref)["$ref"]), "#/components/schemas/")
		typ := asMap(asMap(asMap(schemas[name])["properties"])["type"])
		if cst := asStr(typ["const"]); cst != "" {
			variants = append(variants, cst)
		}
		variants = append(variants, strs(typ["enum"])...)
	}
	lists := map[string][]string{
		"EventTypeName.enum":               strs(asMap(schemas["EventTypeName"])["enum"]),
		"EventTypeValue.x-extensible-enum": strs(asMap(schemas["EventTypeValue"])["x-extensible-enum"]),
		"webhooks": slices.Sorted(func(yield func(string) bool) {
			for k := range asMap(c.doc["webhooks"]) {
				if !yield(k) {
					return
				}
			}
		}),
		"Event.discriminator.mapping": slices.Sorted(func(yield func(string) bool) {
			for k := range asMap(asMap(union["discriminator"])["mapping"]) {
				if !yield(k) {
					return
				}
			}
		}),
		"Event variants' types": slices.Sorted(slices.Values(variants)),
	}
	for where, got := range lists {
		if !slices.Equal(got, want) {
			t.Errorf("%s lists %v; the server's event types are %v", where, got, want)
		}
	}
}

// TestContractCurrencyCodes: the currencies a request may name are the
// ones the server knows (package money's ISO 4217 table), as a closed enum.
func TestContractCurrencyCodes(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	var got []string
	for _, x := range asArr(asMap(asMap(asMap(c.doc["components"])["schemas"])["CurrencyCode"])["enum"]) {
		got = append(got, asStr(x))
	}
	var want []string
	for _, cur := range money.Currencies() {
		want = append(want, cur.Code)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("CurrencyCode lists %d codes, the server knows %d: %v, want %v", len(got), len(want), got, want)
	}
}

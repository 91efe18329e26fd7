package server_test

import (
	"slices"
	"strings"
	"testing"
)

// TestContractOpenEnums: every enum a response can carry is open
// (x-extensible-enum), even one fixed by law or a standard today (a
// generated client that rejects a new value breaks on a read it need not
// understand), the event union aside (its discriminator is each variant's
// type; the document tells clients how to read types they do not know),
// and no request enum is open: a value the server does not know is 400.
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
		if !e.open && !variantType {
			t.Errorf("%s: a response enum that is not open; make it x-extensible-enum", e.where)
		}
	}
	for _, e := range enums(reach(requests)) {
		if e.open {
			t.Errorf("%s: an open enum in a request; request enums stay closed", e.where)
		}
	}
	if !slices.ContainsFunc(enums(sent), func(e enum) bool { return e.where == "PaymentStatus" && e.open }) {
		t.Error("PaymentStatus is not an open enum in responses")
	}
}

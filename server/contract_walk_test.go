package server_test

import "fmt"

// walkProperties visits every property of every schema in the document's
// components, in a stable order. visit gets the path of the schema that
// holds the property (Payment, Payment/properties/fees/items, …), the
// property's name, that schema (for a companion beside the property and
// its required list) and the property; it reports whether it is done with
// the property, and otherwise the walk goes into it. The walk also goes
// into items, additionalProperties and oneOf/anyOf/allOf, and not below a
// path skip names.
func walkProperties(doc map[string]any, skip func(where string) bool, visit func(where, name string, obj, p map[string]any) (done bool)) {
	var walk func(where string, s map[string]any)
	walk = func(where string, s map[string]any) {
		if s == nil || skip(where) {
			return
		}
		props := asMap(s["properties"])
		for _, name := range sortedKeys(props) {
			if p := asMap(props[name]); !visit(where, name, s, p) {
				walk(where+"/properties/"+name, p)
			}
		}
		walk(where+"/items", asMap(s["items"]))
		walk(where+"/additionalProperties", asMap(s["additionalProperties"]))
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			for i, o := range asArr(s[k]) {
				walk(fmt.Sprintf("%s/%s/%d", where, k, i), asMap(o))
			}
		}
	}
	schemas := asMap(asMap(doc["components"])["schemas"])
	for _, name := range sortedKeys(schemas) {
		walk(name, asMap(schemas[name]))
	}
}

package server

import (
	"fmt"
	"maps"
	"slices"

	"github.com/payoutd/payoutd/input"
)

// The rules live in package input, shared with the console; these short
// names keep the server's other validations readable.
var (
	asFieldErrors    = input.FieldErrors
	isStellarAddress = input.IsStellarAddress
	isCountry        = input.IsCountry
	isCurrency       = input.IsCurrency
	amountRule       = input.AmountRule
	textProblem      = input.TextProblem
)

// checkStrings applies textProblem to every string and object key in a
// decoded JSON value, naming the field by its path (memo, items[2].name,
// metadata.<key>).
func checkStrings(path string, v any) error {
	switch v := v.(type) {
	case string:
		if msg := textProblem(v); msg != "" {
			return fieldError(path, msg)
		}
	case []any:
		for i, e := range v {
			if err := checkStrings(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if msg := textProblem(k); msg != "" {
				return fieldError(path+"."+k, "key "+msg)
			}
			if err := checkStrings(path+"."+k, v[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

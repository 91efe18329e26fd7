package server

import (
	"fmt"

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
// JSON value read by readJSON, naming the field by its path (memo,
// items[2].name, metadata.<key>). Members are already in key order.
func checkStrings(path string, v jsonValue) error {
	switch v.kind {
	case '"':
		if msg := textProblem(v.text); msg != "" {
			return fieldError(path, msg)
		}
	case '[':
		for i, e := range v.array {
			if err := checkStrings(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	case '{':
		for _, m := range v.object {
			if msg := textProblem(m.key); msg != "" {
				return fieldError(path+"."+m.key, "key "+msg)
			}
			if err := checkStrings(path+"."+m.key, m.val); err != nil {
				return err
			}
		}
	}
	return nil
}

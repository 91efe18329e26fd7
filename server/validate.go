package server

import "github.com/payoutd/payoutd/input"

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
// items[2].name, metadata.<key>). Members are already in key order. The
// path is spelled out only for a refusal, so a deeply nested body costs
// time and memory in proportion to its size.
func checkStrings(at *jsonPath, v jsonValue) error {
	switch v.kind {
	case '"':
		if msg := textProblem(v.text); msg != "" {
			return fieldError(at.String(), msg)
		}
	case '[':
		for i, e := range v.array {
			if err := checkStrings(&jsonPath{up: at, index: i}, e); err != nil {
				return err
			}
		}
	case '{':
		for _, m := range v.object {
			member := &jsonPath{up: at, key: m.key, index: -1}
			if msg := textProblem(m.key); msg != "" {
				return fieldError(member.String(), "key "+msg)
			}
			if err := checkStrings(member, m.val); err != nil {
				return err
			}
		}
	}
	return nil
}

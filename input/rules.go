package input

import (
	"encoding/json"
	"errors"
	"fmt"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/strkey"
)

// Invalid is the validation error of the given field messages.
func Invalid(fields map[string]string) error {
	return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: fields}
}

// FieldError is the validation error of one field.
func FieldError(field, msg string) error { return Invalid(map[string]string{field: msg}) }

// FieldErrors turns ozzo's validation.Errors (keyed by JSON name) into the
// documented validation error once, centrally; other errors pass through.
func FieldErrors(err error) error {
	if err == nil {
		return nil
	}
	var ve validation.Errors
	if errors.As(err, &ve) {
		fields := map[string]string{}
		for k, e := range ve {
			if e != nil {
				fields[k] = e.Error()
			}
		}
		return Invalid(fields)
	}
	return err
}

var (
	// IsStellarAddress accepts a Stellar public key (G…, SEP-23 checksum).
	IsStellarAddress = validation.By(func(v any) error {
		s, _ := v.(string)
		if s == "" {
			return nil
		}
		return strkey.ValidatePublicKey(s)
	})
	// IsCountry accepts an ISO 3166-1 alpha-2 code.
	IsCountry = validation.By(func(v any) error {
		s, _ := v.(string)
		if s != "" && !india.IsCountryCode(s) {
			return errors.New("must be an ISO 3166-1 alpha-2 country code")
		}
		return nil
	})
	// IsPurposeCode accepts an RBI purpose code's form (P and 4 digits).
	IsPurposeCode = validation.By(func(v any) error {
		s, _ := v.(string)
		if s != "" && !india.ValidPurposeCodeFormat(s) {
			return errors.New("must be P followed by 4 digits (RBI purpose code)")
		}
		return nil
	})
	// IsCurrency accepts an ISO 4217 code.
	IsCurrency = validation.By(func(v any) error {
		s, _ := v.(string)
		if _, ok := money.Lookup(s); s != "" && !ok {
			return errors.New("must be an ISO 4217 currency code")
		}
		return nil
	})
)

// AmountRule parses a decimal amount in the given currency into *out.
func AmountRule(currency string, out *int64) validation.Rule {
	return validation.By(func(v any) error {
		n, _ := v.(json.Number)
		if n == "" {
			return nil
		}
		cur, ok := money.Lookup(currency)
		if !ok {
			return errors.New("cannot be checked without a valid currency")
		}
		minor, err := money.Parse(string(n), cur)
		*out = minor
		return err
	})
}

// TextProblem says what is wrong with an input string, or "" when nothing
// is: C0 controls (NUL included), DEL and C1 controls (U+0085 is a line
// break to some readers, U+009B a terminal escape) break logs, CSV exports
// and PDFs, and bidi overrides and isolates make a stored name or memo
// display as something other than what it holds.
func TextProblem(s string) string {
	for _, c := range s {
		switch {
		case c < 0x20, c >= 0x7F && c <= 0x9F:
			return fmt.Sprintf("must not contain control character U+%04X", c)
		case c >= 0x202A && c <= 0x202E, c >= 0x2066 && c <= 0x2069:
			return fmt.Sprintf("must not contain bidirectional control character U+%04X", c)
		}
	}
	return ""
}

package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/strkey"
)

// asFieldErrors turns ozzo's validation.Errors (keyed by JSON name) into the
// documented 400 body once, centrally.
func asFieldErrors(err error) error {
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
		return validationError(fields)
	}
	return err
}

var (
	isStellarAddress = validation.By(func(v any) error {
		s, _ := v.(string)
		if s == "" {
			return nil
		}
		return strkey.ValidatePublicKey(s)
	})
	isCountry = validation.By(func(v any) error {
		s, _ := v.(string)
		if s != "" && !india.IsCountryCode(s) {
			return errors.New("must be an ISO 3166-1 alpha-2 country code")
		}
		return nil
	})
	isPurposeCode = validation.By(func(v any) error {
		s, _ := v.(string)
		if s != "" && !india.ValidPurposeCodeFormat(s) {
			return errors.New("must be P followed by 4 digits (RBI purpose code)")
		}
		return nil
	})
	isCurrency = validation.By(func(v any) error {
		s, _ := v.(string)
		if _, ok := money.Lookup(s); s != "" && !ok {
			return errors.New("must be an ISO 4217 currency code")
		}
		return nil
	})
)

// amountRule parses a decimal amount in the given currency into *out.
func amountRule(currency string, out *int64) validation.Rule {
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

// textProblem says what is wrong with a request string, or "" when nothing
// is: C0 controls (NUL included) break logs, CSV exports and PDFs, and
// bidi overrides and isolates make a stored name or memo display as
// something other than what it holds.
func textProblem(s string) string {
	for _, c := range s {
		switch {
		case c < 0x20:
			return fmt.Sprintf("must not contain control character U+%04X", c)
		case c >= 0x202A && c <= 0x202E, c >= 0x2066 && c <= 0x2069:
			return fmt.Sprintf("must not contain bidirectional control character U+%04X", c)
		}
	}
	return ""
}

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

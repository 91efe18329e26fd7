package input

import (
	"errors"
	"net/mail"
	"regexp"
	"strings"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// ProfilePatch is a change to the profile, as PATCH /profile and the
// console's profile form take it: a field left out (nil) is not changed; an
// empty string clears it, except name and email, which cannot be blank.
type ProfilePatch struct {
	Name          *string `json:"name"`
	Email         *string `json:"email"`
	Phone         *string `json:"phone"`
	CountryCode   *string `json:"countryCode"`
	HomeCurrency  *string `json:"homeCurrency"`
	GSTIN         *string `json:"gstin"`
	PAN           *string `json:"pan"`
	LUTNumber     *string `json:"lutNumber"`
	LUTValidUntil *string `json:"lutValidUntil"`
	// Address is the postal address FIRAs print for the beneficiary.
	Address *string `json:"address"`
	// GSTSpecialCategoryState: the user supplies from a special-category
	// State, where the GST registration threshold is ₹10 lakh.
	GSTSpecialCategoryState *bool `json:"gstSpecialCategoryState"`
	// StateCode is the GST state code of the principal place of business
	// (a GSTIN's first two digits say it when there is one): it decides
	// the registration threshold.
	StateCode *string `json:"stateCode"`
	// GSTRegisteredFrom is the date GST registration took effect.
	GSTRegisteredFrom *string `json:"gstRegisteredFrom"`
}

// maxAddressRunes bounds the postal address; the FIRA's worst-case test
// prints one this long.
const maxAddressRunes = 300

var (
	phoneRE = regexp.MustCompile(`^\+?[0-9][0-9 ().-]*$`)
	lutRE   = regexp.MustCompile(`^[A-Z0-9/-]+$`)
)

var (
	notBlank = validation.By(func(v any) error {
		if s, _ := v.(string); strings.TrimSpace(s) == "" {
			return errors.New("cannot be blank")
		}
		return nil
	})
	isEmail = validation.By(func(v any) error {
		s, _ := v.(string)
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s || a.Name != "" || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
			return errors.New("must be a valid e-mail address")
		}
		return nil
	})
	// checked adapts the india validators (they name the problem) to ozzo.
	checked = func(f func(string) error) validation.Rule {
		return validation.By(func(v any) error {
			if s, _ := v.(string); s != "" {
				return f(s)
			}
			return nil
		})
	}
)

// Validate checks each field that is present on its own, then returns the
// store's patch with the name trimmed.
func (q *ProfilePatch) Validate() (store.ProfilePatch, error) {
	fields := map[string]string{}
	check := func(name string, v *string, rules ...validation.Rule) {
		if v == nil {
			return
		}
		if err := validation.Validate(*v, rules...); err != nil {
			fields[name] = err.Error()
		}
	}
	check("name", q.Name, notBlank, validation.RuneLength(0, 100))
	check("email", q.Email, notBlank, validation.RuneLength(0, 254), isEmail)
	check("phone", q.Phone, validation.RuneLength(0, 30), validation.Match(phoneRE).Error("must be digits, spaces and + ( ) . - only"))
	check("countryCode", q.CountryCode, validation.RuneLength(2, 2).Error("must be exactly 2 characters"), IsCountry)
	check("homeCurrency", q.HomeCurrency, validation.RuneLength(3, 3).Error("must be exactly 3 characters"), IsCurrency)
	check("gstin", q.GSTIN, checked(india.ValidateGSTIN))
	check("pan", q.PAN, checked(india.ValidatePAN))
	check("lutNumber", q.LUTNumber, validation.RuneLength(0, 50), validation.Match(lutRE).Error("must be upper-case letters, digits, / and - only"))
	check("lutValidUntil", q.LUTValidUntil, validation.Date("2006-01-02").Error("must be a date in the form YYYY-MM-DD"))
	check("address", q.Address, validation.RuneLength(0, maxAddressRunes))
	check("stateCode", q.StateCode, checked(isGSTState))
	check("gstRegisteredFrom", q.GSTRegisteredFrom, validation.Date("2006-01-02").Error("must be a date in the form YYYY-MM-DD"))
	if len(fields) > 0 {
		return store.ProfilePatch{}, Invalid(fields)
	}
	if q.Name != nil {
		name := strings.TrimSpace(*q.Name)
		q.Name = &name
	}
	return store.ProfilePatch{Name: q.Name, Email: q.Email, Phone: q.Phone, CountryCode: q.CountryCode, HomeCurrency: q.HomeCurrency,
		GSTIN: q.GSTIN, PAN: q.PAN, LUTNumber: q.LUTNumber, LUTValidUntil: q.LUTValidUntil, Address: q.Address,
		GSTSpecialCategory: q.GSTSpecialCategoryState, StateCode: q.StateCode, GSTRegisteredFrom: q.GSTRegisteredFrom}, nil
}

// isGSTState accepts a GST state code of india.States.
func isGSTState(code string) error {
	if _, ok := india.StateOf(code); !ok {
		return errors.New("must be a GST state code (two digits, 01-38 or 97), e.g. 27 for Maharashtra")
	}
	return nil
}

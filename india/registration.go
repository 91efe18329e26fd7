package india

import (
	"fmt"
	"time"
)

// GST registration thresholds (CGST s.22(1)): a supplier of services must
// register once aggregate turnover in a financial year exceeds ₹20 lakh, or
// ₹10 lakh with its principal place of business in a special-category State
// (State.SpecialCategory); IGST Notification 10/2017 exempts inter-State
// suppliers of services within those limits from s.24(i). It becomes liable
// on the day turnover first exceeds the limit, applies within 30 days
// (s.25(1)), and its registration then takes effect from that day (rule
// 10(2) of the CGST Rules; from the grant when applied for later).
const (
	RegistrationThreshold                = 20 * lakh
	RegistrationThresholdSpecialCategory = 10 * lakh
	registrationDays                     = 30
)

// RegistrationInput is what the registration test needs from the profile.
type RegistrationInput struct {
	GSTIN string
	// StateCode is the State of the principal place of business: the
	// GSTIN's first two digits when there is one, else as the user gave it.
	StateCode string
	// SpecialCategory is the profile's older yes/no, used only while no
	// State is known.
	SpecialCategory bool
	// RegisteredFrom is the date registration took effect, "" if not given.
	RegisteredFrom string
	// PriorYearCrossedOn is the day the previous financial year's turnover
	// crossed its threshold, "" when it did not (as far as payoutd knows).
	// It dates a registration given without its date.
	PriorYearCrossedOn string
}

// Registration is the registration position of a financial year. Amounts
// are paise.
type Registration struct {
	Registered      bool // a GSTIN is on the profile
	State           State
	StateKnown      bool
	SpecialCategory bool
	Threshold       int64
	ThresholdRule   string // the limit and the provision it comes from
	Turnover        int64  // aggregate turnover: every supply of the year, exports included
	// CrossedOn is the day (time of supply) the year's turnover first
	// exceeded Threshold, and RegisterBy 30 days after it; "" when it has not.
	CrossedOn  string
	RegisterBy string
	// RegisteredFrom is the profile's effective date of registration.
	RegisteredFrom string
	// LiableFrom is the first day of the year whose supplies are taxable:
	// the day the supplier became liable to register, or the day its
	// registration took effect, whichever is earlier (never before the
	// year began); "" when no supply of the year is.
	LiableFrom string
	// LiableFromAssumed: a GSTIN is on the profile without the date its
	// registration took effect, so LiableFrom rests on payoutd's assumption
	// (settle) and the message says which and how to replace it.
	LiableFromAssumed  bool
	PriorYearCrossedOn string
	OwesGST            bool
	Message            string
}

// RegistrationOf is the threshold test over the financial year's days so
// far (yearFrom is its first day; days in order of time of supply, every
// supply at its GST value: exports count in aggregate turnover).
func RegistrationOf(in RegistrationInput, yearFrom string, days []ReceiptDay) *Registration {
	r := &Registration{Registered: in.GSTIN != "", RegisteredFrom: in.RegisteredFrom, Threshold: RegistrationThreshold,
		PriorYearCrossedOn: in.PriorYearCrossedOn}
	if s, ok := StateOfGSTIN(in.GSTIN); ok {
		r.State, r.StateKnown = s, true
	} else if s, ok := StateOf(in.StateCode); ok {
		r.State, r.StateKnown = s, true
	}
	r.SpecialCategory = in.SpecialCategory
	if r.StateKnown {
		r.SpecialCategory = r.State.SpecialCategory
	}
	if r.SpecialCategory {
		r.Threshold = RegistrationThresholdSpecialCategory
	}
	r.ThresholdRule = r.thresholdRule()
	for _, d := range days {
		if r.Turnover += d.AmountINR; r.CrossedOn == "" && r.Turnover > r.Threshold {
			r.CrossedOn = d.Day
		}
	}
	r.settle(yearFrom)
	return r
}

func (r *Registration) thresholdRule() string {
	switch {
	case r.StateKnown && r.SpecialCategory:
		return fmt.Sprintf("₹10 lakh: %s is a special-category State (CGST s.22(1), first proviso, as amended from 1 February 2019)", r.State.Name)
	case r.StateKnown:
		return fmt.Sprintf("₹20 lakh: the limit in %s (CGST s.22(1))", r.State.Name)
	case r.SpecialCategory:
		return "₹10 lakh: the profile says the supplier is in a special-category State; set the State to apply its own limit (CGST s.22(1))"
	}
	return "₹20 lakh (CGST s.22(1)); set the State of the principal place of business to apply its own limit"
}

// settle fills the dates, OwesGST and the message once the turnover is
// known. A supplier owes tax from the day it became liable to register
// (s.22(1)): a person liable to register is a taxable person (s.2(107))
// whether or not it has registered, and a registration applied for within
// 30 days takes effect that day (rule 10(2)), one applied for later from
// its grant (rule 10(3)). A registration in force before that day (taken
// voluntarily, s.25(3), or in an earlier year) makes supplies taxable from
// its own date. With a GSTIN but no date payoutd assumes: from the year's
// first day when the previous year's turnover had already crossed the
// limit or this year's has not (registered before the year); from the
// crossing day when this year's did (registered on becoming liable).
func (r *Registration) settle(yearFrom string) {
	if r.CrossedOn != "" {
		on, _ := time.Parse(time.DateOnly, r.CrossedOn)
		r.RegisterBy = on.AddDate(0, 0, registrationDays).Format(time.DateOnly)
	}
	r.LiableFrom = r.CrossedOn
	if r.Registered {
		r.LiableFromAssumed = r.RegisteredFrom == ""
		switch from := r.RegisteredFrom; {
		case from != "":
			start, _ := time.Parse(time.DateOnly, yearFrom)
			if next := start.AddDate(1, 0, 0).Format(time.DateOnly); from < next && (r.LiableFrom == "" || from < r.LiableFrom) {
				r.LiableFrom = max(from, yearFrom)
			}
		case r.CrossedOn == "" || r.PriorYearCrossedOn != "":
			r.LiableFrom = yearFrom
		}
	}
	r.OwesGST = r.LiableFrom != ""
	r.Message = r.message(yearFrom)
}

// message says where the year stands, and with a GSTIN but no date what
// payoutd assumed and how to put the real date in its place.
func (r *Registration) message(yearFrom string) string {
	const fix = " If that is not when your registration took effect, enter the effective date on its certificate " +
		"(Form GST REG-06) as gstRegisteredFrom (PATCH /profile)."
	switch {
	case r.Registered && r.LiableFromAssumed && r.PriorYearCrossedOn != "":
		return fmt.Sprintf("Registered for GST (GSTIN on the profile) without the date registration took effect: aggregate "+
			"turnover already exceeded the limit on %s, in the previous financial year, so payoutd takes every supply of "+
			"this year as taxable (CGST s.22(1)): exports are zero-rated under the year's LUT, else IGST is payable.",
			r.PriorYearCrossedOn) + fix
	case r.Registered && r.LiableFromAssumed && r.LiableFrom == yearFrom:
		return "Registered for GST (GSTIN on the profile) without the date registration took effect: payoutd takes it " +
			"to have been in force before the year began, so every export of the year is taxable: zero-rated under the " +
			"year's LUT, else IGST is payable. A registration taken during the year makes only the supplies from its " +
			"effective date taxable (rule 10)." + fix
	case r.Registered && r.LiableFromAssumed:
		return fmt.Sprintf("Registered for GST (GSTIN on the profile) without the date registration took effect: payoutd "+
			"takes supplies as taxable from %s, the day aggregate turnover exceeded %s and the supplier became liable to "+
			"register (CGST s.22(1)). Tax is owed from that day whenever the registration was applied for: within 30 "+
			"days it takes effect that day (rule 10(2)), later from its grant (rule 10(3)), and a person liable to "+
			"register is a taxable person all the same (s.2(107)). Exports before it are not taxable; from it they are "+
			"zero-rated under the year's LUT, else IGST is payable.", r.LiableFrom, r.ThresholdRule) + fix
	case r.Registered && r.LiableFrom == yearFrom:
		return "Registered for GST (effective " + r.RegisteredFrom + ", gstRegisteredFrom): every export of the year is " +
			"taxable: zero-rated under the year's LUT, else IGST is payable."
	case r.Registered && r.LiableFrom != "":
		return fmt.Sprintf("Registered for GST (effective %s, gstRegisteredFrom); supplies are taxable from %s, the day the "+
			"supplier became liable to register or the registration took effect, whichever is earlier (CGST s.22(1), "+
			"s.25(1), rule 10(2) and (3)): exports before it are not taxable, exports from it are zero-rated under the "+
			"year's LUT, else IGST is payable.", r.RegisteredFrom, r.LiableFrom)
	case r.Registered:
		return fmt.Sprintf("Registered for GST (effective %s, gstRegisteredFrom, after this year) and aggregate turnover "+
			"of %s is within %s: no supply of the year is taxable.", r.RegisteredFrom, rupeeText(r.Turnover), r.ThresholdRule)
	case r.CrossedOn == "":
		return fmt.Sprintf("Not registered for GST (no GSTIN on the profile) and aggregate turnover of %s is within %s: "+
			"no registration is needed and no GST is owed (IGST Notification 10/2017 exempts inter-State "+
			"supplies of services within the limit from s.24(i)).", rupeeText(r.Turnover), r.ThresholdRule)
	}
	return fmt.Sprintf("Registration required: aggregate turnover of %s crossed %s on %s, so GST registration "+
		"must be applied for within 30 days, by %s (CGST s.22 and s.25(1)). Supplies before %s are not taxable; "+
		"until a GSTIN is on the profile, exports from that day on are shown as liable to IGST (no LUT applies "+
		"without a registration).", rupeeText(r.Turnover), r.ThresholdRule, r.CrossedOn, r.RegisterBy, r.CrossedOn)
}

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
	OwesGST    bool
	Message    string
}

// RegistrationOf is the threshold test over the financial year's days so
// far (yearFrom is its first day; days in order of time of supply, every
// supply at its GST value: exports count in aggregate turnover).
func RegistrationOf(in RegistrationInput, yearFrom string, days []ReceiptDay) *Registration {
	r := &Registration{Registered: in.GSTIN != "", RegisteredFrom: in.RegisteredFrom, Threshold: RegistrationThreshold}
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

// settle fills the dates, OwesGST and the message once the turnover is known.
func (r *Registration) settle(yearFrom string) {
	if r.CrossedOn != "" {
		on, _ := time.Parse(time.DateOnly, r.CrossedOn)
		r.RegisterBy = on.AddDate(0, 0, registrationDays).Format(time.DateOnly)
	}
	r.LiableFrom = r.CrossedOn
	if r.Registered {
		from := r.RegisteredFrom
		if from == "" && r.CrossedOn == "" {
			from = yearFrom // registered on a date payoutd was not told: the whole year
		}
		if from != "" && (r.LiableFrom == "" || from < r.LiableFrom) {
			r.LiableFrom = max(from, yearFrom)
		}
	}
	r.OwesGST = r.LiableFrom != ""
	switch {
	case r.Registered && r.LiableFrom == yearFrom:
		r.Message = "Registered for GST (GSTIN on the profile): exports are zero-rated under the year's LUT, else IGST is payable."
	case r.Registered && r.LiableFrom != "":
		r.Message = fmt.Sprintf("Registered for GST (GSTIN on the profile); supplies are taxable from %s, the day the supplier "+
			"became liable to register or the registration took effect, whichever is earlier (CGST s.22(1), s.25(1), "+
			"rule 10(2)): exports before it are not taxable, exports from it are zero-rated under the year's LUT, else IGST is payable.",
			r.LiableFrom)
	case r.CrossedOn == "":
		r.Message = fmt.Sprintf("Not registered for GST (no GSTIN on the profile) and aggregate turnover of %s is within %s: "+
			"no registration is needed and no GST is owed (IGST Notification 10/2017 exempts inter-State "+
			"supplies of services within the limit from s.24(i)).", rupeeText(r.Turnover), r.ThresholdRule)
	default:
		r.Message = fmt.Sprintf("Registration required: aggregate turnover of %s crossed %s on %s, so GST registration "+
			"must be applied for within 30 days, by %s (CGST s.22 and s.25(1)). Supplies before %s are not taxable; "+
			"until a GSTIN is on the profile, exports from that day on are shown as liable to IGST (no LUT applies "+
			"without a registration).", rupeeText(r.Turnover), r.ThresholdRule, r.CrossedOn, r.RegisterBy, r.CrossedOn)
	}
}

package india_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func crossBorder(day string, inr int64) india.ReceiptDay {
	return india.ReceiptDay{Day: day, CrossBorder: true, Count: 1, AmountINR: inr, IGST: india.IGST(inr)}
}

func reg(gstin string, special bool, days []india.ReceiptDay) *india.Registration {
	return india.RegistrationOf(india.RegistrationInput{GSTIN: gstin, SpecialCategory: special}, "2026-04-01", days)
}

// TestSplitReceipts is the one classification of receipts: domestic,
// zero-rated under a LUT, liable to IGST, or owing nothing for want of a
// registration while turnover stays within the threshold.
func TestSplitReceipts(t *testing.T) {
	lut := india.LUTs{india.LUTOf("AD2704260009876", "2026-10-10")}
	days := []india.ReceiptDay{
		{Day: "2026-04-02", Count: 2, AmountINR: rs(8_00_000)}, // domestic
		crossBorder("2026-05-01", rs(10_00_000)),
		{Day: "2026-09-30", CrossBorder: true, Count: 1, AmountINR: rs(3_00_000), IGST: india.IGST(rs(3_00_000)), ByInvoice: 1},
		crossBorder("2026-10-11", rs(1_00_000)),
	}
	for _, c := range []struct {
		name                     string
		reg                      *india.Registration
		zero, liable, unreg, dom int64
		igst                     int64
		crossedOn, registerBy    string
		owes                     bool
		message                  string
	}{
		// Registered on a date not given, and turnover crossed ₹20 lakh on
		// 30 September: liable from that day; the LUT covers it, 11 October
		// is after the LUT.
		{"Registered", reg("27ABCPR1234K1ZN", false, days), rs(3_00_000), rs(1_00_000), rs(10_00_000), rs(8_00_000),
			rs(18_000), "2026-09-30", "2026-10-30", true, "taxable from 2026-09-30"},
		{"IncomeTaxSplit", nil, rs(13_00_000), rs(1_00_000), 0, rs(8_00_000), rs(18_000), "", "", false, ""},
		// No GSTIN, turnover ₹22 lakh: it crosses ₹20 lakh on 30 September;
		// that day's and later exports are liable, none under the LUT.
		{"UnregisteredCrossing", reg("", false, days), 0, rs(4_00_000), rs(10_00_000), rs(8_00_000),
			rs(72_000), "2026-09-30", "2026-10-30", true, "within 30 days, by 2026-10-30"},
		// Special-category State (the profile's yes/no, no State known):
		// ₹10 lakh, crossed on 1 May.
		{"SpecialCategory", reg("", true, days), 0, rs(14_00_000), 0, rs(8_00_000),
			rs(2_52_000), "2026-05-01", "2026-05-31", true, "special-category"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			s := india.SplitReceipts(days, lut, c.reg)
			is.Equal(s.All.AmountINR, rs(22_00_000))
			is.Equal(s.ZeroRated.AmountINR, c.zero)
			is.Equal(s.Liable.AmountINR, c.liable)
			is.Equal(s.Unregistered.AmountINR, c.unreg)
			is.Equal(s.Domestic.AmountINR, c.dom)
			is.Equal(s.Liable.IGST, c.igst)
			is.Equal(s.ZeroRated.IGST+s.Unregistered.IGST, int64(0))
			is.Equal(s.ByInvoiceDate, int64(1))
			is.Equal(s.BySettlementDate, int64(2))
			if c.reg == nil {
				return
			}
			is.Equal(c.reg.Turnover, rs(22_00_000))
			is.Equal(c.reg.CrossedOn, c.crossedOn)
			is.Equal(c.reg.RegisterBy, c.registerBy)
			is.Equal(c.reg.OwesGST, c.owes)
			is.True(strings.Contains(c.reg.Message, c.message))
		})
	}
	t.Run("UnregisteredWithinThreshold", func(t *testing.T) {
		is := is.New(t)
		r := reg("", false, days[1:3]) // ₹13 lakh
		s := india.SplitReceipts(days[1:3], lut, r)
		is.Equal(s.Unregistered.AmountINR, rs(13_00_000))
		is.Equal(s.Liable.IGST, int64(0))
		is.True(!r.OwesGST)
		is.Equal(r.CrossedOn, "")
		is.True(strings.Contains(r.Message, "no GST is owed"))
	})
	t.Run("ExactlyTheThreshold", func(t *testing.T) {
		is := is.New(t)
		is.True(!reg("", false, []india.ReceiptDay{crossBorder("2026-05-01", rs(20_00_000))}).OwesGST) // within, not above
		is.True(reg("", false, []india.ReceiptDay{crossBorder("2026-05-01", rs(20_00_000)+1)}).OwesGST)
	})
}

// TestLiableFromTheDay: turnover crosses ₹20 lakh on 5 October with
// ₹15 lakh of exports each side of it: IGST is owed on the supplies from
// 5 October only, ₹2,70,000, before and after a GSTIN is entered, with or
// without the date registration took effect; a registration effective
// before the crossing makes the supplies taxable from its date.
func TestLiableFromTheDay(t *testing.T) {
	days := []india.ReceiptDay{crossBorder("2026-06-10", rs(15_00_000)), crossBorder("2026-10-05", rs(10_00_000)),
		crossBorder("2026-11-20", rs(5_00_000))}
	for _, c := range []struct {
		name           string
		in             india.RegistrationInput
		liableFrom     string
		notTaxable     int64
		igst           int64
		registered     bool
		messageMention string
	}{
		{"NoGSTIN", india.RegistrationInput{}, "2026-10-05", rs(15_00_000), rs(2_70_000), false, "Registration required"},
		{"GSTINNoDate", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN"}, "2026-10-05", rs(15_00_000), rs(2_70_000), true, "taxable from 2026-10-05"},
		{"GSTINFromTheDay", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", RegisteredFrom: "2026-10-05"}, "2026-10-05", rs(15_00_000), rs(2_70_000), true, "rule 10(2)"},
		// Granted late (applied after 30 days): still liable from the crossing.
		{"GSTINGrantedLater", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", RegisteredFrom: "2026-11-25"}, "2026-10-05", rs(15_00_000), rs(2_70_000), true, "whichever is earlier"},
		// Registered voluntarily in May: every supply from then.
		{"GSTINVoluntaryInMay", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", RegisteredFrom: "2026-05-01"}, "2026-05-01", 0, rs(5_40_000), true, "2026-05-01"},
		// Registered in an earlier year: the whole year.
		{"GSTINEarlierYear", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", RegisteredFrom: "2024-07-01"}, "2026-04-01", 0, rs(5_40_000), true, "zero-rated under the year's LUT"},
		// No date, but the previous year crossed the limit: registered
		// before this year, so the whole year, and the message says why.
		{"GSTINNoDatePriorYearCrossed", india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", PriorYearCrossedOn: "2026-02-10"}, "2026-04-01", 0, rs(5_40_000), true, "previous financial year"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := india.RegistrationOf(c.in, "2026-04-01", days)
			is.Equal(r.CrossedOn, "2026-10-05")
			is.Equal(r.LiableFrom, c.liableFrom)
			is.Equal(r.Registered, c.registered)
			s := india.SplitReceipts(days, nil, r) // no LUT for the year
			is.Equal(s.Unregistered.AmountINR, c.notTaxable)
			is.Equal(s.Liable.IGST, c.igst)
			is.True(strings.Contains(r.Message, c.messageMention))
			// Without the date, the figures rest on an assumption the
			// message names, with the way to replace it.
			is.Equal(r.LiableFromAssumed, c.registered && c.in.RegisteredFrom == "")
			is.Equal(strings.Contains(r.Message, "gstRegisteredFrom (PATCH /profile)"), r.LiableFromAssumed)
		})
	}
}

// TestRegistrationDateAssumed: with a GSTIN and no date payoutd assumes,
// and says so: registered before the year while this year's turnover has
// not crossed the limit; from the crossing day when it has (tax is owed
// from it however late the registration, rule 10(3) and s.2(107)); the
// whole year when the previous year had crossed. The date given replaces
// each assumption.
func TestRegistrationDateAssumed(t *testing.T) {
	within := []india.ReceiptDay{crossBorder("2026-06-10", rs(5_00_000))}
	crossing := []india.ReceiptDay{crossBorder("2026-06-10", rs(15_00_000)), crossBorder("2026-10-05", rs(10_00_000))}
	const gstin = "27ABCPR1234K1ZN"
	for _, c := range []struct {
		name       string
		in         india.RegistrationInput
		days       []india.ReceiptDay
		liableFrom string
		assumed    bool
		mention    string
	}{
		{"NoCrossingBeforeTheYear", india.RegistrationInput{GSTIN: gstin}, within, "2026-04-01", true, "before the year began"},
		{"CrossingThisYear", india.RegistrationInput{GSTIN: gstin}, crossing, "2026-10-05", true, "rule 10(3)"},
		{"CrossedLastYear", india.RegistrationInput{GSTIN: gstin, PriorYearCrossedOn: "2026-01-20"}, crossing, "2026-04-01", true, "2026-01-20"},
		{"VoluntaryDateGiven", india.RegistrationInput{GSTIN: gstin, RegisteredFrom: "2026-08-01"}, within, "2026-08-01", false, "effective 2026-08-01"},
		{"DateAfterTheYear", india.RegistrationInput{GSTIN: gstin, RegisteredFrom: "2027-05-01"}, within, "", false, "after this year"},
		{"NoGSTINNoAssumption", india.RegistrationInput{PriorYearCrossedOn: "2026-01-20"}, within, "", false, "Not registered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := india.RegistrationOf(c.in, "2026-04-01", c.days)
			is.Equal(r.LiableFrom, c.liableFrom)
			is.Equal(r.LiableFromAssumed, c.assumed)
			is.True(strings.Contains(r.Message, c.mention))
		})
	}
}

// TestThresholdByState: the ₹10 lakh limit follows the State of the
// principal place of business (the GSTIN's, else the one given): Tripura
// is one of the four special-category States of s.22 as amended,
// Himachal Pradesh no longer is; the profile's older yes/no counts only
// while no State is known.
func TestThresholdByState(t *testing.T) {
	for _, c := range []struct {
		name      string
		in        india.RegistrationInput
		threshold int64
		state     string
	}{
		{"Tripura", india.RegistrationInput{StateCode: "16"}, rs(10_00_000), "Tripura"},
		{"HimachalPradesh", india.RegistrationInput{StateCode: "02"}, rs(20_00_000), "Himachal Pradesh"},
		{"HimachalOverridesOldYesNo", india.RegistrationInput{StateCode: "02", SpecialCategory: true}, rs(20_00_000), "Himachal Pradesh"},
		{"TripuraByGSTIN", india.RegistrationInput{GSTIN: "16ABCPR1234K1ZN", StateCode: "27"}, rs(10_00_000), "Tripura"},
		{"Manipur", india.RegistrationInput{StateCode: "14"}, rs(10_00_000), "Manipur"},
		{"Mizoram", india.RegistrationInput{StateCode: "15"}, rs(10_00_000), "Mizoram"},
		{"Nagaland", india.RegistrationInput{StateCode: "13"}, rs(10_00_000), "Nagaland"},
		{"Assam", india.RegistrationInput{StateCode: "18"}, rs(20_00_000), "Assam"},
		{"UnknownOldYesNo", india.RegistrationInput{SpecialCategory: true}, rs(10_00_000), ""},
		{"Unknown", india.RegistrationInput{}, rs(20_00_000), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := india.RegistrationOf(c.in, "2026-04-01", []india.ReceiptDay{crossBorder("2026-05-01", rs(12_00_000))})
			is.Equal(r.Threshold, c.threshold)
			is.Equal(r.State.Name, c.state)
			is.Equal(r.OwesGST, c.threshold == rs(10_00_000)) // ₹12 lakh is over ₹10 lakh only
			if c.state != "" {
				is.True(strings.Contains(r.ThresholdRule, c.state))
			}
		})
	}
	var special []string
	for _, s := range india.States() {
		if s.SpecialCategory {
			special = append(special, s.Name)
		}
	}
	is.New(t).Equal(special, []string{"Nagaland", "Manipur", "Mizoram", "Tripura"})
}

// TestLUT: a LUT covers its financial year; exports before the date it
// was furnished are covered ex post facto; the profile's older LUT covers
// its year up to its validUntil date; a year without a LUT has none.
func TestLUT(t *testing.T) {
	is := is.New(t)
	fy := india.FY{StartYear: 2026}
	l := india.LUTFurnished("AD2708260001234", fy, "2026-08-01")
	is.True(l.Covers("2026-04-01") && l.Covers("2027-03-31"))
	is.True(!l.Covers("2026-03-31") && !l.Covers("2027-04-01"))
	is.True(l.ExPostFacto("2026-07-31") && !l.ExPostFacto("2026-08-01"))

	days := []india.ReceiptDay{crossBorder("2026-05-10", rs(1_00_000)), crossBorder("2026-07-31", rs(2_00_000)),
		crossBorder("2026-08-01", rs(4_00_000)), crossBorder("2027-04-02", rs(8_00_000))}
	r := india.RegistrationOf(india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN", RegisteredFrom: "2025-04-01"}, "2026-04-01", days)
	s := india.SplitReceipts(days, india.LUTs{l}, r)
	is.Equal(s.ZeroRated.AmountINR, rs(7_00_000))
	is.Equal(s.ExPostFacto.AmountINR, rs(3_00_000)) // April to July, before 1 August
	is.Equal(s.ExPostFacto.Count, int64(2))
	is.Equal(s.Liable.AmountINR, rs(8_00_000)) // 2027-28 has no LUT
	is.Equal(s.Liable.IGST, rs(1_44_000))

	w := india.LUTOf("AD2703260001234", "2026-03-31")
	is.Equal(w, india.LUT{ARN: "AD2703260001234", FY: india.FY{StartYear: 2025}, Until: "2026-03-31"})
	is.True(w.Covers("2025-04-01") && !w.Covers("2026-04-01") && !w.ExPostFacto("2025-04-01"))
	got, ok := india.LUTs{w, l}.For(fy)
	is.True(ok)
	is.Equal(got, l)
	_, ok = india.LUTs{w, l}.For(india.FY{StartYear: 2027})
	is.True(!ok)
	is.Equal(india.LUTOf("", "2026-03-31"), india.LUT{})
	is.Equal(india.LUTOf("AD27", "31/03/2026"), india.LUT{})
}

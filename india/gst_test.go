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

// TestSplitReceipts is the one classification of receipts: domestic,
// zero-rated under a LUT, liable to IGST, or owing nothing for want of a
// registration while turnover stays within the threshold.
func TestSplitReceipts(t *testing.T) {
	lut := india.LUTOf("AD2704260009876", "2026-10-10")
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
		// Registered: the LUT alone decides; 11 October is after it.
		{"Registered", india.RegistrationOf("27ABCPR1234K1ZN", false, days), rs(13_00_000), rs(1_00_000), 0, rs(8_00_000),
			rs(18_000), "", "", true, "Registered"},
		{"IncomeTaxSplit", nil, rs(13_00_000), rs(1_00_000), 0, rs(8_00_000), rs(18_000), "", "", false, ""},
		// No GSTIN, turnover ₹22 lakh: it crosses ₹20 lakh on 30 September;
		// that day's and later exports are liable, none under the LUT.
		{"UnregisteredCrossing", india.RegistrationOf("", false, days), 0, rs(4_00_000), rs(10_00_000), rs(8_00_000),
			rs(72_000), "2026-09-30", "2026-10-30", true, "within 30 days, by 2026-10-30"},
		// Special-category State: ₹10 lakh, crossed on 1 May.
		{"SpecialCategory", india.RegistrationOf("", true, days), 0, rs(14_00_000), 0, rs(8_00_000),
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
		reg := india.RegistrationOf("", false, days[1:3]) // ₹13 lakh
		s := india.SplitReceipts(days[1:3], lut, reg)
		is.Equal(s.Unregistered.AmountINR, rs(13_00_000))
		is.Equal(s.Liable.IGST, int64(0))
		is.True(!reg.OwesGST)
		is.Equal(reg.CrossedOn, "")
		is.True(strings.Contains(reg.Message, "no GST is owed"))
	})
	t.Run("ExactlyTheThreshold", func(t *testing.T) {
		is := is.New(t)
		is.True(!india.RegistrationOf("", false, []india.ReceiptDay{crossBorder("2026-05-01", rs(20_00_000))}).OwesGST) // within, not above
		is.True(india.RegistrationOf("", false, []india.ReceiptDay{crossBorder("2026-05-01", rs(20_00_000)+1)}).OwesGST)
	})
}

// TestLUT: a LUT covers one financial year up to its validUntil date.
func TestLUT(t *testing.T) {
	is := is.New(t)
	w := india.LUTOf("AD2703260001234", "2026-03-31")
	is.Equal(w, india.LUT{From: "2025-04-01", Until: "2026-03-31"})
	is.True(w.Covers("2025-04-01") && w.Covers("2026-03-31"))
	is.True(!w.Covers("2025-03-31") && !w.Covers("2026-04-01"))
	is.True(w.FiledFor(india.FY{StartYear: 2025}) && !w.FiledFor(india.FY{StartYear: 2026}))
	is.Equal(india.LUTOf("", "2026-03-31"), india.LUT{})
	is.Equal(india.LUTOf("AD27", "31/03/2026"), india.LUT{})
}

package india

// The new-regime tax tables, one per supported financial year. Every figure
// has its source named beside it. None is a gazette or the Act's text.

// Slabs of FY 2023-24 and FY 2024-25 under s.115BAC.
// Source: taxwinner.in/income-tax-slab-rate-under-new-tax-regime.
var (
	slabsFY2023 = []Slab{
		{From: 0, RatePercent: 0},          // 0–3 L: nil
		{From: 3 * lakh, RatePercent: 5},   // 3–6 L: 5%
		{From: 6 * lakh, RatePercent: 10},  // 6–9 L: 10%
		{From: 9 * lakh, RatePercent: 15},  // 9–12 L: 15%
		{From: 12 * lakh, RatePercent: 20}, // 12–15 L: 20%
		{From: 15 * lakh, RatePercent: 30}, // above 15 L: 30%
	}
	slabsFY2024 = []Slab{
		{From: 0, RatePercent: 0},          // 0–3 L: nil
		{From: 3 * lakh, RatePercent: 5},   // 3–7 L: 5%
		{From: 7 * lakh, RatePercent: 10},  // 7–10 L: 10%
		{From: 10 * lakh, RatePercent: 15}, // 10–12 L: 15%
		{From: 12 * lakh, RatePercent: 20}, // 12–15 L: 20%
		{From: 15 * lakh, RatePercent: 30}, // above 15 L: 30%
	}
	// FY 2025-26: incometaxmanagement.in/?p=3633 ; studycafe.in.
	// FY 2026-27 keeps them under Act 2025 s.202: upstox.com ; businesstoday.in ;
	// outlookmoney.com and a Budget-2026 live blog ("no revisions to the tax
	// slabs").
	slabsFY2025 = []Slab{
		{From: 0, RatePercent: 0},          // 0–4 L: nil
		{From: 4 * lakh, RatePercent: 5},   // 4–8 L: 5%
		{From: 8 * lakh, RatePercent: 10},  // 8–12 L: 10%
		{From: 12 * lakh, RatePercent: 15}, // 12–16 L: 15%
		{From: 16 * lakh, RatePercent: 20}, // 16–20 L: 20%
		{From: 20 * lakh, RatePercent: 25}, // 20–24 L: 25%
		{From: 24 * lakh, RatePercent: 30}, // above 24 L: 30%
	}
)

// Surcharge on income-tax for individuals: above 50 L 10%, above 1 Cr 15%,
// above 2 Cr 25%, above 5 Cr 37% in the old regime, capped at 25% in the new
// regime. Source: savetaxs.com/glossary/surcharge ; studycafe.in ("highest
// surcharge 25% above ₹2 Cr", new regime).
// Marginal relief (surcharge cannot exceed the income above the threshold):
// wp.jjknowledgebase.com/surcharge-marginal-relief-and-health-education-cess.
// The sources give the bands without a year; they are applied unchanged to
// every supported year, FY 2026-27 included (UNCONFIRMED for the 2025 Act).
var surchargeBands = []SurchargeBand{
	{Above: 50 * lakh, RatePercent: 10},
	{Above: 1 * crore, RatePercent: 15},
	{Above: 2 * crore, RatePercent: 25},
	{Above: 5 * crore, RatePercent: 37},
}

const (
	// surchargeCapNewRegime: savetaxs.com/glossary/surcharge ; studycafe.in.
	surchargeCapNewRegime = 25
	// cessPercent, Health & Education Cess, 4% of income-tax plus surcharge:
	// wp.jjknowledgebase.com (above) ; kanakkupillai.com/learn/surcharge-in-income-tax.
	cessPercent = 4
	// presumptivePercent, s.44ADA(1) (Act 2025: s.58(2) Table Sl. No. 3):
	// 50% of gross receipts. taxtmi.com/tmi_blog_details?id=473522 ;
	// taxfull.com/16234/am-i-under-44ad-or-44ada ; readyfiling.com (2025 Act).
	presumptivePercent = 50
	// s.44ADA receipts limits: ₹50 lakh, or ₹75 lakh when cash receipts are at
	// most 5% of gross receipts (Finance Act 2023, from FY 2023-24).
	// taxtmi.com/acts?id=41194 ; notes.poddarayush.com. The 2025 Act keeps
	// both (s.58): readyfiling.com ; taxmanagementindia.com (tmi_blog 805392).
	presumptiveLimit        = 50 * lakh
	presumptiveLimitLowCash = 75 * lakh
	presumptiveCashMax      = 5
)

// Rebate u/s 87A in the new regime with marginal relief: above the limit, tax
// after rebate is capped at the income above the limit. The checked sources
// show it only through a public AY 2026-27 test file (TI ₹12,30,000: tax
// ₹64,500, rebate ₹34,500, tax ₹30,000, cess ₹1,200), and taxguru.in
// (marginal-relief-u-s-87a-tax-regime-u-s-115bac1a) quotes the proviso the
// Finance Act 2023 added for the ₹7 lakh limit. UNCONFIRMED as law: no
// statutory text was checked, for any year.
const rebateMarginalRelief = true

// taxTables, one self-contained entry per financial year, ascending and
// without gaps (TestTaxTablesContiguous). When a Finance Act sets the figures
// of a new year, append its entry: until then rulesOrLatest answers for that
// year from the last entry, marked provisional.
var taxTables = []Rules{
	{
		FY:    FY{StartYear: 2023},
		Slabs: slabsFY2023,
		// ₹25,000 if TI ≤ ₹7 L: mostpopularcalculators.com ; onlytech.com
		// (Budget 2023 raised the limit from ₹5 L to ₹7 L).
		RebateLimit:          7 * lakh,
		RebateMax:            25_000 * paisePerRupee,
		RebateMarginalRelief: rebateMarginalRelief,
		SurchargeBands:       surchargeBands,
		SurchargeCapPercent:  surchargeCapNewRegime,
		CessPercent:          cessPercent,

		PresumptivePercent:              presumptivePercent,
		PresumptiveReceiptsLimit:        presumptiveLimit,
		PresumptiveReceiptsLimitLowCash: presumptiveLimitLowCash,
		PresumptiveCashMaxPercent:       presumptiveCashMax,
	},
	{
		FY:    FY{StartYear: 2024},
		Slabs: slabsFY2024,
		// ₹25,000 if TI ≤ ₹7 L: mostpopularcalculators.com ; taxwinner.in.
		RebateLimit:          7 * lakh,
		RebateMax:            25_000 * paisePerRupee,
		RebateMarginalRelief: rebateMarginalRelief,
		SurchargeBands:       surchargeBands,
		SurchargeCapPercent:  surchargeCapNewRegime,
		CessPercent:          cessPercent,

		PresumptivePercent:              presumptivePercent,
		PresumptiveReceiptsLimit:        presumptiveLimit,
		PresumptiveReceiptsLimitLowCash: presumptiveLimitLowCash,
		PresumptiveCashMaxPercent:       presumptiveCashMax,
	},
	{
		FY:    FY{StartYear: 2025},
		Slabs: slabsFY2025,
		// ₹60,000 if TI ≤ ₹12 L (up from ₹25,000): incometaxmanagement.in/?p=3633 ;
		// studycafe.in.
		RebateLimit:          12 * lakh,
		RebateMax:            60_000 * paisePerRupee,
		RebateMarginalRelief: rebateMarginalRelief,
		SurchargeBands:       surchargeBands,
		SurchargeCapPercent:  surchargeCapNewRegime,
		CessPercent:          cessPercent,

		PresumptivePercent:              presumptivePercent,
		PresumptiveReceiptsLimit:        presumptiveLimit,
		PresumptiveReceiptsLimitLowCash: presumptiveLimitLowCash,
		PresumptiveCashMaxPercent:       presumptiveCashMax,
	},
	{
		// Tax year 2026-27, the first under the Income-tax Act, 2025.
		FY:    FY{StartYear: 2026},
		Slabs: slabsFY2025, // unchanged: Budget 2026
		// ₹60,000 if TI ≤ ₹12 L, now in s.156: upstox.com.
		RebateLimit:          12 * lakh,
		RebateMax:            60_000 * paisePerRupee,
		RebateMarginalRelief: rebateMarginalRelief,
		SurchargeBands:       surchargeBands,
		SurchargeCapPercent:  surchargeCapNewRegime,
		CessPercent:          cessPercent,

		PresumptivePercent:              presumptivePercent,
		PresumptiveReceiptsLimit:        presumptiveLimit,
		PresumptiveReceiptsLimitLowCash: presumptiveLimitLowCash,
		PresumptiveCashMaxPercent:       presumptiveCashMax,
	},
}

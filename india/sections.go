package india

// Act is one Income-tax Act's numbering of the rules payoutd applies: every
// note and warning of a year takes its sections from the Act of that year
// and from nowhere else, so a year never cites two Acts at once.
//
// The Income-tax Act, 1961 governs financial years up to 2025-26; the
// Income-tax Act, 2025 applies from 1 April 2026 and calls the period the
// "tax year". Sources: shared India facts §1 (s.58, s.62, s.63, s.404, s.408,
// s.424, s.425, s.516: readyfiling.com ; bharattax.co ; eztax.in ;
// cabkgoyal.com ; caclubindia.com ; aubsp.com section map), §2 (s.156,
// s.202: upstox.com ; businesstoday.in), and s.140A / s.266 (actsofindia.in
// and ai.jamku.app/incometax2025/act/266.html, the sections' text).
type Act struct {
	Name string // "Income-tax Act, 1961"
	// Year is how the Act names the period: "FY" (financial year) under the
	// 1961 Act, "tax year" under the 2025 Act.
	Year string

	Regime      string // the new (default) regime's slabs
	Rebate      string
	Presumptive string // presumptive income of professionals at 50% of receipts
	Books       string // books of account
	Audit       string // tax audit
	// AdvanceTaxFloor is the ₹10,000 below which no advance tax is payable;
	// Instalments the schedule, with AllByMarch (presumptive payers) and
	// FourInstalments (everyone else) its two branches.
	AdvanceTaxFloor string
	Instalments     string
	AllByMarch      string
	FourInstalments string
	// InterestDefault: advance tax paid below 90% of the assessed tax;
	// InterestDeferment: instalments short of their share, with
	// DefermentPresumptive the 1% rule for a presumptive professional.
	InterestDefault      string
	InterestDeferment    string
	DefermentPresumptive string
	Rounding             string // income, tax payable and refunds to ₹10
	// InterestFirst applies a self-assessment payment short of the tax and
	// interest to the interest first.
	InterestFirst string
	// InterestBase is the rule that rounds the amount interest runs on down
	// to a multiple of ₹100: rule 119A of the 1962 Rules, whose equivalent
	// in the rules under the 2025 Act is not confirmed (facts §1).
	InterestBase string
}

// act1961 and act2025 are the only two tables of sections; ActOf picks one.
var (
	act1961 = Act{
		Name: "Income-tax Act, 1961", Year: "FY",
		Regime: "s.115BAC", Rebate: "s.87A", Presumptive: "s.44ADA", Books: "s.44AA", Audit: "s.44AB",
		AdvanceTaxFloor: "s.208", Instalments: "s.211", AllByMarch: "s.211(1)(b)", FourInstalments: "s.211(1)(a)",
		InterestDefault: "s.234B", InterestDeferment: "s.234C", DefermentPresumptive: "s.234C(1)(b)",
		Rounding:      "ss.288A and 288B",
		InterestFirst: "Explanation to s.140A(1)",
		InterestBase:  "rule 119A",
	}
	act2025 = Act{
		Name: "Income-tax Act, 2025", Year: "tax year",
		Regime: "s.202", Rebate: "s.156", Presumptive: "s.58(2) Table Sl. No. 3", Books: "s.62", Audit: "s.63",
		AdvanceTaxFloor: "s.404", Instalments: "s.408", AllByMarch: "s.408(2)", FourInstalments: "s.408(1)",
		InterestDefault: "s.424", InterestDeferment: "s.425", DefermentPresumptive: "s.425(3)",
		Rounding:      "s.516",
		InterestFirst: "s.266(3)",
		InterestBase:  "the ₹100 rounding of rule 119A (its equivalent under the 2025 Act's rules is not confirmed)",
	}
)

// firstYear2025Act is the first tax year of the Income-tax Act, 2025.
const firstYear2025Act = 2026

// ActOf returns the Act that governs fy.
func ActOf(fy FY) Act {
	if fy.StartYear >= firstYear2025Act {
		return act2025
	}
	return act1961
}

// Label names the year as its Act does: "FY 2025-26" or "tax year 2026-27".
func (a Act) Label(fy FY) string { return a.Year + " " + fy.String() }

// Sections is every section the table names, for checks that a text cites
// only its own Act.
func (a Act) Sections() []string {
	return []string{a.Regime, a.Rebate, a.Presumptive, a.Books, a.Audit, a.AdvanceTaxFloor, a.Instalments,
		a.AllByMarch, a.FourInstalments, a.InterestDefault, a.InterestDeferment, a.DefermentPresumptive, a.Rounding, a.InterestFirst}
}

// Acts lists both tables, 1961 first.
func Acts() []Act { return []Act{act1961, act2025} }

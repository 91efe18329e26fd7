package india

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// ErrUnsupportedFY is returned (wrapped) for a financial year with no tax
// table; the API answers it with a 400.
var ErrUnsupportedFY = errors.New("unsupported financial year")

// Slab is one row of an income-tax slab table: the part of taxable income
// above From (paise) is taxed at RatePercent, up to the next slab's From.
type Slab struct {
	From        int64
	RatePercent int64
}

// SurchargeBand applies RatePercent (of income-tax) when taxable income
// exceeds Above (paise), until a higher band applies.
type SurchargeBand struct {
	Above       int64
	RatePercent int64
}

// Rules are the new-regime figures for one financial year, for a resident
// individual declaring professional income under s.44ADA. All amounts are
// paise. The tables with their sources are in taxtables.go.
type Rules struct {
	FY FY
	// The statutory home of each rule is the year's Act (ActOf), not a field
	// here, so one table of sections per Act serves every year.

	Slabs []Slab // ascending From, the first From is 0

	RebateLimit int64 // rebate only when taxable income ≤ RebateLimit
	RebateMax   int64
	// RebateMarginalRelief: above RebateLimit, tax after rebate never exceeds
	// the income above RebateLimit.
	RebateMarginalRelief bool

	SurchargeBands      []SurchargeBand // ascending Above
	SurchargeCapPercent int64           // new-regime cap on any band's rate
	CessPercent         int64           // on income-tax plus surcharge

	PresumptivePercent int64 // deemed income as a share of gross receipts
	// Receipts limits for using s.44ADA: the basic one, and the higher one
	// available when cash receipts are at most PresumptiveCashMaxPercent of
	// gross receipts. Compute reports whether they are met (Presumptive).
	PresumptiveReceiptsLimit        int64
	PresumptiveReceiptsLimitLowCash int64
	PresumptiveCashMaxPercent       int64
}

// RulesFor returns the tax rules of fy, or ErrUnsupportedFY. The returned
// value is a copy; changing its slices does not change the tables.
func RulesFor(fy FY) (Rules, error) {
	r, err := rulesFor(fy)
	if err != nil {
		return Rules{}, err
	}
	c := *r
	c.Slabs = slices.Clone(r.Slabs)
	c.SurchargeBands = slices.Clone(r.SurchargeBands)
	return c, nil
}

// rulesFor returns the shared table itself, so Compute does not copy.
func rulesFor(fy FY) (*Rules, error) {
	for i := range taxTables {
		if taxTables[i].FY == fy {
			return &taxTables[i], nil
		}
	}
	return nil, fmt.Errorf("%w: %s (tables exist for %s to %s)", ErrUnsupportedFY, fy,
		taxTables[0].FY, LatestTableFY())
}

// LatestTableFY is the last year whose Finance Act figures are in the tables.
func LatestTableFY() FY { return taxTables[len(taxTables)-1].FY }

// rulesOrLatest returns fy's own table, or for a year after the last one
// (its Finance Act not yet passed) the latest table and provisional = true:
// the latest enacted figures are the only reasonable estimate until then.
// A year before the first table is ErrUnsupportedFY.
func rulesOrLatest(fy FY) (r *Rules, provisional bool, err error) {
	if last := LatestTableFY(); fy.StartYear > last.StartYear {
		return &taxTables[len(taxTables)-1], true, nil
	}
	r, err = rulesFor(fy)
	return r, false, err
}

// SupportedYears is the range of financial years the tax endpoints answer on
// today: from the first table to the year after the later of the current
// year (IST) and the latest table, so next year's figures can be planned
// (provisionally) and the current year never falls out of range when a new
// year starts before its Finance Act is added here.
func SupportedYears(today time.Time) (first, last FY) {
	last = LatestTableFY()
	if cur := FYOf(today); cur.StartYear > last.StartYear {
		last = cur
	}
	return taxTables[0].FY, FY{StartYear: last.StartYear + 1}
}

// slabTax is the income-tax on taxable income ti before rebate, surcharge and
// cess, rounded half-up to whole rupees as the return states it. Slab bounds
// are whole lakhs and ti is whole tens of rupees, so each slab's product is a
// whole number of paise and only the total is rounded.
func (r *Rules) slabTax(ti int64) int64 {
	return rupeesHalfUp(r.exactSlabTax(ti))
}

func (r *Rules) exactSlabTax(ti int64) int64 {
	var tax int64
	for i, s := range r.Slabs {
		if ti <= s.From {
			break
		}
		upper := ti
		if i+1 < len(r.Slabs) {
			upper = min(ti, r.Slabs[i+1].From)
		}
		tax += (upper - s.From) * s.RatePercent / 100
	}
	return tax
}

// rebate87A is the s.87A rebate on tax for taxable income ti.
func (r *Rules) rebate87A(ti, tax int64) int64 {
	if ti <= r.RebateLimit {
		return min(tax, r.RebateMax)
	}
	// Marginal relief: pay at most the income above the limit. Never more
	// than RebateMax, because tax grows more slowly than income above it.
	if excess := ti - r.RebateLimit; r.RebateMarginalRelief && tax > excess {
		return tax - excess
	}
	return 0
}

// taxAfterRebate is slab tax less the s.87A rebate.
func (r *Rules) taxAfterRebate(ti int64) int64 {
	tax := r.slabTax(ti)
	return tax - r.rebate87A(ti, tax)
}

// surchargeRate is the band rate capped for the new regime.
func (r *Rules) surchargeRate(band int) int64 {
	return min(r.SurchargeBands[band].RatePercent, r.SurchargeCapPercent)
}

// surcharge on tax (after rebate) for taxable income ti, with marginal relief:
// tax plus surcharge may exceed tax plus surcharge at the band's threshold by
// no more than the income above that threshold.
func (r *Rules) surcharge(ti, tax int64) int64 {
	band := -1
	for i, b := range r.SurchargeBands {
		if ti > b.Above {
			band = i
		}
	}
	if band < 0 {
		return 0
	}
	s := percentToRupee(tax, r.surchargeRate(band))

	threshold := r.SurchargeBands[band].Above
	atThreshold := r.taxAfterRebate(threshold)
	if band > 0 {
		atThreshold += percentToRupee(atThreshold, r.surchargeRate(band-1))
	}
	// Never negative: tax grows by at most the top slab rate (< 100%) of the
	// income above the threshold.
	relief := atThreshold + (ti - threshold) - tax
	return min(s, relief)
}

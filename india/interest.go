package india

import (
	"fmt"
	"time"
)

// Interest on advance tax (facts §1, "Interest on advance tax"):
//
//   - deferment, s.234C (2025 Act s.425): four-instalment payers owe 3% on
//     the shortfall against 15%, 45% and 75% of the tax by 15 June,
//     15 September and 15 December (none on the first two when 12% and 36%
//     were paid) and 1% against 100% by 15 March; a presumptive
//     professional owes 1% on the shortfall of the tax not paid by 15 March
//     (s.234C(1)(b); s.425(3));
//   - default, s.234B (2025 Act s.424): when advance tax paid is below 90%
//     of the assessed tax, 1% for every month or part of a month from
//     1 April after the year until the tax is paid, on the shortfall;
//   - rule 119A: the amount interest runs on is rounded down to a multiple
//     of ₹100, and a part of a month counts as a whole month;
//   - Explanation to s.140A(1) (2025 Act s.266(3)): a self-assessment
//     payment short of the tax and interest goes to the interest first.
//
// Sources: cabkgoyal.com (s.425) ; aubsp.com ; eztax.in/income-tax-act-2025/
// section-425 ; caclubindia.com (s.424) ; rule 119A (third-party copies);
// actsofindia.in (text of s.140A) ; ai.jamku.app/incometax2025/act/266.html
// (text of s.266).
// Like the rest of the liability, the assessed tax is the estimate payoutd
// makes (no TDS, no other income).

// Interest percentages per month (or per instalment, for deferment).
const (
	defermentInstalmentPercent = 3 // June, September, December: 1% for three months
	defermentMarchPercent      = 1
	defaultMonthlyPercent      = 1
	defaultPaidBelowPercent    = 90
)

// safeHarbour: no deferment interest on the June and September instalments
// when at least 12% and 36% of the tax were paid by their dates.
var safeHarbour = map[time.Month]int64{time.June: 12, time.September: 36}

// InstalmentInterest is the deferment interest of one instalment: the
// shortfall against it, that shortfall rounded down to ₹100 (Base), and the
// interest on Base. Amounts are paise.
type InstalmentInterest struct {
	DueDate   string
	Shortfall int64
	Base      int64
	Percent   int64
	Interest  int64
}

// DefaultPeriod is one stretch of default interest: Base (the shortfall
// rounded down to ₹100) for Months months, From and To inclusive. Amounts
// are paise.
type DefaultPeriod struct {
	From, To string // YYYY-MM-DD
	Months   int64
	Base     int64
	Interest int64
}

// Interest is a year's interest on advance tax, if the remaining tax is paid
// on PayOn. Amounts are paise, whole rupees.
type Interest struct {
	PayOn string // YYYY-MM-DD
	// Deferment per instalment of the schedule (empty when no advance tax is
	// payable), and its total.
	Instalments []InstalmentInterest
	Deferment   int64
	// Default applies when AdvancePaid is below 90% of the assessed tax.
	DefaultApplies bool
	AdvancePaid    int64
	Periods        []DefaultPeriod
	Default        int64
	Total          int64
}

// ComputeInterest works out the interest of a year from its tax (the
// assessed tax), schedule and recorded challans, supposing whatever tax is
// still unpaid is paid on payOn (an IST date): advance tax when payOn is
// within the year, self-assessment tax after it. Challans dated after payOn
// are counted at their own dates.
func ComputeInterest(fy FY, tax int64, presumptive bool, schedule []Instalment, payments []TaxPayment, payOn string) (Interest, error) {
	on, err := time.Parse(time.DateOnly, payOn)
	if err != nil {
		return Interest{}, fmt.Errorf("india: payOn %q is not a date", payOn)
	}
	in := Interest{PayOn: payOn}
	var paid int64
	for _, p := range payments {
		paid += p.Amount
	}
	all := append([]TaxPayment(nil), payments...)
	if rest := tax - paid; rest > 0 {
		kind := PaymentAdvance
		if payOn > fyLastDay(fy) {
			kind = PaymentSelfAssessment
		}
		all = append(all, TaxPayment{Kind: kind, PaidOn: on.Format(time.DateOnly), Amount: rest})
	}
	if len(schedule) == 0 {
		// No advance tax is payable (below ₹10,000): neither interest applies.
		return in, nil
	}
	for _, s := range schedule {
		in.Instalments = append(in.Instalments, deferment(s, tax, presumptive, all))
		in.Deferment += in.Instalments[len(in.Instalments)-1].Interest
	}
	for _, p := range all {
		if p.Kind == PaymentAdvance {
			in.AdvancePaid += p.Amount
		}
	}
	if in.AdvancePaid*100 < tax*defaultPaidBelowPercent {
		in.DefaultApplies = true
		in.Periods = defaultPeriods(fy, tax-in.AdvancePaid, in.Deferment, all)
		for _, p := range in.Periods {
			in.Default += p.Interest
		}
	}
	in.Total = in.Deferment + in.Default
	return in, nil
}

// deferment is one instalment's interest: its shortfall on the due date
// against the share of the tax due by then.
func deferment(s Instalment, tax int64, presumptive bool, payments []TaxPayment) InstalmentInterest {
	var by int64
	for _, p := range payments {
		if p.Kind == PaymentAdvance && p.PaidOn <= s.DueDate {
			by += p.Amount
		}
	}
	due := percentHalfUp(tax, s.PercentDue)
	out := InstalmentInterest{DueDate: s.DueDate, Shortfall: max(due-by, 0), Percent: defermentMarchPercent}
	month := dueMonth(s.DueDate)
	if !presumptive && month != time.March {
		out.Percent = defermentInstalmentPercent
		if floor, ok := safeHarbour[month]; ok && by*100 >= tax*floor {
			out.Percent = 0
		}
	}
	out.Base = floorHundredRupees(out.Shortfall)
	out.Interest = out.Base * out.Percent / 100
	return out
}

// defaultPeriods splits the time from 1 April after the year into stretches
// ended by each self-assessment payment: the shortfall runs until the month
// of a payment (a part of a month counting whole), then what is still short
// from the next month on, as the department's utility counts it, so no
// month is charged twice. A payment goes first to the interest accrued by
// its date (the deferment interest and the default interest so far) and
// only the rest to the tax (Explanation to s.140A(1); 2025 Act s.266(3)),
// so a payment made after interest accrued leaves more tax short.
func defaultPeriods(fy FY, shortfall, deferment int64, payments []TaxPayment) []DefaultPeriod {
	var after []TaxPayment
	for _, p := range payments {
		if p.Kind == PaymentSelfAssessment {
			after = append(after, p)
		}
	}
	sortPayments(after)
	start := time.Date(fy.StartYear+1, time.April, 1, 0, 0, 0, 0, time.UTC)
	interestOwed := deferment
	var out []DefaultPeriod
	for _, p := range after {
		if shortfall <= 0 {
			break
		}
		on, _ := time.Parse(time.DateOnly, p.PaidOn)
		months := monthsInclusive(start, on)
		if months > 0 {
			base := floorHundredRupees(shortfall)
			period := DefaultPeriod{From: start.Format(time.DateOnly), To: p.PaidOn, Months: months, Base: base,
				Interest: base * defaultMonthlyPercent * months / 100}
			out = append(out, period)
			interestOwed += period.Interest
			start = time.Date(on.Year(), on.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		}
		toInterest := min(p.Amount, interestOwed)
		interestOwed -= toInterest
		shortfall -= p.Amount - toInterest
	}
	return out
}

// monthsInclusive counts calendar months from start's month to end's,
// both counted; 0 when end is before start.
func monthsInclusive(start, end time.Time) int64 {
	if end.Before(start) {
		return 0
	}
	return int64((end.Year()-start.Year())*12 + int(end.Month()) - int(start.Month()) + 1)
}

func dueMonth(date string) time.Month {
	t, _ := time.Parse(time.DateOnly, date)
	return t.Month()
}

// floorHundredRupees rounds paise down to a multiple of ₹100 (rule 119A).
func floorHundredRupees(amount int64) int64 {
	const hundred = 100 * paisePerRupee
	if amount <= 0 {
		return 0
	}
	return amount / hundred * hundred
}

// fyLastDay is 31 March of the year, YYYY-MM-DD.
func fyLastDay(fy FY) string {
	return fmt.Sprintf("%04d-03-31", fy.StartYear+1)
}

func sortPayments(ps []TaxPayment) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].PaidOn < ps[j-1].PaidOn; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

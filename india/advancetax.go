package india

import (
	"fmt"
	"time"
)

// Instalment is one advance-tax due date. Amounts are paise.
type Instalment struct {
	DueDate    string // "YYYY-MM-DD", a date in India
	PercentDue int64  // cumulative share of the year's tax due by DueDate
	Amount     int64  // cumulative amount due by DueDate
	// Past: the due date has ended (IST) on the day the liability was
	// computed, so a shortfall against Amount already draws interest under
	// s.234C.
	Past bool
}

// advanceTaxMinimum: advance tax is payable only when the tax for the year
// is ₹10,000 or more (s.208 of the 1961 Act, s.404 of the 2025 Act); below it
// the whole tax is paid as self-assessment tax with the return.
// Sources: eztax.in ; aubsp.com (2025 Act section map).
const advanceTaxMinimum = 10_000 * paisePerRupee

// fourInstalments are the cumulative shares due by 15 June, 15 September,
// 15 December and 15 March of the financial year, s.211(1)(a) (2025 Act:
// s.408(1)). Sources: aaptaxlaw.com (text of s.211) ; taxtmi.com/acts?id=4068 ;
// cabkgoyal.com (s.408).
var fourInstalments = []struct {
	month   time.Month
	percent int64
}{
	{time.June, 15}, {time.September, 45}, {time.December, 75}, {time.March, 100},
}

// advanceTaxSchedule is the year's schedule for tax due (paise). A s.44ADA
// taxpayer pays it all on or before 15 March, s.211(1)(b) (2025 Act:
// s.408(2)); anyone computing income from books pays in four instalments.
// Below advanceTaxMinimum there is no schedule at all. An instalment is past
// once its due date has ended in IST on today; a zero today marks none past.
func advanceTaxSchedule(fy FY, due int64, presumptive bool, today time.Time) []Instalment {
	if due < advanceTaxMinimum {
		return nil
	}
	day := ""
	if !today.IsZero() {
		day = today.In(IST).Format(time.DateOnly)
	}
	var out []Instalment
	for _, in := range fourInstalments {
		if presumptive && in.percent != 100 {
			continue
		}
		year := fy.StartYear
		if in.month < time.April {
			year++
		}
		date := fmt.Sprintf("%04d-%02d-15", year, in.month)
		out = append(out, Instalment{
			DueDate:    date,
			PercentDue: in.percent,
			Amount:     percentHalfUp(due, in.percent),
			Past:       day != "" && day > date,
		})
	}
	return out
}

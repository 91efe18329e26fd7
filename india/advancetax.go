package india

import "fmt"

// Instalment is one advance-tax due date. Amounts are paise.
type Instalment struct {
	DueDate    string // "YYYY-MM-DD", a date in India
	PercentDue int64  // cumulative share of the year's tax due by DueDate
	Amount     int64  // cumulative amount due by DueDate
}

// advanceTaxSchedule44ADA is the schedule for a s.44ADA taxpayer: the whole
// amount on or before 15 March of the financial year, s.211(1)(b) (Act 2025:
// s.408(2)); payment by 31 March still counts as advance tax (s.211, s.408(3)).
// Sources: aaptaxlaw.com (text of s.211) ; taxtmi.com/acts?id=4068 ;
// cabkgoyal.com (s.408).
//
// It is produced even when the tax is nil or small: s.208 (no advance tax
// below ₹10,000 of tax) is not applied: no source for it was checked.
func advanceTaxSchedule44ADA(fy FY, due int64) []Instalment {
	return []Instalment{{
		DueDate:    fmt.Sprintf("%04d-03-15", fy.StartYear+1),
		PercentDue: 100,
		Amount:     due,
	}}
}

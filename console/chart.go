package console

import (
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// month is one bar of the receipts chart.
type month struct {
	Label string // "Apr"
	Name  string // "April 2026"
	Paise int64
	Count int64
	Width int // the bar's length, percent of the largest month's
}

// chart is the financial year's receipts by IST month: a list whose every
// row says its month and amount as text, beside a bar the server draws (no
// script), so the figures read the same at any width and need no hover.
type chart struct {
	Months []month
	Max    int64
}

// receiptsChart groups the year's reconciled receipts (the same tax_days the
// liability sums) by IST month. It only draws: the year's total shown beside
// it is the liability's gross receipts, the API's figure.
func receiptsChart(fy india.FY, days []store.TaxDay) chart {
	var ch chart
	start := fy.Start().In(india.IST)
	index := map[string]int{}
	for i := 0; i < 12; i++ {
		m := start.AddDate(0, i, 0)
		index[m.Format("2006-01")] = i
		ch.Months = append(ch.Months, month{Label: m.Format("Jan"), Name: m.Format("January 2006")})
	}
	for _, d := range days {
		if i, ok := index[d.Day[:7]]; ok {
			ch.Months[i].Paise += d.AmountINR
			ch.Months[i].Count += d.Count
		}
	}
	for _, m := range ch.Months {
		ch.Max = max(ch.Max, m.Paise)
	}
	for i := range ch.Months {
		m := &ch.Months[i]
		if ch.Max > 0 {
			m.Width = int(m.Paise * 100 / ch.Max)
		}
		if m.Paise > 0 && m.Width == 0 {
			m.Width = 1 // a receipt is never drawn as nothing
		}
	}
	return ch
}

// monthsSoFar are the GST months (YYYY-MM) of the year up to now.
func monthsSoFar(fy india.FY, now time.Time) []string {
	var out []string
	start, cur := fy.Start().In(india.IST), now.In(india.IST).Format("2006-01")
	for i := 0; i < 12; i++ {
		m := start.AddDate(0, i, 0).Format("2006-01")
		if m > cur {
			break
		}
		out = append(out, m)
	}
	return out
}

package console

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{inr(123456789), "₹12,34,567.89"},
		{inr(5), "₹0.05"},
		{inr(-100000), "−₹1,000.00"},
		{amount(123456789, "INR"), "₹12,34,567.89"},
		{amount(123456789, "USD"), "USD 1,234,567.89"},
		{amount(1500, "JPY"), "JPY 1,500"},
		{amount(1234567, "KWD"), "KWD 1,234.567"},
		{ist(time.Date(2027, 3, 31, 18, 45, 0, 0, time.UTC)), "1 Apr 2027, 00:15 IST"},
		{day("2027-03-15"), "15 Mar 2027"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestReceiptsChart: receipts fall in their IST month of the financial
// year, the tallest bar fills the chart, and a tiny month is still seen.
func TestReceiptsChart(t *testing.T) {
	is := is.New(t)
	fy := india.FY{StartYear: 2026}
	ch := receiptsChart(fy, []store.TaxDay{
		{Day: "2026-04-01", AmountINR: 100_000_00, Count: 2},
		{Day: "2026-04-30", AmountINR: 50_000_00, Count: 1},
		{Day: "2027-03-31", AmountINR: 1, Count: 1},
		{Day: "2027-04-01", AmountINR: 999, Count: 1}, // the next year: not drawn
	})
	is.Equal(len(ch.Months), 12)
	is.Equal(ch.Months[0].Label, "Apr")
	is.Equal(ch.Months[0].Paise, int64(150_000_00))
	is.Equal(ch.Months[0].Count, int64(3))
	is.Equal(ch.Months[0].Width, 100)
	is.Equal(ch.Months[11].Name, "March 2027")
	is.Equal(ch.Months[11].Width, 1)
	is.Equal(ch.Months[5].Width, 0)
	is.Equal(monthsSoFar(fy, time.Date(2026, 6, 30, 19, 0, 0, 0, time.UTC)), []string{"2026-04", "2026-05", "2026-06", "2026-07"})
}

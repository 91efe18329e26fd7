package taxes

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// InvoiceRequest is a validated request to issue an export invoice.
// Amounts are minor units of Currency; Rate is "" for the rate payoutd
// holds for the invoice date.
type InvoiceRequest struct {
	UserID    string
	Livemode  bool
	Date      string // YYYY-MM-DD, IST
	Currency  string
	Lines     []store.InvoiceLine
	Rate      string
	Recipient store.Party
	ClientID  string
}

// IssueInvoice numbers, values and writes an invoice in tx: the next number
// of the user's series for the date's financial year (r.46(b)); the INR
// value at the rule 34 rate of the invoice date (the rate given, else the
// latest payoutd holds on or before the date, else the configured table
// rate, and the invoice says which); under the year's LUT when the
// supplier is registered and has one (no IGST), else with IGST at 18%. The
// supplier is frozen from the profile, which must carry a name and address.
func IssueInvoice(tx *store.Tx, table rates.Table, q InvoiceRequest) (store.Invoice, error) {
	p, err := tx.People().ProfileInTx(q.UserID)
	if err != nil {
		return store.Invoice{}, err
	}
	if p.Name == "" || p.Address == "" {
		return store.Invoice{}, apperr.Errorf(apperr.ErrValidation,
			"an invoice names its supplier: set the profile's name and address (PATCH /profile) first")
	}
	day, _ := india.ParseDay(q.Date)
	fy := india.FYOf(day)
	inv := store.Invoice{UserID: q.UserID, Livemode: q.Livemode, FY: fy.String(), Date: q.Date, Currency: q.Currency, Lines: q.Lines,
		Recipient: q.Recipient, ClientID: q.ClientID,
		Supplier: store.Party{Name: p.Name, Address: p.Address, GSTIN: p.GSTIN, State: p.StateCode}}
	if s, ok := india.StateOfGSTIN(p.GSTIN); ok {
		inv.Supplier.State = s.Code
	}
	for _, l := range q.Lines {
		inv.Total += l.Amount
	}
	if inv.Seq, err = tx.Invoices().NextSeq(q.UserID, "invoice", inv.FY); err != nil {
		return store.Invoice{}, err
	}
	if inv.Seq > india.InvoiceSeriesMax {
		return store.Invoice{}, apperr.Errorf(apperr.ErrConflict, "the invoice series of %s is full (%d invoices)", inv.FY, india.InvoiceSeriesMax)
	}
	inv.Number = india.DocumentNumber("INV", fy, inv.Seq)
	if err := valueInvoice(tx, table, &inv, q.Rate); err != nil {
		return store.Invoice{}, err
	}
	recs, err := tx.Invoices().LUTsInTx(q.UserID)
	if err != nil {
		return store.Invoice{}, err
	}
	if lut, ok := lutsFrom(recs, p).For(fy); ok && p.GSTIN != "" && lut.Covers(q.Date) {
		inv.LUTARN = lut.ARN
	} else {
		inv.IGST = india.IGST(inv.ValueINR)
	}
	return tx.Invoices().InsertInvoice(inv)
}

// valueInvoice sets the rate and the INR value (r.34: the rate of the date
// of the time of supply).
func valueInvoice(tx *store.Tx, table rates.Table, inv *store.Invoice, given string) error {
	inv.Rate, inv.RateDate, inv.RateBasis = given, inv.Date, "given"
	if given == "" {
		rate, on, ok, err := tx.Invoices().RecordedRateOn(inv.Livemode, inv.Currency, inv.Date)
		if err != nil {
			return err
		}
		inv.Rate, inv.RateDate, inv.RateBasis = rate, on, "recorded"
		if !ok {
			r, has := table[inv.Currency]
			if !has {
				return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
					Fields: map[string]string{"inrRate": "no INR rate of " + inv.Currency + " is held for the invoice date; give inrRate"}}
			}
			inv.Rate, inv.RateDate, inv.RateBasis = r.String(), india.DateOf(tx.Now()), "table"
		}
	}
	cur, _ := money.Lookup(inv.Currency)
	inr, _ := money.Lookup("INR")
	r, err := money.ParseRate(inv.Rate)
	if err != nil {
		return err
	}
	inv.ValueINR, err = money.ConvertChecked(inv.Total, cur, r, inr)
	return err
}

// CreditRequest is a validated request for a credit note against an
// invoice; Amount is in the invoice currency's minor units, 0 for all of
// what it still holds (a cancellation).
type CreditRequest struct {
	UserID, InvoiceID string
	Livemode          bool
	Date              string
	Amount            int64
	Reason            string
}

// CreditInvoice numbers and writes a credit note (r.53) in tx: its value
// and IGST are the invoice's in proportion, half-up to the paisa.
func CreditInvoice(tx *store.Tx, q CreditRequest) (store.CreditNote, error) {
	inv, err := tx.Invoices().InvoiceInTx(q.UserID, q.InvoiceID)
	if err != nil {
		return store.CreditNote{}, err
	}
	if q.Date < inv.Date {
		return store.CreditNote{}, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"date": "must not be before the invoice's date (" + inv.Date + ")"}}
	}
	amount := q.Amount
	if amount == 0 {
		amount = inv.Total - inv.Credited
	}
	day, _ := india.ParseDay(q.Date)
	fy := india.FYOf(day)
	c := store.CreditNote{InvoiceID: inv.ID, UserID: q.UserID, Livemode: q.Livemode, FY: fy.String(), Date: q.Date, Amount: amount,
		Reason: q.Reason}
	if inv.Total > 0 {
		c.ValueINR = (inv.ValueINR*amount + inv.Total/2) / inv.Total
		c.IGST = (inv.IGST*amount + inv.Total/2) / inv.Total
	}
	if c.Seq, err = tx.Invoices().NextSeq(q.UserID, "credit_note", c.FY); err != nil {
		return store.CreditNote{}, err
	}
	c.Number = india.DocumentNumber("CN", fy, c.Seq)
	return tx.Invoices().InsertCreditNote(c)
}

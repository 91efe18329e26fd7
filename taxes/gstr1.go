package taxes

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// GSTR1 is a return period's exports as GSTR-1 reports them, read in one
// snapshot with the GSTR-3B figures of the same period: each payoutd
// invoice, and each receipt no payoutd invoice stands for (its invoice
// reference as the number), classified by the one classifier
// (india.SplitReceipts) so that table 6A less the credit notes is GSTR-3B
// 3.1(b) to the paisa. Exports before the supplier became liable are left
// out, as GSTR-3B leaves them. A period that is neither a month nor a
// quarter is refused (ERR_VALIDATION on period).
func GSTR1(ctx context.Context, db *store.DB, userID, period string) (documents.GSTR1, error) {
	start, end, fp, err := india.ParseReturnPeriod(period)
	if err != nil {
		return documents.GSTR1{}, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"period": "must be a month YYYY-MM, or a quarter YYYY-Qn for a QRMP filer (Q2 is April to June), e.g. 2026-10 or 2026-Q4"}}
	}
	var out documents.GSTR1
	err = db.Snapshot(ctx, func(s *store.Snapshot) error {
		g, err := gst(s, userID, start, end)
		if err != nil {
			return err
		}
		in := documents.GSTR1Input{Period: period, FP: fp, GSTIN: g.Profile.GSTIN, GeneratedAt: s.Now(),
			Registration: RegistrationView(g.Registration), GSTR3BTaxable: g.Split.ZeroRated.AmountINR + g.Split.Liable.AmountINR}
		registered := g.Registration.Registered
		if registered {
			in.GSTR3BIGST = g.Split.Liable.IGST
		}
		classify := func(d india.ReceiptDay) (keep, withTax bool, igst int64) {
			sp := india.SplitReceipts([]india.ReceiptDay{d}, g.LUTs, g.Registration)
			switch {
			case sp.Liable.AmountINR != 0 && registered:
				return true, true, sp.Liable.IGST
			case sp.Liable.AmountINR != 0 || sp.ZeroRated.AmountINR != 0:
				return true, false, 0
			}
			return false, false, 0
		}
		invs, err := s.Invoices(userID, g.From, g.To)
		if err != nil {
			return err
		}
		for _, inv := range invs {
			if keep, withTax, igst := classify(invoiceSupply(inv)); keep {
				in.Docs = append(in.Docs, documents.GSTR1Doc{Number: inv.Number, Date: inv.Date, Taxable: inv.ValueINR, IGST: igst, WithTax: withTax})
			}
		}
		receipts, err := s.ReceiptDocuments(userID, g.From, g.To)
		if err != nil {
			return err
		}
		for _, r := range receipts {
			if r.Linked || !r.CrossBorder {
				continue
			}
			d := india.ReceiptDay{Day: r.Day, CrossBorder: true, Count: 1, AmountINR: r.ValueINR, IGST: india.IGST(r.ValueINR)}
			if keep, withTax, igst := classify(d); keep {
				number := r.InvoiceRef
				if number == "" {
					number = r.PaymentID
				}
				in.Docs = append(in.Docs, documents.GSTR1Doc{Number: number, Date: r.Day, Taxable: r.ValueINR, IGST: igst, WithTax: withTax})
			}
		}
		notes, err := s.CreditNotes(userID, g.From, g.To)
		if err != nil {
			return err
		}
		for _, c := range notes {
			if keep, withTax, igst := classify(creditSupply(c)); keep {
				in.Notes = append(in.Notes, documents.GSTR1Note{Number: c.Number, Date: c.Date, Taxable: c.ValueINR, IGST: -igst, WithTax: withTax})
			}
		}
		out = documents.BuildGSTR1(in)
		return nil
	})
	return out, err
}

package taxes

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// ErrITR4NotApplicable: the year's receipts are above the s.44ADA limit, so
// ITR-4 is not the return to file (the message says why and what applies
// instead).
const ErrITR4NotApplicable = "ERR_ITR4_NOT_APPLICABLE"

// ITR4 is the year's liability, refused with ErrITR4NotApplicable when
// ITR-4 is not the right return, and the input the prefill and the file are
// built from: the liability's figures carried into the return unchanged,
// so the file agrees with GET /tax/liability to the rupee.
func ITR4(ctx context.Context, db *store.DB, userID string, fy india.FY) (india.Liability, store.TaxTotals, documents.ITR4Input, error) {
	l, t, err := Liability(ctx, db, userID, fy)
	if err != nil {
		return l, t, documents.ITR4Input{}, err
	}
	if !l.Presumptive {
		return l, t, documents.ITR4Input{}, &apperr.Error{Code: ErrITR4NotApplicable, Message: l.PresumptiveUnavailable()}
	}
	prof, err := Profile(ctx, db, userID)
	if err != nil {
		return l, t, documents.ITR4Input{}, err
	}
	tp, challans, err := Paid(ctx, db, userID, l)
	if err != nil {
		return l, t, documents.ITR4Input{}, err
	}
	return l, t, documents.ITR4Input{
		FY: fy.String(), Name: prof.Name, PAN: prof.PAN, Email: prof.Email, Phone: prof.Phone,
		GrossReceipts: l.GrossReceipts, PresumptiveIncome: l.PresumptiveIncome, TaxableIncome: l.TaxableIncome,
		TaxOnIncome: l.TaxOnIncome, Rebate87A: l.Rebate87A, Surcharge: l.Surcharge, Cess: l.Cess, TaxDue: l.EstimatedTaxDue,
		TransactionCount: int(t.All.Count), GeneratedAt: db.Now(), Provisional: l.ProvisionalNote(),
		TaxesPaid: TaxesPaid(tp, challans),
	}, nil
}

// TaxesPaid is the export's input for TaxPaid and Schedule IT: the
// liability's figures and the challans behind them.
func TaxesPaid(tp india.TaxPaid, ps []store.TaxPayment) *documents.ITR4TaxesPaid {
	out := &documents.ITR4TaxesPaid{Advance: tp.Advance, SelfAssessment: tp.SelfAssessment, BalanceDue: tp.BalanceDue, RefundDue: tp.RefundDue,
		Challans: make([]documents.ITR4Challan, 0, len(ps))}
	for _, p := range ps {
		out.Challans = append(out.Challans, documents.ITR4Challan{BSRCode: p.BSRCode, PaidOn: p.PaidOn, Serial: p.ChallanSerial, Amount: p.Amount})
	}
	return out
}

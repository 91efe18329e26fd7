package taxes

import (
	"context"
	"github.com/payoutd/payoutd/apperr"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// ErrITR4NotApplicable is the code of the answer for a year above the
// presumptive limit: ITR-4 is not the return to file (409).
const ErrITR4NotApplicable = "ERR_ITR4_NOT_APPLICABLE"

// ITR4 is a year's ITR-4 position: the figures it is built from and the
// input of the file and its notes, read in one snapshot.
type ITR4 struct {
	Year  Year
	Input documents.ITR4Input
}

// ITR4Of reads the year's figures and the profile in one snapshot and
// carries the liability's figures into the return unchanged, so the file
// agrees with the liability to the rupee. A year above the presumptive
// limit is a *apperr.Error ErrITR4NotApplicable whose message says why.
func ITR4Of(ctx context.Context, db *store.DB, userID string, fy india.FY, payOn string) (ITR4, error) {
	var out ITR4
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		in, err := year(s, userID, fy, payOn)
		if err != nil {
			return err
		}
		if !in.Liability.Presumptive {
			return &apperr.Error{Code: ErrITR4NotApplicable, Message: in.Liability.PresumptiveUnavailable()}
		}
		prof, err := s.Profile(userID)
		if err != nil {
			return err
		}
		out = ITR4{Year: in, Input: itr4Input(in, prof)}
		out.Input.GeneratedAt = s.Now()
		return nil
	})
	return out, err
}

func itr4Input(in Year, prof store.Profile) documents.ITR4Input {
	l, pos := in.Liability, india.Position{Interest: in.Interest, Paid: in.Paid}
	tp := &documents.ITR4TaxesPaid{Advance: pos.Paid.Advance, SelfAssessment: pos.Paid.SelfAssessment,
		BalanceDue: pos.Paid.BalanceDue, RefundDue: pos.Paid.RefundDue, Challans: make([]documents.ITR4Challan, 0, len(in.Challans))}
	for _, p := range in.Challans {
		tp.Challans = append(tp.Challans, documents.ITR4Challan{BSRCode: p.BSRCode, PaidOn: p.PaidOn, Serial: p.ChallanSerial, Amount: p.Amount})
	}
	return documents.ITR4Input{
		FY: in.FY.String(), Name: prof.Name, PAN: prof.PAN, Email: prof.Email, Phone: prof.Phone,
		GrossReceipts: l.GrossReceipts, PresumptiveIncome: l.PresumptiveIncome, TaxableIncome: l.TaxableIncome,
		TaxOnIncome: l.TaxOnIncome, Rebate87A: l.Rebate87A, Surcharge: l.Surcharge, Cess: l.Cess, TaxDue: l.EstimatedTaxDue,
		TransactionCount: int(in.Totals.All.Count), Provisional: l.ProvisionalNote(),
		TaxesPaid: tp, Interest: &documents.ITR4Interest{Default: pos.Interest.Default, Deferment: pos.Interest.Deferment},
	}
}

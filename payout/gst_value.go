package payout

import (
	"fmt"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Reconcile records p's reconciliation with its GST value, taken at the
// rate of its time of supply (india.ValueForGST) from the settlement's
// rate time and the rate history the store holds.
func Reconcile(tx *store.Tx, p store.Payment) (store.Reconciliation, error) {
	v, settlement, err := gstValue(tx, p)
	if err != nil {
		return store.Reconciliation{}, err
	}
	return tx.Ledger().Reconcile(p, v, settlement)
}

// gstValue values settled p for GST, and answers the settlement's rate
// for the rate history.
func gstValue(tx *store.Tx, p store.Payment) (store.GSTValue, store.Rate, error) {
	if p.SettledAt == nil || p.AmountINR == nil {
		return store.GSTValue{}, store.Rate{}, fmt.Errorf("payment %s has no settled INR value to value for GST", p.ID)
	}
	r := india.GSTReceipt{Currency: p.Currency, Amount: p.Amount, InvoiceAmount: p.InvoiceAmount, InvoiceDate: p.InvoiceDate,
		AmountINR: *p.AmountINR, SettlementRate: p.SettlementRate, SettledAt: *p.SettledAt, RateAsOf: *p.SettledAt}
	if at, ok, err := tx.Tax().SettlementRateAsOf(p.ID); err != nil {
		return store.GSTValue{}, store.Rate{}, err
	} else if ok {
		r.RateAsOf = at
	}
	var recorded *india.GSTRate
	if day, lookup := india.GSTSupplyDay(p.InvoiceDate, *p.SettledAt); lookup {
		rate, at, ok, err := tx.Tax().RateOn(p.Livemode, p.Currency, day)
		if err != nil {
			return store.GSTValue{}, store.Rate{}, err
		}
		if ok {
			recorded = &india.GSTRate{Rate: rate, AsOf: at}
		}
	}
	val, err := india.ValueForGST(r, recorded)
	if err != nil {
		return store.GSTValue{}, store.Rate{}, fmt.Errorf("GST value of %s: %w", p.ID, err)
	}
	return store.GSTValue{PaymentID: p.ID, CrossBorder: p.CrossBorder(), InvoiceDate: p.InvoiceDate, Day: val.Day,
			Currency: p.Currency, InvoiceAmount: val.InvoiceAmount, Rate: val.Rate, RateAsOf: val.RateAsOf,
			RateDate: val.RateDate, RateBasis: val.RateBasis, ValueINR: val.ValueINR},
		store.Rate{Currency: p.Currency, Rate: val.Settlement.Rate, AsOf: val.Settlement.AsOf}, nil
}

package taxes

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// CollectsInvoice applies a payout's invoiceId (the API's initiate, the
// console's New payout): the invoice must be the
// payout's user's, in its currency and not cancelled; its number becomes
// invoiceRef (one given must be the same) and its date invoiceDate. The
// caller links the payout to it once initiated (tx.LinkPayment).
func CollectsInvoice(tx *store.Tx, p store.Payment, invoiceID string) (store.Payment, *store.Invoice, error) {
	if invoiceID == "" {
		return p, nil, nil
	}
	inv, err := tx.Invoices().InvoiceInTx(p.UserID, invoiceID)
	if err != nil {
		return p, nil, invalid("invoiceId", "is not one of your invoices")
	}
	switch {
	case inv.Currency != p.Currency:
		return p, nil, invalid("invoiceId", "invoice "+inv.Number+" is in "+inv.Currency+"; the payout must be in the same currency")
	case inv.Cancelled():
		return p, nil, invalid("invoiceId", "invoice "+inv.Number+" is cancelled by credit notes")
	case p.InvoiceRef != "" && p.InvoiceRef != inv.Number:
		return p, nil, invalid("invoiceRef", "must be "+inv.Number+", the number of invoiceId, or be left out")
	}
	p.InvoiceRef = inv.Number
	if p.InvoiceDate == "" {
		p.InvoiceDate = inv.Date
	}
	return p, &inv, nil
}

// invalid is the validation error of one field, as package input words it.
func invalid(field, msg string) error {
	return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{field: msg}}
}

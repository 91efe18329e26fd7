package taxes

import (
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// InvoiceDocument is the invoice as its PDF prints it.
func InvoiceDocument(i store.Invoice) documents.Invoice {
	cur, _ := money.Lookup(i.Currency)
	d := documents.Invoice{ID: i.ID, Number: i.Number, Date: i.Date, Livemode: i.Livemode, Currency: i.Currency, Exponent: cur.Exponent,
		Total: i.Total, Rate: i.Rate, RateDate: i.RateDate, ValueINR: i.ValueINR, IGST: i.IGST, LUTARN: i.LUTARN, Credited: i.Credited,
		IssuedAt:  i.CreatedAt,
		Supplier:  documents.InvoiceParty{Name: i.Supplier.Name, Address: i.Supplier.Address, GSTIN: i.Supplier.GSTIN, State: i.Supplier.State},
		Recipient: documents.InvoiceParty{Name: i.Recipient.Name, Address: i.Recipient.Address, Country: i.Recipient.Country}}
	for _, l := range i.Lines {
		d.Lines = append(d.Lines, documents.InvoiceLine{Description: l.Description, SAC: l.SAC, Amount: l.Amount})
	}
	return d
}

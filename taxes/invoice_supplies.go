package taxes

import (
	"sort"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// supplies turns the year's receipt days into its supplies: an invoice
// issued in payoutd is the supply (on its date, at its rule 34 value), so
// the receipts that collect one are taken back out, and each credit note
// reverses part of its invoice in the credit note's own month. The result
// is in day order, as the registration test needs.
func supplies(s *store.Snapshot, userID, fromDay, toDay string, receipts []india.ReceiptDay) ([]india.ReceiptDay, error) {
	linked, err := s.LinkedReceipts(userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	invs, err := s.Invoices(userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	notes, err := s.CreditNotes(userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	if len(linked)+len(invs)+len(notes) == 0 {
		return receipts, nil
	}
	out := append([]india.ReceiptDay(nil), receipts...)
	for _, d := range linked {
		by := int64(0)
		if d.ByInvoice {
			by = 1
		}
		out = append(out, india.ReceiptDay{Day: d.Day, CrossBorder: d.CrossBorder, Count: -1, AmountINR: -d.ValueINR,
			IGST: -india.IGST(d.ValueINR), ByInvoice: -by})
	}
	for _, inv := range invs {
		out = append(out, invoiceSupply(inv))
	}
	for _, c := range notes {
		out = append(out, creditSupply(c))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Day < out[j].Day })
	return out, nil
}

// invoiceSupply is an invoice as a supply of its date: an export, placed
// by its invoice date.
func invoiceSupply(inv store.Invoice) india.ReceiptDay {
	return india.ReceiptDay{Day: inv.Date, CrossBorder: true, Count: 1, AmountINR: inv.ValueINR, IGST: india.IGST(inv.ValueINR), ByInvoice: 1}
}

// creditSupply is a credit note as the reversal, in its own month, of
// part of its invoice's supply.
func creditSupply(c store.CreditNote) india.ReceiptDay {
	return india.ReceiptDay{Day: c.Date, SupplyDay: c.Invoice.Date, CrossBorder: true, AmountINR: -c.ValueINR, IGST: -india.IGST(c.ValueINR)}
}

package documents

import (
	"bytes"
	"fmt"

	"github.com/payoutd/payoutd/india"
)

// invoiceFooter says what the document is and is not.
const invoiceFooter = "Export invoice issued with payoutd from the supplier's records (CGST Rules r.46). " +
	"Place of supply outside India: an export of services (IGST Act s.2(6), s.13), zero-rated under s.16. " +
	"Values in INR are at the exchange rate of the invoice date (CGST Rules r.34)."

// RenderInvoice draws the invoice as an A4 PDF, one page where it fits, in
// the FIRA's layout and fonts, every rule 46 field in it: the supplier's
// name, address and GSTIN; the number and date; the recipient's name,
// address and country; the place of supply; each service with its SAC;
// the value in the invoice currency and in INR at the rate of its date;
// the LUT endorsement and ARN, or the IGST; the signature line. The bytes
// depend only on inv.
func RenderInvoice(inv Invoice) ([]byte, error) {
	if inv.ID == "" || inv.Number == "" || inv.IssuedAt.IsZero() {
		return nil, errInvoiceIncomplete
	}
	d := newDoc(docMeta{at: inv.IssuedAt, title: "Invoice " + inv.Number, author: inv.Supplier.Name, footer: invoiceFooter})
	d.invoiceHeader(inv)
	if !inv.Livemode {
		d.sandboxBanner()
	}
	d.invoiceEndorsement(inv)
	sections := invoiceSections(inv)
	d.scale = d.fit(sections)
	for _, s := range sections {
		d.section(s)
	}
	d.signature(inv)
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("documents: render invoice %s: %w", inv.Number, err)
	}
	return buf.Bytes(), nil
}

func (d *pdfDoc) invoiceHeader(inv Invoice) {
	title := "Tax Invoice (export of services)"
	d.font("B", 18, colAccent)
	d.text(margin, margin, contentW, 9, title, "L")
	d.font("", 9, colMuted)
	d.text(margin, margin+9, contentW, 5, inv.Supplier.Name+" · GSTIN "+orDash(inv.Supplier.GSTIN), "L")
	d.draw(colAccent)
	d.pdf.SetLineWidth(0.6)
	d.pdf.Line(margin, margin+16, margin+contentW, margin+16)
	d.headerFields(margin+18.5, [2][2]string{{"INVOICE NUMBER", inv.Number}, {"INVOICE DATE", invoiceDate(inv.Date)}})
}

// invoiceEndorsement is the LUT statement (or the IGST one), set apart so
// it is read first.
func (d *pdfDoc) invoiceEndorsement(inv Invoice) {
	text, sub := india.EndorsementLUT, "LUT ARN "+inv.LUTARN
	if inv.LUTARN == "" {
		text, sub = india.EndorsementIGST, fmt.Sprintf("IGST at %d%%: ₹%s", india.IGSTPercent, FormatINR(inv.IGST))
	}
	d.fill(colTint)
	d.pdf.Rect(margin, d.y, contentW, 12, "F")
	d.fill(colAccent)
	d.pdf.Rect(margin, d.y, 1.4, 12, "F")
	d.font("B", 8.5, colAccent)
	d.text(margin+5, d.y+1.8, contentW-8, 4.5, text, "L")
	d.font("", 8.5, colInk)
	d.text(margin+5, d.y+6.5, contentW-8, 4.5, sub, "L")
	d.y += 16
}

func invoiceSections(inv Invoice) []firaSection {
	amount := func(minor int64) string { return inv.Currency + " " + formatForeign(minor, inv.Exponent) }
	lines := make([]firaRow, 0, len(inv.Lines)+1)
	for _, l := range inv.Lines {
		lines = append(lines, firaRow{"SAC " + l.SAC, l.Description + " — " + amount(l.Amount), false})
	}
	lines = append(lines, firaRow{"Total", amount(inv.Total), true})
	values := []firaRow{
		{"Taxable value (INR)", "₹" + FormatINR(inv.ValueINR), true},
		{"Exchange rate", fmt.Sprintf("₹%s per %s, of %s (CGST Rules r.34)", inv.Rate, inv.Currency, invoiceDate(inv.RateDate)), false},
		{"Integrated tax", fmt.Sprintf("%d%%: ₹%s", india.IGSTPercent, FormatINR(inv.IGST)), false},
		{"Invoice value (INR)", "₹" + FormatINR(inv.ValueINR+inv.IGST), true},
		{"In words", india.AmountInWordsINR(inv.ValueINR + inv.IGST), false},
	}
	if inv.LUTARN != "" {
		values[2].value = "Nil: " + india.EndorsementLUT + " (LUT ARN " + inv.LUTARN + ")"
	}
	if inv.Credited > 0 {
		values = append(values, firaRow{"Credited", amount(inv.Credited) + " by credit notes (CGST Rules r.53)", false})
	}
	return []firaSection{
		{"Supplier", []firaRow{
			{"Name", inv.Supplier.Name, true},
			{"Address", inv.Supplier.Address, false},
			{"GSTIN", inv.Supplier.GSTIN, false},
			{"State", stateName(inv.Supplier.State), false},
		}},
		{"Recipient", []firaRow{
			{"Name", inv.Recipient.Name, true},
			{"Address", inv.Recipient.Address, false},
			{"Country", countryName(inv.Recipient.Country), false},
			{"Place of supply", india.PlaceOfSupplyExport, false},
		}},
		{"Services", lines},
		{"Value", values},
	}
}

// signature closes the invoice with the supplier's signature line (r.46(q)).
func (d *pdfDoc) signature(inv Invoice) {
	d.ensure(18)
	d.y += 8
	d.font("", 8.5, colInk)
	d.text(margin+contentW-80, d.y, 80, 4.5, "For "+inv.Supplier.Name, "R")
	d.draw(colRule)
	d.pdf.SetLineWidth(0.3)
	d.pdf.Line(margin+contentW-70, d.y+12, margin+contentW, d.y+12)
	d.font("", 7.5, colMuted)
	d.text(margin+contentW-80, d.y+13, 80, 4, "Signature or digital signature of the supplier", "R")
	d.y += 18
}

func orDash(s string) string {
	if s == "" {
		return firaDash
	}
	return s
}

func invoiceDate(day string) string {
	t, err := india.ParseDay(day)
	if err != nil {
		return day
	}
	return t.Format("2 January 2006")
}

func stateName(code string) string {
	if s, ok := india.StateOf(code); ok {
		return s.Name + " (" + s.Code + ")"
	}
	return code
}

func countryName(code string) string {
	if n := india.CountryName(code); n != "" && n != code {
		return n + " (" + code + ")"
	}
	return code
}

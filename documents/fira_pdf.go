package documents

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// firaFooter is the disclaimer every advice carries: the advice is payoutd's
// own, and only the bank's e-FIRA is the legal record.
const firaFooter = "This is payoutd's own advice of the inward remittance described above, " +
	"produced from its settlement records; it is not issued by a bank. The e-FIRA issued " +
	"by the AD (Authorised Dealer) bank that received the funds remains the legal record " +
	"of this remittance. Dates are Indian Standard Time (IST); the settlement date decides " +
	"the financial year and, without an invoice date, the GST month."

// RenderFIRA draws the advice as a one-page A4 PDF: when long values would
// push the table past the footer, the table is set smaller until it fits. The bytes depend only on
// f: the document dates are GeneratedAt, resources are written in sorted
// order and page streams are left uncompressed, so the same FIRA always
// renders to the same file and can be re-generated instead of stored.
func RenderFIRA(f FIRA) ([]byte, error) {
	if f.ID == "" || f.GeneratedAt.IsZero() {
		return nil, errFIRAIncomplete
	}
	d := newDoc(docMeta{at: f.GeneratedAt, title: "Foreign Inward Remittance Advice " + f.ID,
		subject: "Inward remittance for payment " + f.PaymentID, author: "payoutd", footer: firaFooter})
	d.header(f)
	if !f.Livemode {
		d.sandboxBanner()
	}
	d.summary(f)
	sections := firaSections(f)
	d.scale = d.fit(sections)
	for _, s := range sections {
		d.section(s)
	}

	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("documents: render FIRA %s: %w", f.ID, err)
	}
	return buf.Bytes(), nil
}

// firaScales are the table sizes tried, largest first; the last is the
// smallest the advice is ever set in (about 4.5 pt text), which the longest
// values every field accepts still fit at.
var firaScales = []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5}

// fit returns the largest scale at which the sections end above the footer.
func (d *pdfDoc) fit(sections []firaSection) float64 {
	for _, sc := range firaScales {
		h := 0.0
		for _, s := range sections {
			h += d.sectionHeight(s, sc)
		}
		if d.y+h <= tableBottom {
			return sc
		}
	}
	return firaScales[len(firaScales)-1]
}

func (d *pdfDoc) sectionHeight(s firaSection, sc float64) float64 {
	h := (bandH + sectionGap) * sc
	for _, r := range s.rows {
		h += d.rowHeight(r, sc)
	}
	return h
}

// rowHeight is the height of r's wrapped value at scale sc.
func (d *pdfDoc) rowHeight(r firaRow, sc float64) float64 {
	return float64(len(d.rowLines(r, sc)))*lineH*sc + 2*cellPad*sc
}

func (d *pdfDoc) rowLines(r firaRow, sc float64) []string {
	value := clean(r.value)
	if value == "" {
		value = firaDash
	}
	style := ""
	if r.strong {
		style = "B"
	}
	d.pdf.SetFont(fontFamily, style, 9*sc)
	return d.pdf.SplitText(value, contentW-labelW-2*cellPad)
}

func (d *pdfDoc) header(f FIRA) {
	d.font("B", 18, colAccent)
	d.text(margin, margin, contentW, 9, "Foreign Inward Remittance Advice", "L")
	d.font("", 9, colMuted)
	d.text(margin, margin+9, contentW, 5, "payoutd · advice of a cross-border receipt credited in INR", "L")
	d.font("", 7, colMuted)
	d.pdf.SetXY(margin, margin+14)
	d.pdf.MultiCell(contentW, 3.2, FIRAIssuer, "", "L", false)

	d.draw(colAccent)
	d.pdf.SetLineWidth(0.6)
	d.pdf.Line(margin, margin+21.5, margin+contentW, margin+21.5)

	d.headerFields(margin+24, [2][2]string{{"FIRA NUMBER", f.ID}, {"SETTLEMENT DATE (IST)", firaDate(f.SettledAt)}})
}

// summary repeats the two figures people look for first, large, above the
// detailed table.
func (d *pdfDoc) summary(f FIRA) {
	const h = 22.0
	d.fill(colTint)
	d.pdf.Rect(margin, d.y, contentW, h, "F")
	d.fill(colAccent)
	d.pdf.Rect(margin, d.y, 1.4, h, "F")

	// The two figures share the band; very large amounts are set smaller
	// rather than run into each other.
	credited, remitted := "₹"+FormatINR(f.AmountINR), clean(firaForeign(f))
	inrSize, fxSize := 21.0, 12.0
	for ; inrSize > 10; inrSize, fxSize = inrSize-1, max(fxSize-0.5, 8) {
		d.pdf.SetFont(fontFamily, "B", inrSize)
		w := d.pdf.GetStringWidth(credited)
		d.pdf.SetFont(fontFamily, "B", fxSize)
		if w+d.pdf.GetStringWidth(remitted)+6 <= contentW-12 {
			break
		}
	}
	d.font("", 7.5, colMuted)
	d.text(margin+6, d.y+3, 90, 4, "AMOUNT CREDITED", "L")
	d.font("B", inrSize, colAccent)
	d.text(margin+6, d.y+7.5, 100, 10, credited, "L")

	right := margin + contentW - 6 - 80
	d.font("", 7.5, colMuted)
	d.text(right, d.y+3, 80, 4, "AMOUNT REMITTED", "R")
	d.font("B", fxSize, colInk)
	d.text(right, d.y+7.7, 80, 6, remitted, "R")
	if rate := firaRate(f); rate != "" {
		d.font("", 8.5, colMuted)
		d.text(right, d.y+14, 80, 4.5, "at "+rate, "R")
	}
	d.y += h + 5
}

// Section geometry at scale 1, in millimetres.
const (
	bandH      = 6.5
	sectionGap = 3.0
)

// section draws a titled band followed by its label/value rows.
func (d *pdfDoc) section(s firaSection) {
	sc := d.scale
	d.ensure((bandH + lineH + 2*cellPad) * sc)
	d.fill(colTint)
	d.pdf.Rect(margin, d.y, contentW, bandH*sc, "F")
	d.font("B", 8.5*sc, colAccent)
	d.text(margin+3, d.y+sc, contentW-6, (bandH-2)*sc, strings.ToUpper(s.title), "L")
	d.y += bandH * sc
	for _, r := range s.rows {
		d.row(r)
	}
	d.y += sectionGap * sc
}

// row wraps the value to the column, so long bank names or purpose texts
// grow the row instead of running off the page.
func (d *pdfDoc) row(r firaRow) {
	sc := d.scale
	style := ""
	if r.strong {
		style = "B"
	}
	lines := d.rowLines(r, sc)
	h := d.rowHeight(r, sc)
	d.ensure(h)

	d.font("", 8.5*sc, colMuted)
	d.text(margin+3, d.y+cellPad*sc, labelW-3, lineH*sc, r.label, "L")
	d.font(style, 9*sc, colInk)
	for i, l := range lines {
		d.text(margin+labelW, d.y+(cellPad+float64(i)*lineH)*sc, contentW-labelW, lineH*sc, l, "L")
	}
	d.y += h
	d.draw(colRule)
	d.pdf.SetLineWidth(0.2)
	d.pdf.Line(margin, d.y, margin+contentW, d.y)
}

// maxFieldRunes bounds one value so a single field cannot outgrow a page.
const maxFieldRunes = 300

// clean makes caller text safe for the embedded font: control characters
// become spaces, and runes outside the Basic Multilingual Plane, which the
// PDF writer's width tables cannot index, become "?".
func clean(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxFieldRunes {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError, r > 0xFFFF:
			r = '?'
		case unicode.IsControl(r), unicode.IsSpace(r):
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

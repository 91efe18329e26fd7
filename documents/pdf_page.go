package documents

// The page every PDF document is drawn on (the FIRA, the invoice): its
// geometry, colours, set-up and the drawing helpers they share.

import (
	"bytes"
	"time"

	"github.com/jung-kurt/gofpdf"
)

// Page geometry in millimetres (A4 portrait).
const (
	pageW       = 210.0
	pageH       = 297.0
	margin      = 16.0
	contentW    = pageW - 2*margin
	labelW      = 50.0
	footerTop   = pageH - margin - 12
	tableBottom = footerTop - 3 // rows that would pass this start a new page
	lineH       = 4.3
	cellPad     = 1.6
)

type rgb struct{ r, g, b int }

var (
	colInk    = rgb{33, 37, 41}
	colMuted  = rgb{96, 104, 114}
	colAccent = rgb{22, 58, 99}
	colRule   = rgb{214, 219, 225}
	colTint   = rgb{241, 245, 250}
	colWarnBg = rgb{255, 243, 205}
	colWarnFg = rgb{133, 77, 14}
)

// pdfDoc is one document being drawn, with its drawing helpers; y is where
// the next block starts and scale sizes the FIRA's table (fonts, line
// heights and padding).
type pdfDoc struct {
	pdf   *gofpdf.Fpdf
	y     float64
	scale float64
}

func (d *pdfDoc) font(style string, size float64, c rgb) {
	d.pdf.SetFont(fontFamily, style, size)
	d.pdf.SetTextColor(c.r, c.g, c.b)
}

func (d *pdfDoc) text(x, y, w, h float64, s, align string) {
	d.pdf.SetXY(x, y)
	d.pdf.CellFormat(w, h, clean(s), "", 0, align, false, 0, "")
}

func (d *pdfDoc) fill(c rgb) { d.pdf.SetFillColor(c.r, c.g, c.b) }
func (d *pdfDoc) draw(c rgb) { d.pdf.SetDrawColor(c.r, c.g, c.b) }

// headerFields sets a document's two identifying fields side by side under
// its title, each a small label over its value.
func (d *pdfDoc) headerFields(top float64, fields [2][2]string) {
	for i, kv := range fields {
		x := margin + float64(i)*contentW/2
		d.font("", 7.5, colMuted)
		d.text(x, top, contentW/2, 4, kv[0], "L")
		d.font("B", 10.5, colInk)
		d.text(x, top+4.2, contentW/2, 5.5, kv[1], "L")
	}
	d.y = top + 13
}

// sandboxBanner marks test documents so one is never mistaken for evidence
// of money received.
func (d *pdfDoc) sandboxBanner() {
	d.fill(colWarnBg)
	d.draw(colWarnFg)
	d.pdf.SetLineWidth(0.4)
	d.pdf.Rect(margin, d.y, contentW, 12, "DF")
	d.font("B", 11, colWarnFg)
	d.text(margin+4, d.y+1.5, contentW-8, 5.5, "SANDBOX — not a real remittance", "L")
	d.font("", 8, colWarnFg)
	d.text(margin+4, d.y+6.5, contentW-8, 4.5,
		"Generated from a sandbox payment. No money moved; do not use it for accounting, GST or income tax.", "L")
	d.y += 16
}

// ensure starts a new page when h more millimetres would reach the footer;
// only pathological input (very long texts) ever gets there.
func (d *pdfDoc) ensure(h float64) {
	if d.y+h <= tableBottom {
		return
	}
	d.pdf.AddPage()
	d.y = margin
}

// docMeta is what a document's file says of itself, and its footer.
type docMeta struct {
	at                             time.Time
	title, subject, author, footer string
}

// newDoc starts an A4 document on its first page. The bytes depend only on
// m and what is drawn: the dates are m.at, resources are written in sorted
// order and page streams are left uncompressed.
func newDoc(m docMeta) *pdfDoc {
	pdf := gofpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(false)
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(m.at.UTC())
	pdf.SetModificationDate(m.at.UTC())
	pdf.SetTitle(m.title, true)
	if m.subject != "" {
		pdf.SetSubject(m.subject, true)
	}
	pdf.SetAuthor(m.author, true)
	pdf.SetCreator("payoutd", true)
	// The PDF writer pads the font's tables in place when it subsets them
	// (an append into the bytes it was given), so each document gets
	// copies: two renders at once would otherwise write the same bytes.
	pdf.AddUTF8FontFromBytes(fontFamily, "", bytes.Clone(dejaVuSans))
	pdf.AddUTF8FontFromBytes(fontFamily, "B", bytes.Clone(dejaVuSansBold))
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(false, 0)
	d := &pdfDoc{pdf: pdf, scale: 1}
	pdf.SetFooterFunc(func() { d.footer(m.footer) })
	pdf.AddPage()
	return d
}

func (d *pdfDoc) footer(text string) {
	d.draw(colRule)
	d.pdf.SetLineWidth(0.3)
	d.pdf.Line(margin, footerTop, margin+contentW, footerTop)
	d.font("", 7.5, colMuted)
	d.pdf.SetXY(margin, footerTop+2)
	d.pdf.MultiCell(contentW, 3.6, text, "", "L", false)
}

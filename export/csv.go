// Package export writes what a user's lists show as files for an
// accountant: CSV of payouts, FIRAs and tax payments (RFC 4180, UTF-8 with
// a byte-order mark so spreadsheets read ₹, amounts as plain decimals,
// times in IST) and a ZIP of a period's FIRA PDFs. Every export is
// streamed: rows are read a page at a time with the list's cursor and
// written as they come, so its memory does not grow with the books. The
// API and the console serve the same bytes.
package export

import (
	"encoding/csv"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/wire"
)

// Flushing is w with a Flush that passes what is written on to the
// client, through any middleware wrapping the response.
func Flushing(w http.ResponseWriter) io.Writer {
	return flushWriter{w, http.NewResponseController(w)}
}

type flushWriter struct {
	io.Writer
	rc *http.ResponseController
}

func (f flushWriter) Flush() { f.rc.Flush() }

// chunk is how many rows one read brings.
const chunk = 500

// bom makes spreadsheet programs read the file as UTF-8.
const bom = "\ufeff"

// table writes rows of one export and flushes them, a chunk at a time, to
// a writer that can pass them on (an HTTP response).
type table struct {
	out io.Writer
	cw  *csv.Writer
}

func newTable(w io.Writer, header ...string) (*table, error) {
	if _, err := io.WriteString(w, bom); err != nil {
		return nil, err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	t := &table{out: w, cw: cw}
	return t, cw.Write(header)
}

func (t *table) row(cells ...string) error { return t.cw.Write(cells) }

// flush sends what is written so far on its way.
func (t *table) flush() error {
	t.cw.Flush()
	if f, ok := t.out.(interface{ Flush() }); ok {
		f.Flush()
	}
	return t.cw.Error()
}

// text is a cell of free text. One that a spreadsheet would take for a
// formula (=, +, -, @ first) is led by an apostrophe, so opening the file
// runs nothing a client's name smuggled in.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// decimal writes minor units as a plain decimal of the currency: 450.13,
// 1500 for JPY.
func decimal(minor int64, currency string) string { return string(wire.Amount(minor, currency)) }

// istTime writes an instant as IST wall-clock time, "" for none.
func istTime(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.In(india.IST).Format(time.DateTime)
}

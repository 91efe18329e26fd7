package server_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// readCSV checks an export's framing (UTF-8 byte-order mark, CRLF) and
// parses it: the header row and the rows.
func readCSV(t *testing.T, r resp) ([]string, [][]string) {
	t.Helper()
	is := is.New(t)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("Content-Type"), "text/csv; charset=utf-8")
	is.True(strings.HasPrefix(r.Header.Get("Content-Disposition"), `attachment; filename="`))
	body, ok := bytes.CutPrefix(r.Body, []byte("\ufeff"))
	is.True(ok)
	is.True(bytes.HasSuffix(body, []byte("\r\n")))
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	is.NoErr(err)
	return rows[0], rows[1:]
}

func column(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	return -1
}

// TestExports: the payouts CSV has one row per payout the list counts,
// amounts as the list gives them and a formula typed as a client's name
// kept inert; the FIRA CSV and ZIP of the year hold every FIRA of it (the
// ZIP the same PDF bytes as each download), and another quarter's none;
// a bad year is the documented 400.
func TestExports(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e, _, _, _, _, _ := firaEnv(t)
	e.pay("12.00", map[string]any{"counterpartyName": "=HYPERLINK(\"http://evil\")", "invoiceRef": "+INV"})
	e.quiesce()

	list := e.getExact("/api/v1/payments?limit=100")
	header, rows := readCSV(t, e.req("GET", "/api/v1/exports/payments.csv", nil))
	is.Equal(header[:3], []string{"Payout", "Created (IST)", "Status"})
	is.Equal(at(list, "total"), itoa(len(rows)))
	amountOf := map[string]string{}
	for _, it := range list["items"].([]any) {
		p := it
		amountOf[at(p, "id")] = at(p, "amount")
	}
	client := column(header, "Client")
	for _, row := range rows {
		is.Equal(row[column(header, "Amount")], amountOf[row[0]])
		if strings.Contains(row[client], "HYPERLINK") {
			is.Equal(row[client], `'=HYPERLINK("http://evil")`)
			is.Equal(row[column(header, "Invoice")], "'+INV")
		}
	}

	firas := e.getExact("/api/v1/compliance/fira?limit=100")
	_, frows := readCSV(t, e.req("GET", "/api/v1/exports/firas.csv?fy=2026-27", nil))
	is.Equal(at(firas, "total"), itoa(len(frows)))
	_, none := readCSV(t, e.req("GET", "/api/v1/exports/firas.csv?fy=2026-27&quarter=2", nil))
	is.Equal(len(none), 0) // they settled in November: the third quarter
	_, q3 := readCSV(t, e.req("GET", "/api/v1/exports/firas.csv?fy=2026-27&quarter=3", nil))
	is.Equal(len(q3), len(frows))

	r := e.req("GET", "/api/v1/exports/firas.zip?fy=2026-27", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("Content-Type"), "application/zip")
	zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	is.NoErr(err)
	is.Equal(len(zr.File), len(frows))
	for _, row := range frows {
		pdf := e.req("GET", "/api/v1/compliance/fira/"+row[0]+"/pdf", nil)
		is.Equal(pdf.Status, http.StatusOK)
		f, err := zr.Open("FIRA-" + row[0] + ".pdf")
		is.NoErr(err)
		var got bytes.Buffer
		_, err = got.ReadFrom(f)
		is.NoErr(err)
		is.True(bytes.Equal(got.Bytes(), pdf.Body))
	}

	bad := e.req("GET", "/api/v1/exports/firas.zip?fy=26-27", nil)
	is.Equal(bad.Status, http.StatusBadRequest)
	is.True(bad.field(t, "fy") != "")
}

package console

import (
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/payoutd/payoutd/export"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

// handlePayoutsCSV downloads every payout the Payouts list's filters
// match, as the API's GET /exports/payments.csv writes them.
func (c *Console) handlePayoutsCSV(w http.ResponseWriter, r *http.Request, u user) {
	_, sf, fields := readPayoutFilter(r.URL.Query(), u.ID)
	if len(fields) > 0 {
		c.fail(w, r, input.Invalid(fields))
		return
	}
	c.stream(w, r, "text/csv; charset=utf-8", "payouts.csv", func(out io.Writer) error {
		return export.Payouts(r.Context(), out, c.db, sf)
	})
}

// firaPeriod reads the FIRAs page's year (this one when not given) and
// quarter (0: the whole year).
func (c *Console) firaPeriod(r *http.Request, u user) (store.FIRAFilter, india.FY, int, error) {
	q := r.URL.Query()
	fy := india.FYOf(c.db.Now())
	if v := q.Get("fy"); v != "" {
		var err error
		if fy, err = input.SupportedFY(v, c.db.Now()); err != nil {
			return store.FIRAFilter{}, fy, 0, input.FieldError("fy", err.Error())
		}
	}
	quarter := 0
	if v := q.Get("quarter"); v != "" {
		var err error
		if quarter, err = strconv.Atoi(v); err != nil || quarter < 1 || quarter > 4 {
			return store.FIRAFilter{}, fy, 0, input.FieldError("quarter", "must be 1, 2, 3 or 4 (April–June is 1)")
		}
	}
	from, to, _ := export.Period(fy, quarter) // quarter is 0 to 4 here
	return store.FIRAFilter{UserID: u.ID, SettledFrom: from, SettledTo: to}, fy, quarter, nil
}

// periodName names a period's files: FIRAs-2026-27 or FIRAs-2026-27-Q3.
func periodName(fy india.FY, quarter int) string {
	if quarter == 0 {
		return "FIRAs-" + fy.String()
	}
	return "FIRAs-" + fy.String() + "-Q" + strconv.Itoa(quarter)
}

func (c *Console) handleFIRAsCSV(w http.ResponseWriter, r *http.Request, u user) {
	f, fy, quarter, err := c.firaPeriod(r, u)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.stream(w, r, "text/csv; charset=utf-8", periodName(fy, quarter)+".csv", func(out io.Writer) error {
		return export.FIRAs(r.Context(), out, c.db, f)
	})
}

// handleFIRAsZip downloads every FIRA PDF of the year or quarter in one
// ZIP, as GET /exports/firas.zip.
func (c *Console) handleFIRAsZip(w http.ResponseWriter, r *http.Request, u user) {
	f, fy, quarter, err := c.firaPeriod(r, u)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.stream(w, r, "application/zip", periodName(fy, quarter)+".zip", func(out io.Writer) error {
		return export.FIRAZip(r.Context(), out, c.db, f)
	})
}

// handleTaxPaymentsCSV downloads the year's challans, as GET
// /exports/tax-payments.csv.
func (c *Console) handleTaxPaymentsCSV(w http.ResponseWriter, r *http.Request, u user) {
	fy, err := input.SupportedFY(r.URL.Query().Get("fy"), c.db.Now())
	if err != nil {
		c.fail(w, r, input.FieldError("fy", err.Error()))
		return
	}
	c.stream(w, r, "text/csv; charset=utf-8", "tax-payments-"+fy.String()+".csv", func(out io.Writer) error {
		return export.TaxPayments(r.Context(), out, c.db, store.TaxPaymentFilter{UserID: u.ID, FY: fy.String()})
	})
}

// stream answers with a file to save, written as it is read; a failure
// part-way cuts the response (see server's stream).
func (c *Console) stream(w http.ResponseWriter, r *http.Request, contentType, name string, write func(io.Writer) error) {
	headers(w)
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	if err := write(export.Flushing(w)); err != nil {
		c.log.ErrorContext(r.Context(), "console export", slog.String("requestId", c.cfg.RequestID(r)), slog.String("error", err.Error()))
		panic(http.ErrAbortHandler)
	}
}

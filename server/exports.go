package server

import (
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/payoutd/payoutd/export"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// exportRoutes registers the files for an accountant: what the lists hold,
// streamed as CSV, and a period's FIRA PDFs as one ZIP.
func (s *Server) exportRoutes() {
	s.api("GET /api/v1/exports/payments.csv", routeOpts{scope: "payments:read",
		query: []string{"status", "currency", "invoiceRef", "createdFrom", "createdTo", "q", "clientId", "sort"}}, s.handleExportPayments)
	s.api("GET /api/v1/exports/firas.csv", routeOpts{scope: "compliance:read", query: []string{"fy", "quarter", "clientId"}}, s.handleExportFIRAs)
	s.api("GET /api/v1/exports/firas.zip", routeOpts{scope: "compliance:read", query: []string{"fy", "quarter", "clientId"}}, s.handleExportFIRAZip)
	s.api("GET /api/v1/exports/tax-payments.csv", routeOpts{scope: "tax:read", query: []string{"fy"}}, s.handleExportTaxPayments)
}

func (s *Server) handleExportPayments(w http.ResponseWriter, c *call) error {
	q := c.r.URL.Query()
	f := store.PaymentFilter{UserID: c.p.UserID, Status: q.Get("status"), Currency: q.Get("currency"), InvoiceRef: q.Get("invoiceRef"),
		Search: q.Get("q"), ClientID: q.Get("clientId"), Sort: q.Get("sort")}
	if f.Status != "" && !slices.Contains(paymentStatuses, f.Status) {
		return fieldError("status", "must be one of "+strings.Join(paymentStatuses, ", "))
	}
	if _, ok := money.Lookup(f.Currency); f.Currency != "" && !ok {
		return fieldError("currency", "must be an ISO 4217 currency code")
	}
	for name, v := range map[string]string{"invoiceRef": f.InvoiceRef, "q": f.Search, "clientId": f.ClientID} {
		if utf8.RuneCountInString(v) > 128 {
			return fieldError(name, "must be at most 128 characters")
		}
	}
	if f.Sort != "" && f.Sort != store.SortDate && f.Sort != store.SortAmount {
		return fieldError("sort", "must be date or amount")
	}
	var err error
	if f.From, err = parseBound("createdFrom", q.Get("createdFrom"), false); err != nil {
		return err
	}
	if f.To, err = parseBound("createdTo", q.Get("createdTo"), true); err != nil {
		return err
	}
	f.Amounts = input.AmountsOf(f.Search, f.Currency)
	s.stream(w, c, "text/csv; charset=utf-8", "payouts.csv", func(out io.Writer) error {
		return export.Payouts(c.r.Context(), out, s.db, f)
	})
	return nil
}

// firaPeriod reads fy (required) and quarter (optional) into a FIRA filter
// of settlement times, with its file name's stem.
func (s *Server) firaPeriod(c *call) (store.FIRAFilter, string, error) {
	q := c.r.URL.Query()
	fy, err := input.SupportedFY(q.Get("fy"), s.db.Now())
	if err != nil {
		return store.FIRAFilter{}, "", fieldError("fy", err.Error())
	}
	quarter, name := 0, "FIRAs-"+fy.String()
	if v := q.Get("quarter"); v != "" {
		if quarter, err = strconv.Atoi(v); err != nil || quarter < 1 || quarter > 4 {
			return store.FIRAFilter{}, "", fieldError("quarter", "must be 1, 2, 3 or 4 (April–June is 1)")
		}
		name += "-Q" + v
	}
	if utf8.RuneCountInString(q.Get("clientId")) > 128 {
		return store.FIRAFilter{}, "", fieldError("clientId", "must be at most 128 characters")
	}
	from, to, _ := export.Period(fy, quarter) // quarter is 0 to 4 here
	return store.FIRAFilter{UserID: c.p.UserID, ClientID: q.Get("clientId"), SettledFrom: from, SettledTo: to}, name, nil
}

func (s *Server) handleExportFIRAs(w http.ResponseWriter, c *call) error {
	f, name, err := s.firaPeriod(c)
	if err != nil {
		return err
	}
	s.stream(w, c, "text/csv; charset=utf-8", name+".csv", func(out io.Writer) error {
		return export.FIRAs(c.r.Context(), out, s.db, f)
	})
	return nil
}

func (s *Server) handleExportFIRAZip(w http.ResponseWriter, c *call) error {
	f, name, err := s.firaPeriod(c)
	if err != nil {
		return err
	}
	s.stream(w, c, "application/zip", name+".zip", func(out io.Writer) error {
		return export.FIRAZip(c.r.Context(), out, s.db, f)
	})
	return nil
}

func (s *Server) handleExportTaxPayments(w http.ResponseWriter, c *call) error {
	f := store.TaxPaymentFilter{UserID: c.p.UserID}
	name := "tax-payments"
	if v := c.r.URL.Query().Get("fy"); v != "" {
		if _, err := india.ParseFY(v); err != nil {
			return fieldError("fy", "must be a financial year in the form YYYY-YY, e.g. 2025-26")
		}
		f.FY, name = v, name+"-"+v
	}
	s.stream(w, c, "text/csv; charset=utf-8", name+".csv", func(out io.Writer) error {
		return export.TaxPayments(c.r.Context(), out, s.db, f)
	})
	return nil
}

// stream answers 200 with a file written as it is read. Its status is sent
// before the first row, so a failure part-way can only end the response
// early (a client sees a cut file, not a complete wrong one) and is
// logged.
func (s *Server) stream(w http.ResponseWriter, c *call, contentType, name string, write func(io.Writer) error) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if err := write(export.Flushing(w)); err != nil {
		s.log.ErrorContext(c.r.Context(), "export", slog.String("requestId", requestID(c.r)), slog.String("error", err.Error()))
		panic(http.ErrAbortHandler) // cut the response, so it is not taken for whole
	}
}

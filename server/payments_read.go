package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

type paymentList struct {
	Items []paymentView `json:"items"`
	pageInfo
}

// paymentStatuses are the values the status filter accepts: every state of
// the payment state machine.
var paymentStatuses = []string{store.StatusInitiated, store.StatusComplianceCheck, store.StatusProcessing,
	store.StatusSubmitted, store.StatusConfirmed, store.StatusCompleted, store.StatusManualReview,
	store.StatusFailed, store.StatusPending, store.StatusUnknown}

// handlePaymentList serves GET /payments and GET /payments/payouts: the
// caller's payments newest first, filtered by status, currency, invoiceRef
// and createdFrom/createdTo (inclusive).
func (s *Server) handlePaymentList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("pay_"), "a payment id (pay_…)")
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := store.PaymentFilter{UserID: c.p.UserID, Status: q.Get("status"), Currency: q.Get("currency"),
		InvoiceRef: q.Get("invoiceRef"), After: win.After, Page: win.Page, Limit: win.Limit}
	if f.Status != "" && !slices.Contains(paymentStatuses, f.Status) {
		return fieldError("status", "must be one of "+strings.Join(paymentStatuses, ", "))
	}
	if _, ok := money.Lookup(f.Currency); f.Currency != "" && !ok {
		return fieldError("currency", "must be an ISO 4217 currency code")
	}
	if utf8.RuneCountInString(f.InvoiceRef) > 128 {
		return fieldError("invoiceRef", "must be at most 128 characters")
	}
	if f.From, err = parseBound("createdFrom", q.Get("createdFrom"), false); err != nil {
		return err
	}
	if f.To, err = parseBound("createdTo", q.Get("createdTo"), true); err != nil {
		return err
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return fieldError("createdTo", "must not be before createdFrom")
	}
	ps, total, err := s.db.Payments().ListPayments(c.r.Context(), f)
	if err != nil {
		return err
	}
	ps, info := pageOf(ps, win, total, func(p store.Payment) string { return p.ID })
	items, err := s.viewPayments(c.r.Context(), ps)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, paymentList{Items: items, pageInfo: info})
	return nil
}

// isPaymentSubresource reports whether a GET of /payments/{a}/{b} is one
// of the three paths that pattern serves: /payments/payouts/{id},
// /payments/{id}/status and /payments/{id}/form15ca (they overlap for
// ServeMux, "payouts/status", so one route dispatches them).
func isPaymentSubresource(r *http.Request) bool {
	a, b := r.PathValue("a"), r.PathValue("b")
	return a == "payouts" || b == "status" || b == "form15ca"
}

// handlePaymentSubresource dispatches the paths isPaymentSubresource admits.
func (s *Server) handlePaymentSubresource(w http.ResponseWriter, c *call) error {
	a, b := c.r.PathValue("a"), c.r.PathValue("b")
	switch {
	case a == "payouts":
		return s.handlePaymentGet(w, c, b)
	case b == "status":
		return s.handlePaymentStatus(w, c, a)
	}
	return s.handleForm15CA(w, c, a)
}

// maxTxnID is the longest txnId a payment can have (the document's
// maxLength): a longer one is a client's mistake, not an unknown payment.
const maxTxnID = 128

// handlePaymentStatus looks up by txnId and answers null, not 404, when
// nothing matches.
func (s *Server) handlePaymentStatus(w http.ResponseWriter, c *call, txnID string) error {
	if utf8.RuneCountInString(txnID) > maxTxnID {
		return fieldError("txnId", fmt.Sprintf("must be at most %d characters", maxTxnID))
	}
	// Stored txnIds are lower case (txnIDFor), so the lookup is too: a client
	// that sent its Idempotency-Key in upper case still finds its payment.
	p, err := s.db.Payments().FindPaymentByTxnID(c.r.Context(), c.p.UserID, strings.ToLower(txnID))
	if apperr.Code(err) == apperr.ErrPaymentNotFound {
		writeRaw(w, http.StatusOK, []byte("null\n"))
		return nil
	}
	if err != nil {
		return err
	}
	return s.writePayment(w, c, p)
}

func (s *Server) handlePaymentGet(w http.ResponseWriter, c *call, id string) error {
	p, err := s.db.Payments().FindPayment(c.r.Context(), c.p.UserID, id)
	if err != nil {
		return err
	}
	return s.writePayment(w, c, p)
}

// writePayment answers 200 with one payment's view.
func (s *Server) writePayment(w http.ResponseWriter, c *call, p store.Payment) error {
	v, err := s.viewPayments(c.r.Context(), []store.Payment{p})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v[0])
	return nil
}

// handleProvidersHealth is a static check, not an upstream probe.
func (s *Server) handleProvidersHealth(w http.ResponseWriter, c *call) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "HEALTHY", "settlement": "UP"})
	return nil
}

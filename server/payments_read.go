package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/payoutd/payoutd/store"
)

// pageParams parses page and limit: page < 1 or a non-number is 400, a limit
// above the cap is clamped.
func pageParams(r *http.Request, defLimit, maxLimit int) (page, limit int, err error) {
	page, limit = 1, defLimit
	q := r.URL.Query()
	if v := q.Get("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 {
			return 0, 0, fieldError("page", "must be a whole number of at least 1")
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 {
			return 0, 0, fieldError("limit", "must be a whole number of at least 1")
		}
		limit = min(limit, maxLimit)
	}
	if page > 1_000_000 {
		return 0, 0, fieldError("page", "is too large")
	}
	return page, limit, nil
}

type paymentList struct {
	Items []paymentView `json:"items"`
	Total int           `json:"total"`
	Page  int           `json:"page"`
	Limit int           `json:"limit"`
}

func (s *Server) handlePaymentList(w http.ResponseWriter, c *call) error {
	page, limit, err := pageParams(c.r, 20, 100)
	if err != nil {
		return err
	}
	status := c.r.URL.Query().Get("status")
	if len(status) > 32 {
		return fieldError("status", "is too long")
	}
	ps, total, err := s.db.ListPayments(c.r.Context(), store.PaymentFilter{UserID: c.p.UserID, Status: status, Page: page, Limit: limit})
	if err != nil {
		return err
	}
	out := paymentList{Items: make([]paymentView, 0, len(ps)), Total: total, Page: page, Limit: limit}
	for _, p := range ps {
		out.Items = append(out.Items, viewPayment(p))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handlePaymentSubresource dispatches GET /payments/payouts/{id},
// /payments/{id}/status and /payments/{id}/form15ca.
func (s *Server) handlePaymentSubresource(w http.ResponseWriter, c *call) error {
	a, b := c.r.PathValue("a"), c.r.PathValue("b")
	switch {
	case a == "payouts":
		return s.handlePaymentGet(w, c, b)
	case b == "status":
		return s.handlePaymentStatus(w, c, a)
	case b == "form15ca":
		return s.handleForm15CA(w, c, a)
	}
	return errNoRoute
}

// handlePaymentStatus looks up by txnId and answers null, not 404, when
// nothing matches.
func (s *Server) handlePaymentStatus(w http.ResponseWriter, c *call, txnID string) error {
	// Stored txnIds are lower case (txnIDFor), so the lookup is too: a client
	// that sent its Idempotency-Key in upper case still finds its payment.
	p, err := s.db.FindPaymentByTxnID(c.r.Context(), c.p.UserID, strings.ToLower(txnID))
	if store.ErrorCode(err) == store.ErrPaymentNotFound {
		writeRaw(w, http.StatusOK, []byte("null\n"))
		return nil
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewPayment(p))
	return nil
}

func (s *Server) handlePaymentGet(w http.ResponseWriter, c *call, id string) error {
	p, err := s.db.FindPayment(c.r.Context(), c.p.UserID, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewPayment(p))
	return nil
}

// handleProvidersHealth is a static check, not an upstream probe.
func (s *Server) handleProvidersHealth(w http.ResponseWriter, c *call) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "HEALTHY", "settlement": "UP"})
	return nil
}

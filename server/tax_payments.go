package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

var (
	bsrCodeRE       = regexp.MustCompile(`^[0-9]{7}$`)
	challanSerialRE = regexp.MustCompile(`^[0-9]{5}$`)
)

// isSupportedFY accepts a financial year "YYYY-YY" in the range ?fy=
// accepts on the day now is.
func isSupportedFY(now time.Time) validation.Rule {
	return validation.By(func(v any) error {
		s, _ := v.(string)
		if s == "" {
			return nil
		}
		_, err := supportedFY(s, now)
		return err
	})
}

type taxPaymentRequest struct {
	FY            string      `json:"fy"`
	Kind          string      `json:"kind"`
	Amount        json.Number `json:"amount"`
	PaidOn        string      `json:"paidOn"`
	BSRCode       string      `json:"bsrCode"`
	ChallanSerial string      `json:"challanSerial"`
	FromReserve   bool        `json:"fromReserve"`
	Note          string      `json:"note"`
}

// validate checks each field on its own, then the date against the year
// and kind (docs/tax.md, "Tax payments"), and returns the amount in paise.
func (q *taxPaymentRequest) validate(now time.Time) (int64, error) {
	var paise int64
	err := validation.ValidateStruct(q,
		validation.Field(&q.FY, validation.Required, isSupportedFY(now)),
		validation.Field(&q.Kind, validation.Required, validation.In(india.PaymentAdvance, india.PaymentSelfAssessment).
			Error("must be advance or self_assessment")),
		validation.Field(&q.Amount, validation.Required, amountRule("INR", &paise)),
		validation.Field(&q.PaidOn, validation.Required, validation.Date(time.DateOnly).Error("must be a date in the form YYYY-MM-DD")),
		validation.Field(&q.BSRCode, validation.Required, validation.Match(bsrCodeRE).Error("must be the 7-digit BSR code on the challan")),
		validation.Field(&q.ChallanSerial, validation.Required, validation.Match(challanSerialRE).Error("must be the 5-digit challan serial number")),
		validation.Field(&q.Note, validation.RuneLength(0, 512)),
	)
	var fields validation.Errors
	if err != nil && !errors.As(err, &fields) {
		return 0, err
	}
	if fields["amount"] == nil && paise%100 != 0 {
		// Challans (ITNS 280, e-Pay Tax) are paid in whole rupees, so a
		// figure with paise is a typing error, and it would break the
		// ITR-4's whole-rupee lines.
		if fields == nil {
			fields = validation.Errors{}
		}
		fields["amount"] = errors.New("must be whole rupees: tax is paid by challan in whole rupees")
	}
	if fields["fy"] == nil && fields["kind"] == nil && fields["paidOn"] == nil {
		fy, _ := india.ParseFY(q.FY)
		on, _ := time.Parse(time.DateOnly, q.PaidOn)
		if msg := india.CheckPaymentDate(fy, q.Kind, on, now); msg != "" {
			if fields == nil {
				fields = validation.Errors{}
			}
			fields["paidOn"] = errors.New(msg)
		}
	}
	if len(fields) > 0 {
		return 0, asFieldErrors(fields)
	}
	return paise, nil
}

type taxPaymentView struct {
	ID            string      `json:"id"`
	FY            string      `json:"fy"`
	Kind          string      `json:"kind"`
	Amount        json.Number `json:"amount"`
	PaidOn        string      `json:"paidOn"`
	BSRCode       string      `json:"bsrCode"`
	ChallanSerial string      `json:"challanSerial"`
	FromReserve   bool        `json:"fromReserve"`
	Note          string      `json:"note"`
	Status        string      `json:"status"`
	CreatedAt     string      `json:"createdAt"`
	ReversedAt    *string     `json:"reversedAt"`
}

func viewTaxPayment(p store.TaxPayment) taxPaymentView {
	v := taxPaymentView{ID: p.ID, FY: p.FY, Kind: p.Kind, Amount: inr(p.Amount), PaidOn: p.PaidOn, BSRCode: p.BSRCode,
		ChallanSerial: p.ChallanSerial, FromReserve: p.FromReserve, Note: p.Note, Status: p.Status(), CreatedAt: ts(p.CreatedAt)}
	if p.ReversedAt != nil {
		at := ts(*p.ReversedAt)
		v.ReversedAt = &at
	}
	return v
}

type taxPaymentList struct {
	Items []taxPaymentView `json:"items"`
	pageInfo
}

// handleTaxPaymentCreate records a challan; with fromReserve its amount
// leaves the tax reserve in the same transaction.
func (s *Server) handleTaxPaymentCreate(w http.ResponseWriter, c *call) error {
	var q taxPaymentRequest
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	paise, err := q.validate(s.db.Now())
	if err != nil {
		return err
	}
	p := store.TaxPayment{UserID: c.p.UserID, Livemode: c.p.Livemode, FY: q.FY, Kind: q.Kind, Amount: paise, PaidOn: q.PaidOn,
		BSRCode: q.BSRCode, ChallanSerial: q.ChallanSerial, FromReserve: q.FromReserve, Note: q.Note}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		rec, err := tx.RecordTaxPayment(p)
		return viewTaxPayment(rec), err
	})
}

func (s *Server) handleTaxPaymentList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("taxp_"), "a tax payment id (taxp_…)")
	if err != nil {
		return err
	}
	f := store.TaxPaymentFilter{UserID: c.p.UserID, After: win.After, Page: win.Page, Limit: win.Limit}
	if c.r.URL.Query().Get("fy") != "" {
		fy, err := s.fyParam(c.r)
		if err != nil {
			return err
		}
		f.FY = fy.String()
	}
	ps, total, err := s.db.ListTaxPayments(c.r.Context(), f)
	if err != nil {
		return err
	}
	ps, info := pageOf(ps, win, total, func(p store.TaxPayment) string { return p.ID })
	out := taxPaymentList{Items: make([]taxPaymentView, 0, len(ps)), pageInfo: info}
	for _, p := range ps {
		out.Items = append(out.Items, viewTaxPayment(p))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleTaxPaymentGet(w http.ResponseWriter, c *call) error {
	p, err := s.db.FindTaxPayment(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewTaxPayment(p))
	return nil
}

// handleTaxPaymentReverse reverses a wrong entry: the row stays, marked
// reversed, and a payment drawn from the reserve is put back.
func (s *Server) handleTaxPaymentReverse(w http.ResponseWriter, c *call) error {
	id := c.r.PathValue("id")
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		p, err := tx.ReverseTaxPayment(c.p.UserID, id)
		return viewTaxPayment(p), err
	})
}

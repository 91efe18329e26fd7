package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// gstMonth is one GST month of the year with its GSTR-3B figures.
type gstMonth struct {
	Period string
	Name   string
	B      documents.GST3B
}

type taxData struct {
	FY       india.FY
	Years    []string
	Year     taxes.Year
	Reserve  int64
	Challans []store.TaxPayment // the year's, reversed ones too
	GST      []gstMonth
	GSTIN    string
	ITR4     bool   // the ITR-4 file applies
	ITR4Why  string // why it does not
	Form     input.TaxPayment
	Key      string
	// Realisation lists the LUT invoices rule 96A is watching today.
	Realisation []taxes.Watch
}

// handleTax is the year's tax: the liability (taxes.ReadYear, as GET
// /tax/liability), its advance-tax calendar, the challans, GST months and
// the ITR-4. The figures are the API's; this page only lays them out.
func (c *Console) handleTax(w http.ResponseWriter, r *http.Request, u user) {
	fy := india.FYOf(c.db.Now())
	if v := r.URL.Query().Get("fy"); v != "" {
		var err error
		if fy, err = input.SupportedFY(v, c.db.Now()); err != nil {
			c.fail(w, r, input.FieldError("fy", err.Error()))
			return
		}
	}
	c.taxPage(w, r, u, http.StatusOK, fy, input.TaxPayment{FY: fy.String(), Kind: india.PaymentAdvance}, uuid.NewString(), nil)
}

func (c *Console) taxPage(w http.ResponseWriter, r *http.Request, u user, status int, fy india.FY, form input.TaxPayment, key string, formErr error) {
	ctx := r.Context()
	d := taxData{FY: fy, Form: form, Key: key}
	first, last := india.SupportedYears(c.db.Now())
	for y := last.StartYear; y >= first.StartYear; y-- {
		d.Years = append(d.Years, india.FY{StartYear: y}.String())
	}
	var err error
	if d.Year, err = taxes.ReadYear(ctx, c.db, u.ID, fy); err != nil {
		c.fail(w, r, err)
		return
	}
	reserve, err := c.db.Ledger().UserLedgerAccount(ctx, u.ID, store.AccountTaxReserve, "INR")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d.Reserve = reserve.Balance
	if d.Challans, _, err = c.db.Tax().ListTaxPayments(ctx, store.TaxPaymentFilter{UserID: u.ID, FY: fy.String(), Page: 1, Limit: 100}); err != nil {
		c.fail(w, r, err)
		return
	}
	for _, period := range monthsSoFar(fy, c.db.Now()) {
		b, err := taxes.GST3B(ctx, c.db, u.ID, period)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		d.GSTIN = b.GSTIN
		d.GST = append(d.GST, gstMonth{Period: period, Name: day(period + "-01")[2:], B: b})
	}
	if d.Realisation, err = taxes.RealisationDue(ctx, c.db, u.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	_, err = taxes.ITR4Of(ctx, c.db, u.ID, fy, "")
	var e *apperr.Error
	switch {
	case err == nil:
		d.ITR4 = true
	case errors.As(err, &e) && e.Code == taxes.ErrITR4NotApplicable:
		d.ITR4Why = e.Message
	default:
		c.fail(w, r, err)
		return
	}
	p := page{Title: "Tax " + fy.String(), Nav: "tax", Data: d}
	p.setErrors(formErr)
	c.render(w, r, status, "tax", p)
}

// handleTaxPayment records a challan (input.TaxPayment and
// RecordTaxPayment, as POST /tax/payments); from the reserve, its amount
// leaves the tax reserve in the same transaction.
func (c *Console) handleTaxPayment(w http.ResponseWriter, r *http.Request, u user) {
	f := r.PostForm
	q := input.TaxPayment{FY: f.Get("fy"), Kind: f.Get("kind"), Amount: json.Number(strings.TrimSpace(f.Get("amount"))),
		PaidOn: strings.TrimSpace(f.Get("paidOn")), BSRCode: strings.TrimSpace(f.Get("bsrCode")),
		ChallanSerial: strings.TrimSpace(f.Get("challanSerial")), FromReserve: f.Get("fromReserve") == "on", Note: strings.TrimSpace(f.Get("note"))}
	key := f.Get("idempotencyKey")
	if uuid.Validate(key) != nil {
		c.problem(w, r, http.StatusBadRequest, "Form expired", "This form has no valid key, so nothing was recorded. Open Tax again.")
		return
	}
	fy, fyErr := input.SupportedFY(q.FY, c.db.Now())
	if fyErr != nil {
		fy = india.FYOf(c.db.Now())
	}
	paise, err := q.Validate(c.db.Now())
	if err == nil {
		err = textFields(map[string]string{"note": q.Note})
	}
	if err == nil {
		p := store.TaxPayment{UserID: u.ID, Livemode: u.Livemode, FY: q.FY, Kind: q.Kind, Amount: paise, PaidOn: q.PaidOn,
			BSRCode: q.BSRCode, ChallanSerial: q.ChallanSerial, FromReserve: q.FromReserve, Note: q.Note}
		details := []string{p.FY, p.Kind, strconv.FormatInt(p.Amount, 10), p.PaidOn, p.BSRCode, p.ChallanSerial, strconv.FormatBool(p.FromReserve), p.Note}
		_, err = c.once(r, u, "tax_payment", key, details, func(tx *store.Tx) (string, error) {
			_, err := tx.Tax().RecordTaxPayment(p)
			return Prefix + "tax?fy=" + q.FY, err
		})
	}
	e, ok := asStoreError(err)
	if ok && e.Code == apperr.ErrInsufficientFunds && len(e.Fields) == 0 {
		err = input.FieldError("fromReserve", e.Message) // the reserve holds less than the challan
	}
	if ok {
		c.taxPage(w, r, u, http.StatusBadRequest, fy, q, key, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Challan recorded.")
	http.Redirect(w, r, Prefix+"tax?fy="+q.FY+"#challans", http.StatusSeeOther)
}

// handleTaxReverse reverses a challan entered by mistake; one drawn from
// the reserve is put back.
func (c *Console) handleTaxReverse(w http.ResponseWriter, r *http.Request, u user) {
	if !confirmedOr(w, r, "") {
		return
	}
	var p store.TaxPayment
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		p, err = tx.Tax().ReverseTaxPayment(u.ID, r.PathValue("id"))
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Challan "+p.ChallanSerial+" reversed.")
	http.Redirect(w, r, Prefix+"tax?fy="+p.FY+"#challans", http.StatusSeeOther)
}

// handleGSTR3B downloads a month's GSTR-3B, the API's
// GET /tax/exports/gst3b body.
func (c *Console) handleGSTR3B(w http.ResponseWriter, r *http.Request, u user) {
	period := r.URL.Query().Get("period")
	b, err := taxes.GST3B(r.Context(), c.db, u.ID, period)
	c.downloadJSON(w, r, "GSTR-3B-"+period+".json", b, err)
}

// downloadJSON sends v as an indented JSON file, or the error that
// stopped it being made.
func (c *Console) downloadJSON(w http.ResponseWriter, r *http.Request, name string, v any, err error) {
	var body []byte
	if err == nil {
		body, err = json.MarshalIndent(v, "", "  ")
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	download(w, "application/json", name, append(body, '\n'))
}

// handleGSTR1 downloads a month's (or quarter's) GSTR-1, the API's
// GET /tax/exports/gstr1 body.
func (c *Console) handleGSTR1(w http.ResponseWriter, r *http.Request, u user) {
	period := r.URL.Query().Get("period")
	b, err := taxes.GSTR1(r.Context(), c.db, u.ID, period)
	c.downloadJSON(w, r, "GSTR-1-"+period+".json", b, err)
}

// handleITR4 downloads the year's ITR-4 file, or says why ITR-4 does not
// apply.
func (c *Console) handleITR4(w http.ResponseWriter, r *http.Request, u user) {
	fy, err := input.SupportedFY(r.URL.Query().Get("fy"), c.db.Now())
	if err != nil {
		c.fail(w, r, input.FieldError("fy", err.Error()))
		return
	}
	y, err := taxes.ITR4Of(r.Context(), c.db, u.ID, fy, "")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	body, err := documents.BuildITR4(y.Input)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	download(w, "application/json", "ITR4-"+fy.AssessmentYear()+".json", body)
}

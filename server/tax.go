package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// liabilityNote is the label the liability figure always carries.
const liabilityNote = "Indicative only: computed from this service's reconciled transaction data " +
	"(new regime, resident individual). It ignores other income, deductions, HRA and TDS; taxes paid are the challans recorded with POST /tax/payments."

func inr(paise int64) json.Number { return amountJSON(paise, "INR") }

// fyParam reads ?fy=YYYY-YY, defaulting to the current financial year in
// IST. Malformed text and years outside india.SupportedYears are both 400
// naming fy, so every tax endpoint refuses the same inputs the same way. A
// year after the latest tax table is answered, its income-tax figures
// labelled provisional.
func (s *Server) fyParam(r *http.Request) (india.FY, error) {
	now := s.db.Now()
	v := r.URL.Query().Get("fy")
	if v == "" {
		v = india.FYOf(now).String()
	}
	fy, err := input.SupportedFY(v, now)
	if err != nil {
		return fy, fieldError("fy", err.Error())
	}
	return fy, nil
}

type instalmentView struct {
	DueDate    string      `json:"dueDate"`
	PercentDue int64       `json:"percentDue"`
	Amount     json.Number `json:"amount"`
	Paid       bool        `json:"paid"`
	Past       bool        `json:"past"`
	PaidByDate json.Number `json:"paidByDate"` // advance tax paid on or before dueDate
	Shortfall  json.Number `json:"shortfall"`  // amount − paidByDate, never negative
}

type computationView struct {
	TaxOnIncome json.Number `json:"taxOnIncome"`
	Rebate87A   json.Number `json:"rebate87A"`
	Surcharge   json.Number `json:"surcharge"`
	Cess        json.Number `json:"cess"`
	NetTax      json.Number `json:"netTax"`
}

// unreconciledView reports the settled receipts a figure leaves out because
// their reconciliation is pending, and where to resolve them.
type unreconciledView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	PaymentIDs       []string    `json:"paymentIds"`
	Message          string      `json:"message"`
}

func viewUnreconciled(u store.Unreconciled) unreconciledView {
	v := unreconciledView{TransactionCount: u.Count, TotalINR: inr(u.AmountINR), PaymentIDs: u.PaymentIDs,
		Message: "No settled receipt is waiting for reconciliation."}
	if v.PaymentIDs == nil {
		v.PaymentIDs = []string{}
	}
	if u.Count > 0 {
		v.Message = fmt.Sprintf("%d settled receipt(s) worth ₹%s are not reconciled yet and are left out of these figures. "+
			"Inspect each with GET /api/v1/ledger/reconciliation/{paymentId} and resolve it with "+
			"POST /api/v1/ledger/reconciliation/{paymentId}/resolve; paymentIds lists the oldest.",
			u.Count, documents.FormatINR(u.AmountINR))
	}
	return v
}

type liabilityView struct {
	FinancialYear string `json:"financialYear"`
	// Regime is 44ADA when presumptive taxation is available, BOOKS when
	// income must be computed from books of account.
	Regime               string      `json:"regime"`
	PresumptiveAvailable bool        `json:"presumptiveAvailable"`
	AuditRequired        bool        `json:"auditRequired"`
	ReturnForm           string      `json:"returnForm"`
	GrossReceipts        json.Number `json:"grossReceipts"`
	// PresumptiveIncome is null when s.44ADA is not available: no figure
	// is deemed by law then, and TaxableIncome is an illustration.
	PresumptiveIncome  *json.Number     `json:"presumptiveIncome"`
	IncomeBasis        string           `json:"incomeBasis"`
	TaxableIncome      json.Number      `json:"taxableIncome"`
	EstimatedTaxDue    json.Number      `json:"estimatedTaxDue"`
	AdvanceTaxRequired bool             `json:"advanceTaxRequired"`
	AdvanceTaxNote     string           `json:"advanceTaxNote"`
	AdvanceTaxSchedule []instalmentView `json:"advanceTaxSchedule"`
	Computation        computationView  `json:"computation"`
	TransactionCount   int64            `json:"transactionCount"`
	Unreconciled       unreconciledView `json:"unreconciled"`
	Provisional        bool             `json:"provisional"`
	SlabsFinancialYear string           `json:"slabsFinancialYear"`
	Indicative         bool             `json:"indicative"`
	Note               string           `json:"note"`
	Warnings           []string         `json:"warnings,omitempty"`
	TaxPaid            *taxPaidView     `json:"taxPaid"`
	BalanceDue         json.Number      `json:"balanceDue"`
	RefundDue          json.Number      `json:"refundDue"`
	AsOf               string           `json:"asOf"`
}

// requestedYear is the ?fy= year of the request (default current) with its
// liability and totals: the prologue of the ITR-4 endpoints.
func (s *Server) requestedYear(c *call) (india.FY, india.Liability, store.TaxTotals, error) {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return fy, india.Liability{}, store.TaxTotals{}, err
	}
	l, t, err := taxes.Liability(c.r.Context(), s.db, c.p.UserID, fy)
	return fy, l, t, err
}

func (s *Server) handleTaxLiability(w http.ResponseWriter, c *call) error {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return err
	}
	y, err := taxes.ReadYear(c.r.Context(), s.db, c.p.UserID, fy)
	if err != nil {
		return err
	}
	l, t, unrec, asOf := y.Liability, y.Totals, viewUnreconciled(y.Unreconciled), ts(y.AsOf)
	v := liabilityView{
		FinancialYear: fy.String(), Regime: "44ADA", PresumptiveAvailable: l.Presumptive, AuditRequired: l.AuditRequired,
		ReturnForm: l.ReturnForm, GrossReceipts: inr(l.GrossReceipts), IncomeBasis: "presumptive",
		TaxableIncome: inr(l.TaxableIncome), EstimatedTaxDue: inr(l.EstimatedTaxDue),
		AdvanceTaxRequired: l.AdvanceTaxDue, AdvanceTaxNote: l.AdvanceTaxNote(), AdvanceTaxSchedule: []instalmentView{},
		Computation: computationView{TaxOnIncome: inr(l.TaxOnIncome), Rebate87A: inr(l.Rebate87A),
			Surcharge: inr(l.Surcharge), Cess: inr(l.Cess), NetTax: inr(l.NetTax)},
		TransactionCount: t.All.Count, Unreconciled: unrec, Provisional: l.Provisional,
		SlabsFinancialYear: l.TableFY.String(), Indicative: true, Note: liabilityNote, AsOf: asOf,
	}
	if l.Presumptive {
		p := inr(l.PresumptiveIncome)
		v.PresumptiveIncome = &p
	} else {
		v.Regime, v.IncomeBasis = "BOOKS", "illustrative"
		v.Warnings = append(v.Warnings, l.PresumptiveUnavailable())
	}
	if l.Provisional {
		v.Warnings = append(v.Warnings, l.ProvisionalNote())
	}
	if unrec.TransactionCount > 0 {
		v.Warnings = append(v.Warnings, unrec.Message)
	}
	for _, in := range l.AdvanceTaxSchedule {
		v.AdvanceTaxSchedule = append(v.AdvanceTaxSchedule, instalmentView{DueDate: in.DueDate, PercentDue: in.PercentDue,
			Amount: inr(in.Amount), Past: in.Past})
	}
	attachTaxPaid(&v, y.Paid, len(y.Challans))
	writeJSON(w, http.StatusOK, v)
	return nil
}

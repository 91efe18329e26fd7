package server

import (
	"encoding/json"
	"net/http"
	"time"

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

// payOnParam reads ?payOn=YYYY-MM-DD, the day the balance is supposed paid
// for the interest shown; "" (absent) means today. It must fall between the
// year's first day and ten years after it ended.
func payOnParam(r *http.Request, fy india.FY) (string, error) {
	v := r.URL.Query().Get("payOn")
	if v == "" {
		return "", nil
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		return "", fieldError("payOn", "must be a date in the form YYYY-MM-DD")
	}
	first, last := india.DateOf(fy.Start()), india.DateOf(india.FY{StartYear: fy.StartYear + 10}.End().Add(-time.Millisecond))
	switch {
	case v < first:
		return "", fieldError("payOn", "must not be before the year began ("+first+")")
	case v > last:
		return "", fieldError("payOn", "must not be more than ten years after the year ended (latest "+last+")")
	}
	return v, nil
}

type instalmentView struct {
	DueDate         string      `json:"dueDate"`
	PercentDue      int64       `json:"percentDue"`
	Amount          json.Number `json:"amount"`
	AmountPaise     int64       `json:"amountPaise"`
	Paid            bool        `json:"paid"`
	Past            bool        `json:"past"`
	PaidByDate      json.Number `json:"paidByDate"` // advance tax paid on or before dueDate
	PaidByDatePaise int64       `json:"paidByDatePaise"`
	Shortfall       json.Number `json:"shortfall"` // amount − paidByDate, never negative
	ShortfallPaise  int64       `json:"shortfallPaise"`
	// Interest for deferment on the shortfall against this instalment,
	// counting the balance as paid on payOn, and the amount it runs on.
	InterestBase      json.Number `json:"interestBase"`
	InterestBasePaise int64       `json:"interestBasePaise"`
	Interest          json.Number `json:"interest"`
	InterestPaise     int64       `json:"interestPaise"`
}

type computationView struct {
	TaxOnIncome      json.Number `json:"taxOnIncome"`
	TaxOnIncomePaise int64       `json:"taxOnIncomePaise"`
	Rebate87A        json.Number `json:"rebate87A"`
	Rebate87APaise   int64       `json:"rebate87APaise"`
	Surcharge        json.Number `json:"surcharge"`
	SurchargePaise   int64       `json:"surchargePaise"`
	Cess             json.Number `json:"cess"`
	CessPaise        int64       `json:"cessPaise"`
	NetTax           json.Number `json:"netTax"`
	NetTaxPaise      int64       `json:"netTaxPaise"`
}

// unreconciledView reports the settled receipts a figure leaves out because
// their reconciliation is pending, and where to resolve them.
type unreconciledView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	TotalINRPaise    int64       `json:"totalInrPaise"`
	PaymentIDs       []string    `json:"paymentIds"`
	Message          string      `json:"message"`
}

func viewUnreconciled(u store.Unreconciled) unreconciledView {
	v := unreconciledView{TransactionCount: u.Count, TotalINR: inr(u.AmountINR), TotalINRPaise: u.AmountINR, PaymentIDs: u.PaymentIDs,
		Message: taxes.UnreconciledMessage(u)}
	if v.PaymentIDs == nil {
		v.PaymentIDs = []string{}
	}
	return v
}

// actView names the Act a year's figures and notes follow.
type actView struct {
	Name string `json:"name"`
	// YearTerm is "FY" under the 1961 Act and "tax year" under the 2025 Act.
	YearTerm string `json:"yearTerm"`
}

// interestView is the interest on advance tax if the balance is paid on
// payOn: deferment (s.234C; s.425 from tax year 2026-27) and default
// (s.234B; s.424), with the sections of the year's Act.
type interestView struct {
	PayOn      string              `json:"payOn"`
	Deferment  defermentView       `json:"deferment"`
	Default    defaultInterestView `json:"default"`
	Total      json.Number         `json:"total"`
	TotalPaise int64               `json:"totalPaise"`
	Note       string              `json:"note"`
}

type defermentView struct {
	Section     string      `json:"section"`
	Amount      json.Number `json:"amount"`
	AmountPaise int64       `json:"amountPaise"`
}

type defaultInterestView struct {
	Section          string              `json:"section"`
	Applies          bool                `json:"applies"` // advance tax paid is below 90% of the tax
	AdvancePaid      json.Number         `json:"advancePaid"`
	AdvancePaidPaise int64               `json:"advancePaidPaise"`
	Periods          []defaultPeriodView `json:"periods"`
	Amount           json.Number         `json:"amount"`
	AmountPaise      int64               `json:"amountPaise"`
}

type defaultPeriodView struct {
	From          string      `json:"from"`
	To            string      `json:"to"`
	Months        int64       `json:"months"`
	Base          json.Number `json:"base"`
	BasePaise     int64       `json:"basePaise"`
	Interest      json.Number `json:"interest"`
	InterestPaise int64       `json:"interestPaise"`
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
	GrossReceiptsPaise   int64       `json:"grossReceiptsPaise"`
	// PresumptiveIncome is null when s.44ADA is not available: no figure
	// is deemed by law then, and TaxableIncome is an illustration.
	PresumptiveIncome      *json.Number     `json:"presumptiveIncome"`
	PresumptiveIncomePaise *int64           `json:"presumptiveIncomePaise"`
	IncomeBasis            string           `json:"incomeBasis"`
	TaxableIncome          json.Number      `json:"taxableIncome"`
	TaxableIncomePaise     int64            `json:"taxableIncomePaise"`
	EstimatedTaxDue        json.Number      `json:"estimatedTaxDue"`
	EstimatedTaxDuePaise   int64            `json:"estimatedTaxDuePaise"`
	AdvanceTaxRequired     bool             `json:"advanceTaxRequired"`
	AdvanceTaxNote         string           `json:"advanceTaxNote"`
	AdvanceTaxSchedule     []instalmentView `json:"advanceTaxSchedule"`
	Computation            computationView  `json:"computation"`
	TransactionCount       int64            `json:"transactionCount"`
	Unreconciled           unreconciledView `json:"unreconciled"`
	Provisional            bool             `json:"provisional"`
	SlabsFinancialYear     string           `json:"slabsFinancialYear"`
	Indicative             bool             `json:"indicative"`
	Note                   string           `json:"note"`
	Warnings               []string         `json:"warnings,omitempty"`
	TaxPaid                *taxPaidView     `json:"taxPaid"`
	Interest               interestView     `json:"interest"`
	// BalanceDue is netTax + interest.total − taxPaid.total, never
	// negative; RefundDue the excess when more was paid.
	BalanceDue      json.Number `json:"balanceDue"`
	BalanceDuePaise int64       `json:"balanceDuePaise"`
	RefundDue       json.Number `json:"refundDue"`
	RefundDuePaise  int64       `json:"refundDuePaise"`
	Act             actView     `json:"act"`
	AsOf            string      `json:"asOf"`
}

// requestedYear is the ?fy= year of the request (default current) and the
// ?payOn= day: the prologue of every income-tax endpoint.
func (s *Server) requestedYear(c *call) (india.FY, string, error) {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return fy, "", err
	}
	payOn, err := payOnParam(c.r, fy)
	return fy, payOn, err
}

func (s *Server) handleTaxLiability(w http.ResponseWriter, c *call) error {
	fy, payOn, err := s.requestedYear(c)
	if err != nil {
		return err
	}
	in, err := taxes.YearOf(c.r.Context(), s.db, c.p.UserID, fy, payOn)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewLiability(in))
	return nil
}

func viewLiability(in taxes.Year) liabilityView {
	l := in.Liability
	v := liabilityView{
		FinancialYear: in.FY.String(), Regime: "44ADA", PresumptiveAvailable: l.Presumptive, AuditRequired: l.AuditRequired,
		ReturnForm: l.ReturnForm, GrossReceipts: inr(l.GrossReceipts), GrossReceiptsPaise: l.GrossReceipts, IncomeBasis: "presumptive",
		TaxableIncome: inr(l.TaxableIncome), TaxableIncomePaise: l.TaxableIncome,
		EstimatedTaxDue: inr(l.EstimatedTaxDue), EstimatedTaxDuePaise: l.EstimatedTaxDue,
		AdvanceTaxRequired: l.AdvanceTaxDue, AdvanceTaxNote: l.AdvanceTaxNote(), AdvanceTaxSchedule: []instalmentView{},
		Computation: computationView{TaxOnIncome: inr(l.TaxOnIncome), TaxOnIncomePaise: l.TaxOnIncome,
			Rebate87A: inr(l.Rebate87A), Rebate87APaise: l.Rebate87A, Surcharge: inr(l.Surcharge), SurchargePaise: l.Surcharge,
			Cess: inr(l.Cess), CessPaise: l.Cess, NetTax: inr(l.NetTax), NetTaxPaise: l.NetTax},
		TransactionCount: in.Totals.All.Count, Unreconciled: viewUnreconciled(in.Unreconciled), Provisional: l.Provisional,
		SlabsFinancialYear: l.TableFY.String(), Indicative: true, Note: liabilityNote, Warnings: in.Warnings,
		TaxPaid: &taxPaidView{Advance: inr(in.Paid.Advance), AdvancePaise: in.Paid.Advance,
			SelfAssessment: inr(in.Paid.SelfAssessment), SelfAssessmentPaise: in.Paid.SelfAssessment,
			Total: inr(in.Paid.Total), TotalPaise: in.Paid.Total, Challans: len(in.Challans)},
		Interest:   viewInterest(in),
		BalanceDue: inr(in.Paid.BalanceDue), BalanceDuePaise: in.Paid.BalanceDue,
		RefundDue: inr(in.Paid.RefundDue), RefundDuePaise: in.Paid.RefundDue,
		Act:  actView{Name: in.Act.Name, YearTerm: in.Act.Year},
		AsOf: ts(in.AsOf),
	}
	if l.Presumptive {
		p, paise := inr(l.PresumptiveIncome), l.PresumptiveIncome
		v.PresumptiveIncome, v.PresumptiveIncomePaise = &p, &paise
	} else {
		v.Regime, v.IncomeBasis = "BOOKS", "illustrative"
	}
	for i, paid := range in.Paid.Instalments {
		iv := instalmentView{DueDate: paid.DueDate, PercentDue: paid.PercentDue, Amount: inr(paid.Amount), AmountPaise: paid.Amount,
			Past: paid.Past, Paid: paid.Paid(), PaidByDate: inr(paid.PaidByDate), PaidByDatePaise: paid.PaidByDate,
			Shortfall: inr(paid.Shortfall), ShortfallPaise: paid.Shortfall, InterestBase: inr(0), Interest: inr(0)}
		if i < len(in.Interest.Instalments) {
			base, interest := in.Interest.Instalments[i].Base, in.Interest.Instalments[i].Interest
			iv.InterestBase, iv.InterestBasePaise, iv.Interest, iv.InterestPaise = inr(base), base, inr(interest), interest
		}
		v.AdvanceTaxSchedule = append(v.AdvanceTaxSchedule, iv)
	}
	return v
}

func viewInterest(in taxes.Year) interestView {
	i, a := in.Interest, in.Act
	v := interestView{PayOn: in.PayOn, Total: inr(i.Total), TotalPaise: i.Total, Note: in.Liability.InterestNote(),
		Deferment: defermentView{Section: a.InterestDeferment, Amount: inr(i.Deferment), AmountPaise: i.Deferment},
		Default: defaultInterestView{Section: a.InterestDefault, Applies: i.DefaultApplies, AdvancePaid: inr(i.AdvancePaid),
			AdvancePaidPaise: i.AdvancePaid, Periods: []defaultPeriodView{}, Amount: inr(i.Default), AmountPaise: i.Default}}
	if in.Liability.Presumptive {
		v.Deferment.Section = a.DefermentPresumptive
	}
	for _, p := range i.Periods {
		v.Default.Periods = append(v.Default.Periods, defaultPeriodView{From: p.From, To: p.To, Months: p.Months,
			Base: inr(p.Base), BasePaise: p.Base, Interest: inr(p.Interest), InterestPaise: p.Interest})
	}
	return v
}

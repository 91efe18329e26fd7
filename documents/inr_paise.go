package documents

import "encoding/json"

// Every INR amount the API shows has an exact integer companion in paise
// beside it, named after it with "Paise" appended (docs/decisions.md,
// "Money"). For the documents' views the companions are derived here, when
// the view is written, from the INR fields themselves, so a view built
// anywhere (a handler, a test) can never carry a companion that disagrees
// with its amount.

// MarshalJSON writes the row with taxableValuePaise and igstPaise.
func (t GST3BTaxed) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		TaxableValue      INR   `json:"taxableValue"`
		TaxableValuePaise int64 `json:"taxableValuePaise"`
		IGST              INR   `json:"igst"`
		IGSTPaise         int64 `json:"igstPaise"`
	}{t.TaxableValue, int64(t.TaxableValue), t.IGST, int64(t.IGST)})
}

// MarshalJSON writes the row with taxableValuePaise.
func (a GST3BAmount) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		TaxableValue      INR   `json:"taxableValue"`
		TaxableValuePaise int64 `json:"taxableValuePaise"`
	}{a.TaxableValue, int64(a.TaxableValue)})
}

// MarshalJSON writes the rate with taxableValuePaise.
func (r GSTRate) MarshalJSON() ([]byte, error) {
	type fields GSTRate
	return json.Marshal(struct {
		fields
		TaxableValuePaise int64 `json:"taxableValuePaise"`
	}{fields(r), int64(r.TaxableValue)})
}

// MarshalJSON writes the registration with thresholdPaise and
// aggregateTurnoverPaise.
func (r GSTRegistration) MarshalJSON() ([]byte, error) {
	type fields GSTRegistration
	return json.Marshal(struct {
		fields
		ThresholdPaise int64 `json:"thresholdPaise"`
		TurnoverPaise  int64 `json:"aggregateTurnoverPaise"`
	}{fields(r), int64(r.Threshold), int64(r.Turnover)})
}

// MarshalJSON writes the notes with exactFiguresPaise: each exact figure
// again, under its key, as integer paise.
func (n ITR4Notes) MarshalJSON() ([]byte, error) {
	type fields ITR4Notes
	e := n.ExactFigures
	paise := map[string]int64{"grossReceipts": int64(e.GrossReceipts), "presumptiveIncome": int64(e.PresumptiveIncome),
		"taxableIncome": int64(e.TaxableIncome), "taxOnIncome": int64(e.TaxOnIncome), "rebate87A": int64(e.Rebate87A),
		"surcharge": int64(e.Surcharge), "cess": int64(e.Cess), "taxDue": int64(e.TaxDue)}
	if t := e.itr4ExactTaxPaid; t != nil {
		paise["advanceTax"], paise["selfAssessmentTax"], paise["totalTaxesPaid"] = int64(t.AdvanceTax), int64(t.SelfAssessmentTax), int64(t.TotalTaxesPaid)
		paise["balanceDue"], paise["refundDue"] = int64(t.BalanceDue), int64(t.RefundDue)
	}
	return json.Marshal(struct {
		fields
		ExactFiguresPaise map[string]int64 `json:"exactFiguresPaise"`
	}{fields(n), paise})
}

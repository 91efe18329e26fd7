package documents

import "encoding/json"

// GSTRate is one INR rate cross-border receipts were valued at for GST,
// with the times of supply it valued: the GST summary and the GSTR-3B
// export list them so every taxable value can be traced to a rate and its
// date (CGST Rules r.34(2)).
type GSTRate struct {
	Currency         string      `json:"currency"`
	Rate             json.Number `json:"rate"`     // INR per unit of currency, exact
	RateDate         string      `json:"rateDate"` // the IST date the rate was true
	TimeOfSupplyFrom string      `json:"timeOfSupplyFrom"`
	TimeOfSupplyTo   string      `json:"timeOfSupplyTo"`
	Receipts         int64       `json:"receipts"`
	InvoiceValue     json.Number `json:"invoiceValue"` // in currency
	// InvoiceValueMinor is InvoiceValue exactly, in currency's minor unit.
	InvoiceValueMinor int64 `json:"invoiceValueMinor"`
	TaxableValue      INR   `json:"taxableValue"`
	// Basis: "timeOfSupply" when the rate is of the time of supply itself,
	// "latestEarlier" when none was recorded for it and the latest earlier
	// rate was used, "settlementRate" when none was recorded on or before it
	// and the settlement's (later) rate stood in.
	Basis string `json:"basis"`
}

// GSTRegistration is the registration position of the financial year up to
// the figures' last day.
type GSTRegistration struct {
	Registered      bool `json:"registered"`
	SpecialCategory bool `json:"specialCategoryState"`
	// State is the State of the principal place of business the threshold
	// follows (null when neither a GSTIN nor a State is on the profile), and
	// ThresholdRule the limit with the provision it comes from.
	State         *GSTState `json:"state"`
	Threshold     INR       `json:"threshold"`
	ThresholdRule string    `json:"thresholdRule"`
	Turnover      INR       `json:"aggregateTurnover"`
	CrossedOn     *string   `json:"crossedOn"`
	RegisterBy    *string   `json:"registerBy"`
	// RegisteredFrom is the profile's date registration took effect;
	// LiableFrom the first day of the year whose supplies are taxable
	// (CGST s.22(1), s.25(1), rule 10(2)). Null when none.
	RegisteredFrom *string `json:"registeredFrom"`
	LiableFrom     *string `json:"liableFrom"`
	// LiableFromAssumed: a GSTIN without gstRegisteredFrom, so LiableFrom
	// is payoutd's assumption (the message says which); PriorYearCrossedOn
	// the previous year's crossing that dated it, null when none.
	LiableFromAssumed  bool    `json:"liableFromAssumed"`
	PriorYearCrossedOn *string `json:"priorYearCrossedOn"`
	OwesGST            bool    `json:"owesGst"`
	Message            string  `json:"message"`
}

// GSTState is a State by its GST state code.
type GSTState struct {
	Code            string `json:"code"`
	Name            string `json:"name"`
	SpecialCategory bool   `json:"specialCategory"`
}

package documents

import (
	"time"

	"github.com/payoutd/payoutd/india"
)

// GST3BInput is one GST month of reconciled receipts, already bucketed in IST
// and summed in paise by the caller.
type GST3BInput struct {
	Period           string // "YYYY-MM", the GST return month
	GSTIN            string
	ZeroRatedTaxable int64 // paise: exports, GSTR-3B Table 3.1(b) taxable value
	ZeroRatedIGST    int64 // paise: IGST on those exports (0 under a LUT)
	NilExemptTaxable int64 // paise: nil-rated and exempt supplies, Table 3.1(c)
	// How many receipts were placed in the month by their invoice date and
	// how many, having none, by their IST settlement date.
	ByInvoiceDate, BySettlementDate int64
	GeneratedAt                     time.Time
	// Registration is the year's registration position; without a GSTIN
	// the export says so and shows no tax to pay. Rates are the INR rates
	// the month's exports were valued at.
	Registration GSTRegistration
	Rates        []GSTRate
}

// GST3B is the GET /tax/exports/gst3b body. The first four fields are the
// API's documented shape, in its order; SupDetails repeats the same figures
// under the GSTN's own GSTR-3B JSON keys so a filer (or a filing tool) can
// map them onto the return without guessing which row is which.
type GST3B struct {
	Period          string               `json:"period"`
	GSTIN           string               `json:"gstin"`
	OutwardSupplies GST3BOutwardSupplies `json:"outwardSupplies"`
	GeneratedAt     string               `json:"generatedAt"` // RFC 3339 UTC, milliseconds
	SupDetails      GST3BSupDetails      `json:"sup_details"`
	TimeOfSupply    TimeOfSupply         `json:"timeOfSupply"`
	Registration    GSTRegistration      `json:"registration"`
	Rates           []GSTRate            `json:"rates"`
}

// TimeOfSupply says which date placed the receipts in the period.
type TimeOfSupply struct {
	ByInvoiceDate    int64  `json:"byInvoiceDate"`
	BySettlementDate int64  `json:"bySettlementDate"`
	Rule             string `json:"rule"`
}

// GST3BOutwardSupplies is Table 3.1 as the API names it.
type GST3BOutwardSupplies struct {
	ZeroRated GST3BTaxed  `json:"zeroRated"`
	NilExempt GST3BAmount `json:"nilExempt"`
	Total     GST3BAmount `json:"total"`
}

// GST3BTaxed is a row with a taxable value and the IGST charged on it.
type GST3BTaxed struct {
	TaxableValue INR `json:"taxableValue"`
	IGST         INR `json:"igst"`
}

// GST3BAmount is a row with a taxable value only.
type GST3BAmount struct {
	TaxableValue INR `json:"taxableValue"`
}

// GST3BSupDetails carries the official GSTR-3B "sup_details" keys for the
// rows payoutd can fill; rows it has no data for (osup_det, isup_rev,
// osup_nongst) are left out rather than reported as zero.
type GST3BSupDetails struct {
	OsupZero    GST3BOsupZero `json:"osup_zero"`     // Table 3.1(b)
	OsupNilExmp GST3BTxval    `json:"osup_nil_exmp"` // Table 3.1(c)
}

// GST3BOsupZero is Table 3.1(b): taxable value, integrated tax and cess.
type GST3BOsupZero struct {
	Txval INR `json:"txval"`
	Iamt  INR `json:"iamt"`
	Csamt INR `json:"csamt"` // always 0: payoutd records no compensation cess
}

// GST3BTxval is a Table 3.1 row that has a taxable value only.
type GST3BTxval struct {
	Txval INR `json:"txval"`
}

// BuildGST3B lays the month's figures out as the export. The total is the
// sum of the taxable values of the rows above it, as on the return; IGST is
// not part of a taxable value so it is not added in. A supplier without a
// GSTIN files no GSTR-3B: the figures are shown for review with no IGST.
func BuildGST3B(in GST3BInput) GST3B {
	igst := in.ZeroRatedIGST
	if !in.Registration.Registered {
		igst = 0
	}
	zero := GST3BTaxed{TaxableValue: INR(in.ZeroRatedTaxable), IGST: INR(igst)}
	nilExempt := GST3BAmount{TaxableValue: INR(in.NilExemptTaxable)}
	return GST3B{
		Period: in.Period,
		GSTIN:  in.GSTIN,
		OutwardSupplies: GST3BOutwardSupplies{
			ZeroRated: zero,
			NilExempt: nilExempt,
			Total:     GST3BAmount{TaxableValue: INR(in.ZeroRatedTaxable + in.NilExemptTaxable)},
		},
		GeneratedAt: formatTimestamp(in.GeneratedAt),
		SupDetails: GST3BSupDetails{
			OsupZero:    GST3BOsupZero{Txval: zero.TaxableValue, Iamt: zero.IGST},
			OsupNilExmp: GST3BTxval{Txval: nilExempt.TaxableValue},
		},
		TimeOfSupply: TimeOfSupply{ByInvoiceDate: in.ByInvoiceDate, BySettlementDate: in.BySettlementDate,
			Rule: india.GSTTimeOfSupplyRule},
		Registration: in.Registration,
		Rates:        rates(in.Rates),
	}
}

func rates(r []GSTRate) []GSTRate {
	if r == nil {
		return []GSTRate{}
	}
	return r
}

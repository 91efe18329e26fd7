package documents

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func testGST3BInput() GST3BInput {
	return GST3BInput{
		Period:           "2026-10",
		GSTIN:            "27AAPFU0939F1ZV",
		ZeroRatedTaxable: 37463040, // ₹3,74,630.40
		ZeroRatedIGST:    0,        // exported under LUT
		NilExemptTaxable: 1500050,  // ₹15,000.50
		ByInvoiceDate:    3,
		BySettlementDate: 1,
		GeneratedAt:      time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		Registration: GSTRegistration{Registered: true, State: &GSTState{Code: "27", Name: "Maharashtra"}, Threshold: 2000000_00,
			ThresholdRule: "₹20 lakh", Turnover: 38963090, LiableFrom: ptr("2026-04-01"), OwesGST: true, Message: "Registered for GST"},
		Rates: []GSTRate{{Currency: "USD", Rate: "83.25", RateDate: "2026-10-01", TimeOfSupplyFrom: "2026-10-01",
			TimeOfSupplyTo: "2026-10-03", Receipts: 4, InvoiceValue: "4500.00", InvoiceValueMinor: 450000, TaxableValue: 37463040, Basis: "latestEarlier"}},
	}
}

func ptr[T any](v T) *T { return &v }

func TestBuildGST3B(t *testing.T) {
	t.Run("Golden", func(t *testing.T) {
		is := is.New(t)
		got, err := json.MarshalIndent(BuildGST3B(testGST3BInput()), "", "  ")
		is.NoErr(err)
		golden(t, "gst3b.golden.json", append(got, '\n'))
	})

	t.Run("SpecShape", func(t *testing.T) {
		is := is.New(t)
		got, err := json.Marshal(BuildGST3B(testGST3BInput()))
		is.NoErr(err)
		is.Equal(string(got), `{"period":"2026-10","gstin":"27AAPFU0939F1ZV",`+
			`"outwardSupplies":{"zeroRated":{"taxableValue":374630.40,"taxableValuePaise":37463040,"igst":0.00,"igstPaise":0},`+
			`"nilExempt":{"taxableValue":15000.50,"taxableValuePaise":1500050},"total":{"taxableValue":389630.90,"taxableValuePaise":38963090}},`+
			`"generatedAt":"2026-11-21T10:00:00.000Z",`+
			`"sup_details":{"osup_zero":{"txval":374630.40,"iamt":0.00,"csamt":0.00},`+
			`"osup_nil_exmp":{"txval":15000.50}},`+
			`"timeOfSupply":{"byInvoiceDate":3,"bySettlementDate":1,"rule":"`+india.GSTTimeOfSupplyRule+`"},`+
			`"registration":{"registered":true,"specialCategoryState":false,"state":{"code":"27","name":"Maharashtra","specialCategory":false},`+
			`"threshold":2000000.00,"thresholdRule":"₹20 lakh","aggregateTurnover":389630.90,"crossedOn":null,"registerBy":null,`+
			`"registeredFrom":null,"liableFrom":"2026-04-01","liableFromAssumed":false,"priorYearCrossedOn":null,"owesGst":true,"message":"Registered for GST","thresholdPaise":200000000,"aggregateTurnoverPaise":38963090},`+
			`"rates":[{"currency":"USD","rate":83.25,"rateDate":"2026-10-01","timeOfSupplyFrom":"2026-10-01",`+
			`"timeOfSupplyTo":"2026-10-03","receipts":4,"invoiceValue":4500.00,"invoiceValueMinor":450000,"taxableValue":374630.40,"basis":"latestEarlier","taxableValuePaise":37463040}]}`)
	})

	t.Run("NotRegisteredNoTax", func(t *testing.T) {
		is := is.New(t)
		in := testGST3BInput()
		in.GSTIN, in.ZeroRatedIGST = "", 18000
		in.Registration = GSTRegistration{Message: "Not registered"}
		g := BuildGST3B(in)
		is.Equal(g.OutwardSupplies.ZeroRated.IGST, INR(0))
		is.Equal(g.SupDetails.OsupZero.Iamt, INR(0))
		is.True(!g.Registration.Registered)
	})

	t.Run("IGSTWithoutLUT", func(t *testing.T) {
		is := is.New(t)
		in := testGST3BInput()
		in.ZeroRatedTaxable = 100000 // ₹1,000.00
		in.ZeroRatedIGST = 18000     // 18%
		in.NilExemptTaxable = 0
		g := BuildGST3B(in)
		is.Equal(g.OutwardSupplies.ZeroRated.IGST, INR(18000))
		is.Equal(g.SupDetails.OsupZero.Iamt, INR(18000))
		is.Equal(g.OutwardSupplies.Total.TaxableValue, INR(100000)) // IGST is not taxable value
	})

	t.Run("GeneratedAtInUTC", func(t *testing.T) {
		is := is.New(t)
		in := testGST3BInput()
		in.GeneratedAt = time.Date(2026, 11, 21, 15, 30, 0, 0, time.FixedZone("IST", 19800))
		is.Equal(BuildGST3B(in).GeneratedAt, "2026-11-21T10:00:00.000Z")
	})
}

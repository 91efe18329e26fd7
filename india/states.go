package india

// State is a State or Union territory of India by its GST state code, the
// first two digits of a GSTIN.
type State struct {
	Code string // "27"
	Name string
	// SpecialCategory: a supplier whose principal place of business is here
	// must register for GST once aggregate turnover exceeds ₹10 lakh, not
	// ₹20 lakh (CGST s.22(1), first proviso). Since the CGST (Amendment)
	// Act, 2018 (in force 1 February 2019) excluded Arunachal Pradesh,
	// Assam, Himachal Pradesh, Meghalaya, Sikkim and Uttarakhand from the
	// Explanation's "special category States" (Jammu and Kashmir having
	// been excluded in 2017), only Manipur, Mizoram, Nagaland and Tripura
	// remain. Sources: s.11 of the CGST (Amendment) Act, 2018
	// (taxrealtime.in/gstlaws/provision/finance_act/483);
	// taxshastra.com/special-caregory-states-under-gst.
	SpecialCategory bool
}

// states are the GST state codes of the GST portal (01-38, 97 for Other
// Territory); 96 is "outside India", the place of supply of an export,
// which is no State and not listed here.
var states = []State{
	{"01", "Jammu and Kashmir", false}, {"02", "Himachal Pradesh", false}, {"03", "Punjab", false},
	{"04", "Chandigarh", false}, {"05", "Uttarakhand", false}, {"06", "Haryana", false}, {"07", "Delhi", false},
	{"08", "Rajasthan", false}, {"09", "Uttar Pradesh", false}, {"10", "Bihar", false}, {"11", "Sikkim", false},
	{"12", "Arunachal Pradesh", false}, {"13", "Nagaland", true}, {"14", "Manipur", true}, {"15", "Mizoram", true},
	{"16", "Tripura", true}, {"17", "Meghalaya", false}, {"18", "Assam", false}, {"19", "West Bengal", false},
	{"20", "Jharkhand", false}, {"21", "Odisha", false}, {"22", "Chhattisgarh", false}, {"23", "Madhya Pradesh", false},
	{"24", "Gujarat", false}, {"26", "Dadra and Nagar Haveli and Daman and Diu", false}, {"27", "Maharashtra", false},
	{"29", "Karnataka", false}, {"30", "Goa", false}, {"31", "Lakshadweep", false}, {"32", "Kerala", false},
	{"33", "Tamil Nadu", false}, {"34", "Puducherry", false}, {"35", "Andaman and Nicobar Islands", false},
	{"36", "Telangana", false}, {"37", "Andhra Pradesh", false}, {"38", "Ladakh", false}, {"97", "Other Territory", false},
}

// ExportPlaceOfSupply is the GST portal's state code for a place of supply
// outside India, as an export invoice and GSTR-1 state it.
const ExportPlaceOfSupply = "96"

// States lists every State by code.
func States() []State { return states }

// StateOf looks a GST state code up.
func StateOf(code string) (State, bool) {
	for _, s := range states {
		if s.Code == code {
			return s, true
		}
	}
	return State{}, false
}

// StateOfGSTIN is the State a GSTIN was issued in (its first two digits).
func StateOfGSTIN(gstin string) (State, bool) {
	if len(gstin) < 2 {
		return State{}, false
	}
	return StateOf(gstin[:2])
}

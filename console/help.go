package console

// helpTopic is a short explanation shown beside a term the console uses,
// with the official site it comes from (docs/tax.md cites the rules).
type helpTopic struct {
	Term, Text, Source, URL string
}

var helpTopics = map[string]helpTopic{
	"fira": {Term: "a FIRA",
		Text:   "A Foreign Inward Remittance Advice shows money that came from abroad: who sent it, from which country, the amount in foreign currency and in rupees, and its purpose. It backs a zero-rated export of services under GST and the receipts in your return. payoutd's FIRA is its own advice of what it settled; your bank's e-FIRA stays the official record.",
		Source: "Reserve Bank of India", URL: "https://www.rbi.org.in/"},
	"lut": {Term: "a LUT",
		Text:   "A Letter of Undertaking (GST form RFD-11) lets a registered exporter of services invoice clients abroad without paying IGST. It is filed on the GST portal for one financial year and ends on 31 March; the payment must then arrive in foreign exchange within a year of the invoice.",
		Source: "GST portal", URL: "https://www.gst.gov.in/"},
	"purpose": {Term: "a purpose code",
		Text:   "An RBI purpose code says what a payment from abroad is for, such as P0802 for software consultancy. Banks report it with each inward remittance, and the FIRA prints it with its description.",
		Source: "Reserve Bank of India", URL: "https://www.rbi.org.in/"},
	// The presumptive scheme in the words of the year's Act: a year under
	// one Act never cites the other's sections.
	"presumptive-1961": {Term: "presumptive taxation (s.44ADA)",
		Text:   "Section 44ADA of the Income-tax Act, 1961 lets a resident professional declare half of gross receipts as income, without books of account, while receipts stay within ₹75 lakh (₹50 lakh when more than 5% come in cash). Advance tax is then paid in one instalment by 15 March.",
		Source: "Income Tax Department", URL: "https://www.incometax.gov.in/"},
	"presumptive-2025": {Term: "presumptive taxation (s.58(2))",
		Text:   "Section 58(2) of the Income-tax Act, 2025 lets a resident professional declare half of gross receipts as income, without books of account, while receipts stay within ₹75 lakh (₹50 lakh when more than 5% come in cash). Advance tax is then paid in one instalment by 15 March.",
		Source: "Income Tax Department", URL: "https://www.incometax.gov.in/"},
}

// help is the topic for the "help" template; an unknown one is a template
// error, caught by every page's test.
func help(topic string) (helpTopic, error) {
	t, ok := helpTopics[topic]
	if !ok {
		return t, errorString("no help topic " + topic)
	}
	return t, nil
}

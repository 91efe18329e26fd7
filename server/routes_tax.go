package server

// taxRoutes registers FIRA, tax liability and exports, GST, ITR-4 and audit
// routes. Scopes: compliance:read covers FIRA, GST
// summary, ITR-4 prefill and audit; tax:read covers liability and
// /tax/exports/*. The ITR-4 file accepts either (see handleITR4Export).
// Tax payments are read with tax:read and recorded or reversed with
// tax:write, like the sequestration policy.
func (s *Server) taxRoutes() {
	const cr, tr = "compliance:read", "tax:read"
	s.api("GET /api/v1/compliance/fira", routeOpts{scope: cr, query: listQuery("paymentId", "from", "to")}, s.handleFIRAList)
	s.api("GET /api/v1/compliance/fira/{firaId}", routeOpts{scope: cr}, s.handleFIRAGet)
	s.api("GET /api/v1/compliance/fira/{firaId}/pdf", routeOpts{scope: cr}, s.handleFIRAPDF)
	s.api("GET /api/v1/compliance/gst/summary", routeOpts{scope: cr, query: []string{"fy"}}, s.handleGSTSummary)
	s.api("GET /api/v1/compliance/itr4/prefill", routeOpts{scope: cr, query: []string{"fy", "payOn"}}, s.handleITR4Prefill)
	s.api("GET /api/v1/compliance/itr4/prefill/export", routeOpts{limitName: "itr4_export", query: []string{"fy", "payOn"}}, s.handleITR4Export)
	s.api("GET /api/v1/compliance/audit", routeOpts{scope: cr, query: listQuery("from", "to", "action", "resourceId")}, s.handleAuditList)
	s.api("GET /api/v1/compliance/audit/verify", routeOpts{scope: cr}, s.handleAuditVerify)

	s.api("GET /api/v1/tax/liability", routeOpts{scope: tr, query: []string{"fy", "payOn"}}, s.handleTaxLiability)
	s.api("GET /api/v1/tax/exports/gst3b", routeOpts{scope: tr, query: []string{"period"}}, s.handleGST3B)
	s.api("GET /api/v1/tax/exports/itr4", routeOpts{limitName: "itr4_export", query: []string{"fy", "payOn"}}, s.handleITR4Export)

	// Challans of advance and self-assessment tax (docs/tax.md, "Tax payments").
	const tw = "tax:write"
	s.api("POST /api/v1/tax/payments", routeOpts{scope: tw, idempotent: true}, s.handleTaxPaymentCreate)
	s.api("GET /api/v1/tax/payments", routeOpts{scope: tr, query: listQuery("fy")}, s.handleTaxPaymentList)
	s.api("GET /api/v1/tax/payments/{id}", routeOpts{scope: tr}, s.handleTaxPaymentGet)
	s.api("DELETE /api/v1/tax/payments/{id}", routeOpts{scope: tw}, s.handleTaxPaymentReverse)

	// Letters of Undertaking furnished on the GST portal (docs/tax.md, "LUTs").
	s.api("POST /api/v1/tax/luts", routeOpts{scope: tw, idempotent: true}, s.handleLUTCreate)
	s.api("GET /api/v1/tax/luts", routeOpts{scope: tr}, s.handleLUTList)
	s.api("GET /api/v1/tax/luts/{id}", routeOpts{scope: tr}, s.handleLUTGet)
	s.api("DELETE /api/v1/tax/luts/{id}", routeOpts{scope: tw}, s.handleLUTWithdraw)
	s.api("GET /api/v1/tax/exports/gstr1", routeOpts{scope: tr, query: []string{"period"}}, s.handleGSTR1)

	// Export invoices and their credit notes (docs/tax.md, "Invoices"):
	// issued with payments:write, read with payments:read, as getting paid is.
	const pw, pr = "payments:write", "payments:read"
	s.api("POST /api/v1/invoices", routeOpts{scope: pw, idempotent: true}, s.handleInvoiceCreate)
	s.api("GET /api/v1/invoices", routeOpts{scope: pr, query: []string{"page", "limit"}}, s.handleInvoiceList)
	s.api("GET /api/v1/invoices/{id}", routeOpts{scope: pr}, s.handleInvoiceGet)
	s.api("GET /api/v1/invoices/{id}/pdf", routeOpts{scope: pr}, s.handleInvoicePDF)
	s.api("POST /api/v1/invoices/{id}/credit-notes", routeOpts{scope: pw, idempotent: true}, s.handleCreditNoteCreate)
}

package server

import "net/http"

// routes lists every route on one screen.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /healthz", s.handleHealthz)
	m.HandleFunc("GET /readyz", s.handleReadyz)
	m.HandleFunc("GET /.well-known/jwks.json", s.handleJWKS)
	m.HandleFunc("POST /api/v1/oauth/token", s.noQuery(s.handleOAuthToken))

	const pw, pr = "payments:write", "payments:read"
	s.api("POST /api/v1/payments/initiate", routeOpts{scope: pw, limitName: "initiate", perUser: true, idempotent: true}, s.handlePaymentInitiate)
	s.api("POST /api/v1/payments/confirm", routeOpts{scope: pw, limitName: "confirm", perUser: true, idempotent: true}, s.handlePaymentConfirm)
	s.api("GET /api/v1/payments", routeOpts{scope: pr, query: listQuery("status", "currency", "invoiceRef", "createdFrom", "createdTo")}, s.handlePaymentList)
	s.api("GET /api/v1/payments/payouts", routeOpts{scope: pr, query: listQuery("status", "currency", "invoiceRef", "createdFrom", "createdTo")}, s.handlePaymentList)
	s.api("GET /api/v1/payments/providers/health", routeOpts{scope: pr}, s.handleProvidersHealth)
	// /payments/payouts/{id}, /payments/{id}/status and /payments/{id}/form15ca
	// overlap for ServeMux ("payouts/status"), so one route dispatches them.
	s.api("GET /api/v1/payments/{a}/{b}", routeOpts{scope: pr, only: isPaymentSubresource}, s.handlePaymentSubresource)
	s.api("POST /api/v1/payments/{id}/retry", routeOpts{scope: pw, idempotent: true}, s.handlePaymentRetry)
	s.api("POST /api/v1/payments/{id}/cancel", routeOpts{scope: pw, idempotent: true}, s.handlePaymentCancel)
	s.api("POST /v1/payments", routeOpts{scope: pw, limitName: "initiate", perUser: true, idempotent: true}, s.handleQuickStart)

	s.api("POST /api/v1/sandbox/payments/{id}/review", routeOpts{scope: pw}, s.handleSandboxReview)

	s.api("GET /api/v1/ledger/accounts", routeOpts{scope: "ledger:read"}, s.handleLedgerAccounts)
	s.api("GET /api/v1/ledger/accounts/{accountId}/balance", routeOpts{scope: "ledger:read"}, s.handleLedgerBalance)
	s.api("GET /api/v1/ledger/accounts/{accountId}/entries", routeOpts{scope: "ledger:read", query: listQuery("from", "to")}, s.handleLedgerEntries)
	s.api("GET /api/v1/ledger/reconciliation/{paymentId}", routeOpts{scope: "ledger:read"}, s.handleReconciliationGet)
	s.api("POST /api/v1/ledger/reconciliation/{paymentId}/resolve", routeOpts{scope: "ledger:write"}, s.handleReconciliationResolve)
	s.api("GET /api/v1/tax/sequestration", routeOpts{scope: "tax:read"}, s.handleSequestrationGet)
	s.api("POST /api/v1/tax/sequestration/policy", routeOpts{scope: "tax:write"}, s.handleSequestrationPolicy)

	s.clientRoutes()
	s.exportRoutes()
	s.taxRoutes()
	s.accountRoutes()
	s.webhookRoutes()
	s.docsRoutes()

	// Unknown paths answer with the documented error body, not a bare 404;
	// a known path asked with another method is 405 with Allow (noRoute).
	m.HandleFunc("/", s.handleNotFound)
	m.HandleFunc("/api/", s.handleNotFound)
	m.HandleFunc("/v1/", s.handleNotFound)
}

func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) { s.noRoute(w, r) }

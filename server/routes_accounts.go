package server

import (
	"github.com/payoutd/payoutd/kycpage"
)

// accountRoutes registers profile, KYC, wallet and hosted-verification
// routes (docs/accounts.md).
func (s *Server) accountRoutes() {
	const ar, aw, pw = "account:read", "account:write", "payments:write"
	s.api("GET /api/v1/profile", routeOpts{scope: ar}, s.handleProfileGet)
	s.api("GET /api/v1/profile/full", routeOpts{scope: ar}, s.handleProfileFull)
	s.api("PATCH /api/v1/profile", routeOpts{scope: aw}, s.handleProfilePatch)
	s.api("GET /api/v1/profile/wallet", routeOpts{scope: ar}, s.handleLinkedWalletGet)
	s.api("PATCH /api/v1/profile/link-wallet", routeOpts{scope: aw}, s.handleLinkWallet)

	s.api("GET /api/v1/kyc/status", routeOpts{scope: ar}, s.handleKYCStatus)
	s.api("POST /api/v1/kyc/start", routeOpts{scope: aw, idempotent: true}, s.handleKYCStart)

	s.api("GET /api/v1/wallets", routeOpts{scope: ar}, s.handleWalletList)
	s.api("GET /api/v1/wallets/summary", routeOpts{scope: ar}, s.handleWalletSummary)
	s.api("GET /api/v1/wallets/{id}", routeOpts{scope: ar}, s.handleWalletGet)
	s.api("POST /api/v1/wallets", routeOpts{scope: aw, idempotent: true}, s.handleWalletCreate)

	s.api("POST /api/v1/sandbox/kyc/approve", routeOpts{scope: aw}, s.handleSandboxKYC(true))
	s.api("POST /api/v1/sandbox/kyc/reject", routeOpts{scope: aw}, s.handleSandboxKYC(false))
	s.api("POST /api/v1/sandbox/vaults/{id}/fund", routeOpts{scope: pw, idempotent: true}, s.handleSandboxFund)
	s.api("POST /api/v1/sandbox/vaults/{id}/deposits", routeOpts{scope: pw, idempotent: true}, s.handleSandboxDeposit)

	s.api("GET /api/v1/deposits", routeOpts{scope: ar, query: listQuery("vaultId", "counterparty", "from", "to")}, s.handleDepositList)
	s.api("GET /api/v1/deposits/{id}", routeOpts{scope: ar}, s.handleDepositGet)

	s.kycPageRoutes()
}

// kycPageRoutes mounts the hosted KYC page (package kycpage).
func (s *Server) kycPageRoutes() {
	p, err := kycpage.New(kycpage.Config{DB: s.db, Sealer: s.cfg.Sealer, BaseURL: s.cfg.BaseURL, Log: s.log,
		RequestID: requestID, WriteError: s.writeError})
	if err != nil {
		// The files are embedded in the binary: a broken template is a build
		// defect that the package tests catch, never a runtime condition.
		panic(err)
	}
	p.Register(s.mux)
}

package server_test

import (
	"regexp"
	"testing"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

var contractCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func flowKYC(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	key, userID, _ := e.newUser("kyc-page@example.com", false, store.AllScopes)
	f.kycUser = userID
	q.do(t, call{op: "getKycStatus", key: key, want: 200})
	idem := newKey()
	start := q.do(t, call{op: "startKyc", key: key, headers: []string{"Idempotency-Key", idem}, want: 200}).value(t)
	sid := asStr(start["sessionId"])
	q.do(t, call{op: "startKyc", key: key, headers: []string{"Idempotency-Key", idem}, want: 200})
	page := map[string]string{"sessionId": sid}

	browser, other := browserClient(t, true), browserClient(t, true)
	show := q.do(t, call{op: "getVerifyPage", path: page, client: browser, noQuery: true, want: 200})
	m := contractCSRF.FindSubmatch(show.Body)
	if m == nil {
		t.Fatalf("no CSRF token on the page")
	}
	csrf := string(m[1])
	q.do(t, call{op: "getVerifyPage", path: page, client: other, noQuery: true, want: 403})
	q.do(t, call{op: "getVerifyPage", path: page, client: browser, want: 200}) // ?step=details
	q.do(t, call{op: "getVerifyStatus", path: page, client: browser, want: 200})
	q.do(t, call{op: "getVerifyStatus", path: page, client: other, want: 404})
	// The examples' session id does not exist.
	q.do(t, call{op: "getVerifyPage", client: other, want: 404})
	q.do(t, call{op: "submitVerifyForm", client: other, want: 404})
	q.do(t, call{op: "getVerifyStatus", client: other, want: 404})
	q.do(t, call{op: "submitVerifyForm", path: page, client: browser, patch: map[string]any{"csrf": "stale"}, want: 403})
	q.do(t, call{op: "submitVerifyForm", path: page, client: browser, patch: map[string]any{"csrf": csrf, "pan": "BAD"}, want: 400})
	q.do(t, call{op: "submitVerifyForm", path: page, client: browser, patch: map[string]any{"csrf": csrf}, want: 303})
	upload := func(name string, content []byte, want int) {
		body, ctype := multipartDoc(t, csrf, name, content)
		q.do(t, call{op: "submitVerifyForm", path: page, client: browser, raw: body, ctype: ctype, want: want})
	}
	upload("notes.txt", []byte("this is not an identity document\n"), 415)
	upload("huge.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 6<<20)...), 413)
	upload("pan.png", tinyPNG, 303)
	q.do(t, call{op: "sandboxApproveKyc", key: key, want: 200})
	q.do(t, call{op: "sandboxApproveKyc", key: key, want: 409})

	// A link replaced by a newer one is gone (410).
	key2, _, _ := e.newUser("kyc-replaced@example.com", false, store.AllScopes)
	first := asStr(q.do(t, call{op: "startKyc", key: key2, want: 200}).value(t)["sessionId"])
	b2 := browserClient(t, true)
	q.do(t, call{op: "getVerifyPage", path: map[string]string{"sessionId": first}, client: b2, noQuery: true, want: 200})
	q.do(t, call{op: "startKyc", key: key2, want: 200})
	q.do(t, call{op: "getVerifyPage", path: map[string]string{"sessionId": first}, client: b2, noQuery: true, want: 410})
	q.do(t, call{op: "submitVerifyForm", path: map[string]string{"sessionId": first}, client: b2, want: 410})

	// Rejected until no resubmission is left: start is then 409.
	key3, _, _ := e.newUser("kyc-rejected@example.com", false, store.AllScopes)
	for i := 0; i < 1+kyc.MaxAttempts; i++ {
		q.do(t, call{op: "sandboxRejectKyc", key: key3, want: 200})
	}
	q.do(t, call{op: "sandboxRejectKyc", key: key3, want: 409})
	q.do(t, call{op: "startKyc", key: key3, want: 409})
}

func flowWallets(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	q.do(t, call{op: "listWallets", want: 200})
	q.do(t, call{op: "getWalletSummary", want: 200})
	vault := map[string]string{"id": e.VaultID}
	q.do(t, call{op: "getWallet", path: vault, want: 200})
	q.do(t, call{op: "createWallet", headers: []string{"Idempotency-Key", newKey()}, want: 201})
	q.do(t, call{op: "createWallet", want: 409})
	q.do(t, call{op: "sandboxFundVault", path: vault, headers: []string{"Idempotency-Key", newKey()}, want: 200})
	dep := q.do(t, call{op: "sandboxDeposit", path: vault, headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	q.do(t, call{op: "getDeposit", path: map[string]string{"id": asStr(dep["id"])}, want: 200})
	q.do(t, call{op: "getDeposit", path: map[string]string{"id": "dep_01kf3r2a4b6c8d0e2f4g6h8j0z"}, want: 404})
	q.do(t, call{op: "listDeposits", query: map[string]string{"vaultId": e.VaultID}, want: 200})
	f.paths["vault"] = vault
}

// flowSandboxOnly: the sandbox helpers and live payouts without a live
// settlement adapter refuse live keys.
func flowSandboxOnly(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	live, _, liveVault := e.newUser("live@example.com", true, store.AllScopes)
	q.do(t, call{op: "sandboxApproveKyc", key: live, want: 403})
	q.do(t, call{op: "sandboxRejectKyc", key: live, want: 403})
	q.do(t, call{op: "sandboxReviewPayment", key: live, want: 403})
	q.do(t, call{op: "sandboxFundVault", key: live, path: map[string]string{"id": liveVault}, want: 403})
	q.do(t, call{op: "sandboxDeposit", key: live, path: map[string]string{"id": liveVault}, want: 403})
	q.do(t, call{op: "confirmPayment", key: live, want: 400})
	q.do(t, call{op: "quickStartPayment", key: live, want: 400})
	q.do(t, call{op: "confirmPayment", want: 404}) // the example's payment id does not exist
}

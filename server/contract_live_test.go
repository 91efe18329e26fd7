package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
)

// flowLiveRail: with the live rail's RPC server out of reach, a live
// confirm is 503 ERR_RAIL_UNAVAILABLE with Retry-After, and /readyz stays
// 200 while it reports the rail.
func flowLiveRail(t *testing.T, c *contract, f *fixtures) {
	e := f.e
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	assets, err := stellar.ParseAssets(network.TestNetworkPassphrase, "")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	rail := &stellar.Rail{DB: e.DB, Sealer: e.Sealer, RPCURL: fake.URL, Passphrase: network.TestNetworkPassphrase,
		Assets: assets, CallTimeout: 2 * time.Second, Now: time.Now, Log: log,
		Rate: func(string, time.Time) (money.Rate, time.Time, error) { return money.Rate{}, time.Time{}, nil }}
	srv, err := server.New(context.Background(), e.DB, server.Config{BaseURL: "http://payoutd.test", Sealer: e.Sealer,
		Rates: rates.Default(), Logger: log, LiveRail: rail})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	key, userID, vaultID := e.newUser("live-rail@example.com", true, store.AllScopes)
	e.approveKYC(userID)
	q := &requester{c: c, base: hs.URL, key: key, client: browserClient(t, false)}
	p := q.do(t, call{op: "initiatePayment", want: 201}).value(t)
	fake.SetDown(true)
	r := q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": p["id"], "vaultId": vaultID}, want: 503})
	if r.Header.Get("Retry-After") == "" {
		t.Fatalf("503 without Retry-After: %v", r.Header)
	}
	ready := q.do(t, call{op: "getReadyz", key: noAuth, want: 200}).value(t)
	if rail, _ := ready["rail"].(map[string]any); rail["status"] != "unreachable" {
		t.Fatalf("readyz does not report the rail: %v", ready)
	}

	// The vault's key pays from its account behind payoutd's back: the
	// wallet view, /readyz and the event log say the vault is
	// quarantined, and confirm refuses it, each as documented.
	fake.SetDown(false)
	vault, err := e.DB.Chain().VaultKey(context.Background(), vaultID)
	if err != nil {
		t.Fatal(err)
	}
	usdc := xdr.MustNewCreditAsset("USDC", assets["USD"].Issuer)
	fake.Fund(vault.Address, 10_0000000)
	fake.Trust(vault.Address, usdc, 50_0000000)
	if err := rail.SyncVaults(context.Background()); err != nil {
		t.Fatal(err)
	}
	fake.OutsidePayment(vault.Address, keypair.MustRandom().Address(), usdc, 20_0000000)
	if err := rail.SyncVaults(context.Background()); err != nil {
		t.Fatal(err)
	}
	w := q.do(t, call{op: "getWallet", path: map[string]string{"id": vaultID}, want: 200}).value(t)
	if asMap(asMap(w["wallet"])["quarantine"]) == nil {
		t.Fatalf("the wallet view does not show the quarantine: %v", w)
	}
	q.do(t, call{op: "listWallets", want: 200})
	ready = q.do(t, call{op: "getReadyz", key: noAuth, want: 200}).value(t)
	if len(asArr(ready["quarantinedVaults"])) != 1 {
		t.Fatalf("readyz does not list the quarantined vault: %v", ready)
	}
	p = q.do(t, call{op: "initiatePayment", want: 201}).value(t)
	q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": p["id"], "vaultId": vaultID}, want: 409})
	err = e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Movements().ReleaseQuarantine(vaultID, "the owner's own transfer")
		return err
	}, store.WithActor("cli:vaults", ""))
	if err != nil {
		t.Fatal(err)
	}
	f.liveKey = key
}

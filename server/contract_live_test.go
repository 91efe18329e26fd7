package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/network"

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
func flowLiveRail(t *testing.T, c *contract, e *env) {
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
}

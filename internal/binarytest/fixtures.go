package binarytest

import (
	"testing"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// Address is a valid Stellar account to pay to.
const Address = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// USDC is the asset a live test's vaults hold on the fake network.
var USDC = xdr.MustNewCreditAsset("USDC", "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5")

// Wallet is the first wallet GET /api/v1/wallets lists for key.
func Wallet(t testing.TB, url, key string) map[string]any {
	t.Helper()
	_, _, m := Call(t, "GET", url+"/api/v1/wallets", key, nil)
	return m["wallets"].([]any)[0].(map[string]any)
}

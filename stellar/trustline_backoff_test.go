package stellar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/stellar"
)

// TestLiveTrustlineBackoff: a vault account with too little XLM for the
// trustline's reserve gets one changeTrust, not one every sync (a failure
// in a ledger is charged each time); the wallet view says how much XLM the
// trustline needs; once the balance changes payoutd tries again and the
// trustline opens.
func TestLiveTrustlineBackoff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xlm    int64 // stroops the account is created with
		result string
		holds  string
	}{
		// Nothing above the account's own reserve: refused, not charged.
		{"NoXLMForTheFee", 1_0000000, "REJECTED tx_insufficient_balance", "holds 1.0000000 XLM"},
		// The fee is there, the trustline's reserve is not: charged, fails.
		{"LowReserve", 1_2000000, "FAILED op_low_reserve", "holds 1.1999900 XLM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.Net.Fund(e.Vault.Address, tc.xlm)
			for range 2 { // sign and send, then follow it to its end
				is.NoErr(e.Rail.SyncVaults(e.ctx))
			}
			a, ok, err := e.DB.Chain().LastTrustlineAttempt(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.True(ok)
			is.Equal(a.State+" "+a.Result, tc.result)
			sends := e.Net.Sends()
			for range 3 {
				is.NoErr(e.Rail.SyncVaults(e.ctx))
			}
			is.Equal(e.Net.Sends(), sends) // not signed, sent or charged again
			_, trusts := e.Net.Balance(e.Vault.Address, usdc)
			is.True(!trusts)

			n, err := e.Rail.Network(e.ctx, e.Vault)
			is.NoErr(err)
			why := n.(stellar.NetworkState).TrustlineMissing
			is.True(strings.Contains(why, tc.holds))
			is.True(strings.Contains(why, "needs at least 1.5000100 XLM")) // 3 × 0.5 XLM and the minimum fee

			e.Net.Advance(time.Minute)
			e.Net.Fund(e.Vault.Address, 1_0000000) // topped up
			for range 2 {
				is.NoErr(e.Rail.SyncVaults(e.ctx))
			}
			_, trusts = e.Net.Balance(e.Vault.Address, usdc)
			is.True(trusts)
			n, err = e.Rail.Network(e.ctx, e.Vault)
			is.NoErr(err)
			is.Equal(n.(stellar.NetworkState).TrustlineMissing, "")
		})
	}
}

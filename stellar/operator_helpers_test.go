package stellar_test

import (
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

// vaultSeed opens the vault's signing seed, as another wallet holding the
// same key has it.
func (e *liveEnv) vaultSeed() []byte {
	e.t.Helper()
	v, err := e.DB.Chain().VaultKey(e.ctx, e.Vault.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	seed, err := e.Sealer.Open(v.Sealed, []byte(v.ID))
	if err != nil {
		e.t.Fatal(err)
	}
	return seed
}

// outside signs, with seed, a payment of stroops USDC to dest with memo
// taking the account's sequence number seq, and submits it as another
// wallet would; it returns the envelope and the send's status.
func (e *liveEnv) outside(seed []byte, seq int64, dest string, stroops int64, memo txnbuild.Memo) (stellar.Envelope, string) {
	e.t.Helper()
	env, err := stellar.Signed(network.TestNetworkPassphrase, seed, seq, e.Net.Now().Add(2*time.Minute), 100, memo,
		&txnbuild.Payment{Destination: dest, Amount: amount.StringFromInt64(stroops), Asset: txnbuild.CreditAsset{Code: "USDC", Issuer: usdcIssuer}})
	if err != nil {
		e.t.Fatal(err)
	}
	return env, e.Net.Submit(env.XDR)
}

// resolve records an operator's resolve of the payout with the rail's
// proof, as `payoutd payouts resolve` does.
func (e *liveEnv) resolve(id string, out payout.Outcome, proof string) (store.Payment, error) {
	var p store.Payment
	err := e.DB.WithTx(e.ctx, func(tx *store.Tx) error {
		var err error
		p, err = payout.Resolve(tx, id, out, proof)
		return err
	}, store.WithActor("operator:test", ""))
	return p, err
}

// load reads the payout.
func (e *liveEnv) load(id string) store.Payment {
	e.t.Helper()
	p, err := e.DB.Payments().LoadPayment(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// auditActors lists the actors of the payout's audit rows of action.
func (e *liveEnv) auditActors(id, action string) []string {
	e.t.Helper()
	rows, _, err := e.DB.History().ListAudit(e.ctx, store.AuditFilter{UserID: e.UserID, Action: action, ResourceID: id, Limit: 100})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Actor)
	}
	return out
}

package stellar_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// TestLiveMemoType: the memo travels on chain as the memoType given at
// initiate, whatever it looks like; without one a whole number goes as a
// memo id and anything else as text.
func TestLiveMemoType(t *testing.T) {
	e := newLiveEnv(t)
	e.fundVault(100)
	dest := e.destination(true, true)
	for _, tc := range []struct {
		name, memo, memoType string
		text                 string // the MEMO_TEXT on chain, or
		id                   uint64 // the MEMO_ID
	}{
		{"LeadingZeroAsText", "0042", payout.MemoText, "0042", 0},
		{"NumberAsText", "42", payout.MemoText, "42", 0},
		{"NumberAsID", "42", payout.MemoID, "", 42},
		{"NumberDefault", "42", "", "", 42},
		{"LeadingZeroDefault", "0042", "", "0042", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var p store.Payment
			err := e.DB.WithTx(e.ctx, func(tx *store.Tx) error {
				var err error
				p, err = payout.Initiate(tx, rates.Default(), store.Payment{UserID: e.UserID, Livemode: true, TxnID: store.NewID("txn"), Amount: 1_00,
					Currency: "USD", DestinationAddress: dest, Memo: tc.memo, MemoType: tc.memoType})
				if err != nil {
					return err
				}
				p, err = payout.Confirm(tx, e.UserID, store.ConfirmInput{ID: p.ID, DestinationAddress: dest, Amount: 1_00, Currency: "USD",
					VaultID: e.Vault.ID, Sealer: e.Sealer})
				return err
			})
			is.NoErr(err)
			p = e.settle(p.ID)
			is.Equal(p.Status, store.StatusCompleted)
			subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
			is.NoErr(err)
			var env xdr.TransactionEnvelope
			is.NoErr(xdr.SafeUnmarshalBase64(subs[0].Envelope, &env))
			m := env.Memo()
			if tc.text != "" {
				is.Equal(m.Type, xdr.MemoTypeMemoText)
				is.Equal(m.MustText(), tc.text)
			} else {
				is.Equal(m.Type, xdr.MemoTypeMemoId)
				is.Equal(uint64(m.MustId()), tc.id)
			}
		})
	}
}

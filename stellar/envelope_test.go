package stellar

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestSigned decodes the envelope with the SDK's XDR and checks every field
// a payout depends on, and that the signature verifies for the source
// account over the network's transaction hash.
func TestSigned(t *testing.T) {
	is := is.New(t)
	seed := make([]byte, 32)
	seed[0] = 7
	kp, err := keypair.FromRawSeed([32]byte(seed))
	is.NoErr(err)
	dest := "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5"
	asset := txnbuild.CreditAsset{Code: "USDC", Issuer: dest}
	until := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	env, err := Signed(network.TestNetworkPassphrase, seed, 42, until, 1000, txnbuild.MemoID(99),
		&txnbuild.Payment{Destination: dest, Amount: "12.3400000", Asset: asset})
	is.NoErr(err)
	is.Equal(env.Seq, int64(42))

	var e xdr.TransactionEnvelope
	is.NoErr(xdr.SafeUnmarshalBase64(env.XDR, &e))
	is.Equal(e.SeqNum(), int64(42))
	is.Equal(e.SourceAccount().ToAccountId().Address(), kp.Address())
	is.Equal(int64(e.TimeBounds().MaxTime), until.Unix())
	is.Equal(e.Memo().Type, xdr.MemoTypeMemoId)
	is.Equal(uint64(*e.Memo().Id), uint64(99))
	op := e.Operations()[0].Body.PaymentOp
	is.Equal(int64(op.Amount), int64(123_400_000))
	is.Equal(op.Destination.ToAccountId().Address(), dest)

	hash, err := network.HashTransactionInEnvelope(e, network.TestNetworkPassphrase)
	is.NoErr(err)
	sig := e.Signatures()[0]
	is.True(ed25519.Verify(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey), hash[:], sig.Signature))
	// The same bytes under another network's passphrase do not verify.
	other, err := network.HashTransactionInEnvelope(e, network.PublicNetworkPassphrase)
	is.NoErr(err)
	is.True(!ed25519.Verify(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey), other[:], sig.Signature))

	_, err = Signed(network.TestNetworkPassphrase, seed[:31], 1, until, 1000, nil)
	is.True(err != nil)
}

package stellartest_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestFakeNetworkChecks: the fake refuses what the network would, so a
// rail that passes against it builds real transactions.
func TestFakeNetworkChecks(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	issuer := keypair.MustRandom()
	usdc := txnbuild.CreditAsset{Code: "USDC", Issuer: issuer.Address()}
	xusdc, _ := usdc.ToXDR()
	seed := [32]byte{9}
	src, _ := keypair.FromRawSeed(seed)
	dst := keypair.MustRandom().Address()
	pay := func(stroops int64) txnbuild.Operation {
		return &txnbuild.Payment{Destination: dst, Amount: amount.StringFromInt64(stroops), Asset: usdc}
	}
	for _, tc := range []struct {
		name       string
		passphrase string
		seed       [32]byte
		seqDelta   int64
		until      time.Time
		stroops    int64
		sendStatus string
		code       string // the refusal's or the failed transaction's result code
	}{
		{"OK", network.TestNetworkPassphrase, seed, 1, now.Add(time.Minute), 10_0000000, "PENDING", ""},
		{"ErrSignedForAnotherNetwork", network.PublicNetworkPassphrase, seed, 1, now.Add(time.Minute), 1, "ERROR", "tx_bad_auth"},
		{"ErrSignedByAnotherKey", network.TestNetworkPassphrase, [32]byte{8}, 1, now.Add(time.Minute), 1, "ERROR", "tx_bad_auth"},
		{"ErrSequenceSkipped", network.TestNetworkPassphrase, seed, 2, now.Add(time.Minute), 1, "ERROR", "tx_bad_seq"},
		{"ErrTimeBoundPassed", network.TestNetworkPassphrase, seed, 1, now.Add(-time.Second), 1, "ERROR", "tx_too_late"},
		{"Underfunded", network.TestNetworkPassphrase, seed, 1, now.Add(time.Minute), 1000_0000000, "PENDING", "op_underfunded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			fake := stellartest.New(network.TestNetworkPassphrase, now)
			defer fake.Close()
			fake.Fund(src.Address(), 10_0000000)
			fake.Trust(src.Address(), xusdc, 100_0000000)
			fake.Fund(dst, 10_0000000)
			fake.Trust(dst, xusdc, 0)
			rpc := rpcclient.NewClient(fake.URL, nil)
			defer rpc.Close()
			ctx := context.Background()
			acct, err := rpc.LoadAccount(ctx, src.Address())
			is.NoErr(err)
			seq, _ := acct.GetSequenceNumber()
			// The envelope names src as its source whatever key signs it.
			env, err := stellar.Signed(tc.passphrase, tc.seed[:], seq+tc.seqDelta, tc.until, 100, nil, pay(tc.stroops))
			is.NoErr(err)
			if tc.seed != seed {
				env = resource(t, env.XDR, src.Address())
			}
			sr, err := rpc.SendTransaction(ctx, protocol.SendTransactionRequest{Transaction: env.XDR})
			is.NoErr(err)
			is.Equal(sr.Status, tc.sendStatus)
			var res xdr.TransactionResult
			if sr.Status == "ERROR" {
				is.NoErr(xdr.SafeUnmarshalBase64(sr.ErrorResultXDR, &res))
				is.Equal(stellar.ResultCode(res), tc.code)
				is.Equal(fake.AppliedTotal(), 0)
				return
			}
			tr, err := rpc.GetTransaction(ctx, protocol.GetTransactionRequest{Hash: sr.Hash})
			is.NoErr(err)
			is.NoErr(xdr.SafeUnmarshalBase64(tr.ResultXDR, &res))
			got, _ := fake.Balance(dst, xusdc)
			if tc.code == "" {
				is.Equal(tr.Status, protocol.TransactionStatusSuccess)
				is.Equal(got, tc.stroops)
				return
			}
			is.Equal(tr.Status, protocol.TransactionStatusFailed)
			is.Equal(stellar.ResultCode(res), tc.code)
			is.Equal(got, int64(0)) // a failed transaction moves nothing
			a2, err := rpc.LoadAccount(ctx, src.Address())
			is.NoErr(err)
			s2, _ := a2.GetSequenceNumber()
			is.Equal(s2, seq+1) // but spends its sequence number
		})
	}
}

// resource rewrites the envelope's source account to address, keeping the
// signature, as a forger would.
func resource(t *testing.T, b64, address string) stellar.Envelope {
	t.Helper()
	var e xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(b64, &e); err != nil {
		t.Fatal(err)
	}
	src, err := xdr.AddressToMuxedAccount(address)
	if err != nil {
		t.Fatal(err)
	}
	e.V1.Tx.SourceAccount = src
	out, err := xdr.MarshalBase64(e)
	if err != nil {
		t.Fatal(err)
	}
	return stellar.Envelope{XDR: out}
}

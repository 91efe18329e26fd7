package stellartest_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestFakeGetTransactions: getTransactions lists what was applied from a
// ledger on, in order, page by page through the cursor, with envelopes
// that name the source account and sequence number; a start ledger the
// retained history does not hold is refused, as stellar-rpc does.
func TestFakeGetTransactions(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	asset := xdr.MustNewCreditAsset("USDC", keypair.MustRandom().Address())
	from, to := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	fake.Fund(from, 10_0000000)
	fake.Trust(from, asset, 100_0000000)
	fake.Fund(to, 10_0000000)
	fake.Trust(to, asset, 0)
	var hashes []string
	for range 3 {
		hashes = append(hashes, fake.OutsidePayment(from, to, asset, 1_0000000))
	}
	rpc := rpcclient.NewClient(fake.URL, nil)
	defer rpc.Close()

	first, err := rpc.GetLatestLedger(ctx)
	is.NoErr(err)
	start := first.Sequence - 1 // the ledger of the second payment
	page, err := rpc.GetTransactions(ctx, protocol.GetTransactionsRequest{StartLedger: start,
		Pagination: &protocol.LedgerPaginationOptions{Limit: 1}})
	is.NoErr(err)
	is.Equal(len(page.Transactions), 1)
	got := page.Transactions[0]
	is.Equal(got.TransactionHash, hashes[1])
	is.Equal(got.Ledger, start)
	var env xdr.TransactionEnvelope
	is.NoErr(xdr.SafeUnmarshalBase64(got.EnvelopeXDR, &env))
	is.Equal(env.SourceAccount().ToAccountId().Address(), from)
	is.Equal(env.SeqNum(), fake.Sequence(from)-1)

	next, err := rpc.GetTransactions(ctx, protocol.GetTransactionsRequest{Pagination: &protocol.LedgerPaginationOptions{Cursor: page.Cursor, Limit: 5}})
	is.NoErr(err)
	is.Equal(len(next.Transactions), 1)
	is.Equal(next.Transactions[0].TransactionHash, hashes[2])

	fake.Prune()
	_, err = rpc.GetTransactions(ctx, protocol.GetTransactionsRequest{StartLedger: start})
	is.True(err != nil) // history no longer holds it
}

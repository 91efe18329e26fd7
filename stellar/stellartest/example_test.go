package stellartest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/stellar/stellartest"
)

// A rail test funds a vault as a client would, then reads the deposit the
// way the rail does: the transfers to the vault on the asset's contract.
func ExampleServer_Deposit() {
	fake := stellartest.New(network.TestNetworkPassphrase, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	defer fake.Close()
	usdc := xdr.MustNewCreditAsset("USDC", keypair.MustRandom().Address())
	vault := keypair.MustRandom().Address()
	fake.Fund(vault, 10_0000000)
	fake.Trust(vault, usdc, 0)
	rpc := rpcclient.NewClient(fake.URL, nil)
	defer rpc.Close()
	ctx := context.Background()
	latest, _ := rpc.GetLatestLedger(ctx)

	// A client (created and funded by the fake) pays 25 USDC, its invoice
	// number as the memo.
	hash := fake.Deposit(keypair.MustRandom().Address(), vault, usdc, 25_0000000, "invoice 42")

	sac, _ := usdc.ContractID(network.TestNetworkPassphrase)
	transfer, to, star := xdr.ScSymbol("transfer"), xdr.MustAddress(vault), "*"
	page, err := rpc.GetEvents(ctx, protocol.GetEventsRequest{StartLedger: latest.Sequence + 1, Filters: []protocol.EventFilter{{
		ContractIDs: []string{strkey.MustEncode(strkey.VersionByteContract, sac[:])},
		Topics: []protocol.TopicFilter{{
			{ScVal: &xdr.ScVal{Type: xdr.ScValTypeScvSymbol, Sym: &transfer}},
			{Wildcard: &star}, // from
			{ScVal: &xdr.ScVal{Type: xdr.ScValTypeScvAddress, Address: &xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeAccount, AccountId: &to}}},
			{Wildcard: &star}, // the asset, "USDC:G…"
		}},
	}}})
	if err != nil {
		panic(err)
	}
	for _, e := range page.Events {
		// With a memo, the data is {amount: i128, to_muxed_id: memo}.
		var data xdr.ScVal
		if err := xdr.SafeUnmarshalBase64(e.ValueXDR, &data); err != nil {
			panic(err)
		}
		m, _ := data.GetMap()
		amount, _ := (*m)[0].Val.GetI128()
		memo, _ := (*m)[1].Val.GetStr()
		fmt.Println(e.TransactionHash == hash, amount.Lo, memo)
	}
	// Output: true 250000000 invoice 42
}

package stellar

import (
	"context"
	"fmt"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Account is a vault account's state on the network.
type Account struct {
	Exists   bool
	Seq      int64 // last sequence number used
	Native   int64 // XLM, stroops
	Trusts   bool  // has a trustline for the asset asked about
	Balance  int64 // of that asset, stroops
	Limit    int64
	Ledger   uint32 // the network's latest ledger when read
	Asset    txnbuild.CreditAsset
	Address  string
	Currency string

	// SubEntries counts the account's trustlines, offers and signers,
	// each of which raises the XLM it must keep (the base reserve).
	SubEntries int64
}

// accountKeys are the ledger keys of an account and its trustline for asset.
func accountKeys(address string, asset txnbuild.CreditAsset) (acct, line string, err error) {
	id, err := xdr.AddressToAccountId(address)
	if err != nil {
		return "", "", fmt.Errorf("address %s: %w", address, err)
	}
	ak, err := id.LedgerKey()
	if err != nil {
		return "", "", err
	}
	xa, err := asset.ToXDR()
	if err != nil {
		return "", "", err
	}
	var lk xdr.LedgerKey
	if err := lk.SetTrustline(id, xa.ToTrustLineAsset()); err != nil {
		return "", "", err
	}
	if acct, err = xdr.MarshalBase64(ak); err != nil {
		return "", "", err
	}
	line, err = xdr.MarshalBase64(lk)
	return acct, line, err
}

// readAccount reads the account and its trustline for asset with one
// getLedgerEntries. Any failure to get a well-formed answer is transient.
func (r *Rail) readAccount(ctx context.Context, address string, asset txnbuild.CreditAsset) (Account, error) {
	a := Account{Address: address, Asset: asset}
	if err := r.checked(ctx); err != nil {
		return a, err
	}
	acctKey, lineKey, err := accountKeys(address, asset)
	if err != nil {
		return a, err
	}
	resp, err := r.getLedgerEntries(ctx, acctKey, lineKey)
	if err != nil {
		return a, transient("getLedgerEntries", err)
	}
	a.Ledger = resp.LatestLedger
	for _, e := range resp.Entries {
		var d xdr.LedgerEntryData
		if err := xdr.SafeUnmarshalBase64(e.DataXDR, &d); err != nil {
			return a, transient("getLedgerEntries", fmt.Errorf("entry: %w", err))
		}
		switch {
		case d.Account != nil:
			a.Exists, a.Seq, a.Native = true, int64(d.Account.SeqNum), int64(d.Account.Balance)
			a.SubEntries = int64(d.Account.NumSubEntries)
		case d.TrustLine != nil:
			a.Trusts, a.Balance, a.Limit = true, int64(d.TrustLine.Balance), int64(d.TrustLine.Limit)
		}
	}
	return a, nil
}

// readSeq reads the account's last used sequence number and the ledger
// that last changed the account.
func (r *Rail) readSeq(ctx context.Context, address string) (seq int64, modified uint32, err error) {
	id, err := xdr.AddressToAccountId(address)
	if err != nil {
		return 0, 0, err
	}
	key, err := id.LedgerKey()
	if err != nil {
		return 0, 0, err
	}
	b64, err := xdr.MarshalBase64(key)
	if err != nil {
		return 0, 0, err
	}
	resp, err := r.getLedgerEntries(ctx, b64)
	if err != nil {
		return 0, 0, transient("getLedgerEntries", err)
	}
	for _, e := range resp.Entries {
		var d xdr.LedgerEntryData
		if err := xdr.SafeUnmarshalBase64(e.DataXDR, &d); err != nil || d.Account == nil {
			return 0, 0, transient("getLedgerEntries", fmt.Errorf("account entry: %v", err))
		}
		return int64(d.Account.SeqNum), e.LastModifiedLedger, nil
	}
	return 0, 0, nil
}

// getLedgerEntries reads the ledger entries under keys.
func (r *Rail) getLedgerEntries(ctx context.Context, keys ...string) (protocol.GetLedgerEntriesResponse, error) {
	return call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetLedgerEntriesResponse, error) {
		return c.GetLedgerEntries(ctx, protocol.GetLedgerEntriesRequest{Keys: keys})
	})
}

package stellar

import (
	"context"
	"fmt"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
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
	Modified uint32 // the ledger that last changed the account entry
	Asset    txnbuild.CreditAsset
	Address  string
	Currency string

	// SubEntries counts the account's trustlines, offers and signers,
	// each of which raises the XLM it must keep (the base reserve).
	SubEntries int64
}

// ledgerKeys are the base64 ledger keys of an account and, unless asset is
// zero, its trustline for asset.
func ledgerKeys(address string, asset txnbuild.CreditAsset) (acct, line string, err error) {
	id, err := xdr.AddressToAccountId(address)
	if err != nil {
		return "", "", fmt.Errorf("address %s: %w", address, err)
	}
	ak, err := id.LedgerKey()
	if err != nil {
		return "", "", err
	}
	if acct, err = xdr.MarshalBase64(ak); err != nil || asset.Code == "" {
		return acct, "", err
	}
	xa, err := asset.ToXDR()
	if err != nil {
		return "", "", err
	}
	var lk xdr.LedgerKey
	if err := lk.SetTrustline(id, xa.ToTrustLineAsset()); err != nil {
		return "", "", err
	}
	line, err = xdr.MarshalBase64(lk)
	return acct, line, err
}

// readAccount reads the account and (asset not zero) its trustline for
// asset with one getLedgerEntries. The answer must be about what was
// asked: every entry under a requested key, once, holding that key's kind
// of entry for that account. Any failure to get such an answer is
// transient. A missing entry means missing only to a caller that has
// never seen it (vaultAccount).
func (r *Rail) readAccount(ctx context.Context, address string, asset txnbuild.CreditAsset) (Account, error) {
	a := Account{Address: address, Asset: asset}
	if err := r.checked(ctx); err != nil {
		return a, err
	}
	acctKey, lineKey, err := ledgerKeys(address, asset)
	if err != nil {
		return a, err
	}
	keys := []string{acctKey}
	if lineKey != "" {
		keys = append(keys, lineKey)
	}
	resp, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetLedgerEntriesResponse, error) {
		return c.GetLedgerEntries(ctx, protocol.GetLedgerEntriesRequest{Keys: keys})
	})
	if err != nil {
		return a, transient("getLedgerEntries", err)
	}
	if err := r.notBehind(ctx, "getLedgerEntries", resp.LatestLedger); err != nil {
		return a, err
	}
	a.Ledger = resp.LatestLedger
	answered := map[string]bool{}
	for _, e := range resp.Entries {
		if (e.KeyXDR != acctKey && e.KeyXDR != lineKey) || answered[e.KeyXDR] {
			return a, transient("getLedgerEntries", fmt.Errorf("an entry under key %q, which was not asked for (or twice)", e.KeyXDR))
		}
		answered[e.KeyXDR] = true
		var d xdr.LedgerEntryData
		if err := xdr.SafeUnmarshalBase64(e.DataXDR, &d); err != nil {
			return a, transient("getLedgerEntries", fmt.Errorf("entry: %w", err))
		}
		switch {
		case e.KeyXDR == acctKey && d.Account != nil && d.Account.AccountId.Address() == address:
			a.Exists, a.Seq, a.Native, a.Modified = true, int64(d.Account.SeqNum), int64(d.Account.Balance), e.LastModifiedLedger
			a.SubEntries = int64(d.Account.NumSubEntries)
		case e.KeyXDR == lineKey && d.TrustLine != nil && d.TrustLine.AccountId.Address() == address:
			a.Trusts, a.Balance, a.Limit = true, int64(d.TrustLine.Balance), int64(d.TrustLine.Limit)
		default:
			return a, transient("getLedgerEntries", fmt.Errorf("the entry under key %q is not that key's", e.KeyXDR))
		}
	}
	if a.Exists && a.Seq <= 0 || a.Balance < 0 || a.Native < 0 {
		// No account holds these: the server misanswered.
		return a, transient("getLedgerEntries", fmt.Errorf("account %s: sequence %d, balance %d, XLM %d", address, a.Seq, a.Balance, a.Native))
	}
	return a, nil
}

// vaultAccount reads the vault's account and trustline and refuses, as a
// transient error, an answer lacking either when payoutd has read it
// before, or whose sequence number is below one payoutd recorded as used
// in a ledger: an RPC server that is behind or misanswering, never an
// account with sequence number 0 or a balance gone to 0.
func (r *Rail) vaultAccount(ctx context.Context, v store.Vault, asset txnbuild.CreditAsset) (Account, error) {
	seen, err := r.DB.Chain().ChainSeen(ctx, v.ID)
	if err != nil {
		return Account{}, err
	}
	applied, err := r.DB.Movements().AppliedSeq(ctx, v.ID)
	if err != nil {
		return Account{}, err
	}
	a, err := r.readAccount(ctx, v.Address, asset)
	if err != nil {
		return a, err
	}
	a.Currency = v.Currency
	if what := seen.Lacks(a.chainRead(0)); what != "" {
		return a, transient("getLedgerEntries", fmt.Errorf("the answer lacks vault %s's %s, which payoutd has read before", v.ID, what))
	}
	if a.Exists && a.Seq < applied {
		return a, fmt.Errorf("stellar rpc getLedgerEntries: %w: vault %s's account is at sequence number %d, below %d which payoutd saw applied (%w)",
			ErrBehind, v.ID, a.Seq, applied, payout.ErrTransient)
	}
	return a, nil
}

// chainRead is the account as the store books it, with its balance in
// minor units of the vault's currency (dust below one dropped).
func (a Account) chainRead(minor int64) store.ChainRead {
	return store.ChainRead{Exists: a.Exists, Trusts: a.Trusts, Seq: a.Seq, Balance: minor, Ledger: int64(a.Ledger), Modified: int64(a.Modified)}
}

// booked is the account as the store books it.
func (a Account) booked() (store.ChainRead, error) {
	cur, _ := money.Lookup(a.Currency)
	minor, _, err := FromStroops(a.Balance, cur)
	if err != nil {
		return store.ChainRead{}, transient("getLedgerEntries", fmt.Errorf("trustline balance: %w", err))
	}
	return a.chainRead(minor), nil
}

// readSeq reads the account's last used sequence number and the ledger
// that last changed the account. The account signed the envelope being
// judged: an answer without it is transient.
func (r *Rail) readSeq(ctx context.Context, address string) (seq int64, modified uint32, err error) {
	a, err := r.readAccount(ctx, address, txnbuild.CreditAsset{})
	if err != nil {
		return 0, 0, err
	}
	if !a.Exists {
		return 0, 0, transient("getLedgerEntries", fmt.Errorf("the answer lacks account %s, which has signed before", address))
	}
	return a.Seq, a.Modified, nil
}

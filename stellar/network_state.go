package stellar

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// NetworkState is what a wallet view shows of the vault's account, so a
// user sees what is missing before a payout can leave it.
type NetworkState struct {
	Network       string `json:"network"`
	AccountExists bool   `json:"accountExists"`
	Trustline     bool   `json:"trustline"`
	Asset         string `json:"asset"`
	AssetBalance  string `json:"assetBalance"`
	NativeBalance string `json:"nativeBalanceXlm"`
	Reachable     bool   `json:"reachable"`
	// TrustlineMissing says, while the account lacks the trustline, why
	// and what opens it (trustline_backoff.go).
	TrustlineMissing string `json:"trustlineMissing,omitempty"`
}

// Network reads the vault's account for the wallet view; an unreachable
// network is reported in the state, not as an error.
func (r *Rail) Network(ctx context.Context, v store.Vault) (any, error) {
	st := NetworkState{Network: r.NetworkName()}
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return st, nil
	}
	st.Asset = asset.Code + ":" + asset.Issuer
	acct, err := r.vaultAccount(ctx, v, asset)
	if err != nil {
		return st, nil
	}
	st.Reachable, st.AccountExists, st.Trustline = true, acct.Exists, acct.Trusts
	st.AssetBalance, st.NativeBalance = stroopString(acct.Balance), stroopString(acct.Native)
	if !acct.Trusts {
		st.TrustlineMissing = r.trustlineMissing(ctx, v.ID, acct)
	}
	return st, nil
}

package stellar

import (
	"context"
	"fmt"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/store"
)

// BaseReserve is the network's base reserve, in stroops (0.5 XLM on pubnet
// and testnet): an account must keep 2 of them plus one per subentry, and
// a trustline is one more subentry.
const BaseReserve = 5_000_000

// trustlineNeeds is the XLM (stroops) the account must hold to open a
// trustline: its reserve with one more subentry, and the changeTrust's fee
// at the network's minimum (a busy network's fee bid is higher).
func trustlineNeeds(acct Account) int64 {
	return (2+acct.SubEntries+1)*BaseReserve + txnbuild.MinBaseFee
}

// trustlineWaits reports that the vault's last changeTrust failed and the
// account's XLM has not moved since (beyond that transaction's own fee):
// signed again, it would fail the same way, and a failure in a ledger is
// charged each time. Any change of the balance (a top-up) tries again.
func (r *Rail) trustlineWaits(ctx context.Context, vaultID string, acct Account) (bool, error) {
	a, ok, err := r.DB.Chain().LastTrustlineAttempt(ctx, vaultID)
	if err != nil || !ok {
		return false, err
	}
	if a.State != store.SubmissionFailed && a.State != store.SubmissionRejected {
		return false, nil
	}
	return acct.Native == a.NativeBefore-a.Fee, nil
}

// trustlineMissing says why the vault's account lacks its trustline and
// what opens it, for the wallet view.
func (r *Rail) trustlineMissing(ctx context.Context, vaultID string, acct Account) string {
	need := trustlineNeeds(acct)
	switch {
	case !acct.Exists:
		return fmt.Sprintf("the account does not exist on the network yet: send it at least %s XLM (the base reserve of "+
			"2 × 0.5 XLM, 0.5 XLM for the trustline and the fee); payoutd then opens the trustline", stroopString(need))
	case acct.Native < need:
		return fmt.Sprintf("the account holds %s XLM, but opening the %s trustline needs at least %s XLM (the base reserve "+
			"0.5 XLM × (2 + %d entries + 1 for the trustline), and the fee): send it %s XLM more",
			stroopString(acct.Native), acct.Asset.Code, stroopString(need), acct.SubEntries, stroopString(need-acct.Native))
	}
	waits, err := r.trustlineWaits(ctx, vaultID, acct)
	if err == nil && waits {
		a, _, err := r.DB.Chain().LastTrustlineAttempt(ctx, vaultID)
		if err == nil {
			return fmt.Sprintf("the last changeTrust (%s) failed: %s; payoutd signs it again once the account's XLM balance changes",
				a.Hash, Explain(a.Result))
		}
	}
	return "payoutd opens it at the next chain sync (-stellar-sync-interval)"
}

package payout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// pays reports whether a transfer out of a vault pays what payout p would:
// its destination, currency, amount and memo. Close enough is a match:
// the comparison errs towards refusing to send p again.
func pays(m store.Movement, p store.Payment) bool {
	return m.Direction == store.MovementOut && m.Counterparty == p.DestinationAddress && m.Currency == p.Currency &&
		m.Amount == p.Amount && m.Memo == p.Memo
}

// PaidOutside is the first transfer out of p's vault, recorded from the
// chain and explained by no payout, that pays what p would. Sending p
// again (a retry, a release of its vault) would then pay it twice.
func PaidOutside(tx *store.Tx, p store.Payment) (store.Movement, bool, error) {
	if !p.Livemode || p.VaultID == "" {
		return store.Movement{}, false, nil
	}
	list, err := tx.Movements().UnexplainedMovements(p.VaultID)
	if err != nil {
		return store.Movement{}, false, err
	}
	m, ok := paidBy(p, list)
	return m, ok, nil
}

// paidBy is the first of the transfers that pays what p would.
func paidBy(p store.Payment, list []store.Movement) (store.Movement, bool) {
	for _, m := range list {
		if pays(m, p) {
			return m, true
		}
	}
	return store.Movement{}, false
}

// paidOutsideError names the transfer that may already have paid p and
// the command that records it.
func paidOutsideError(p store.Payment, m store.Movement) error {
	return apperr.Errorf(apperr.ErrInvalidState, "payout %s may already be paid: transaction %s (ledger %d) paid its destination, amount and memo "+
		"from its vault, and payoutd did not make it; if it paid this payout, run: payoutd payouts resolve %s --paid %s",
		p.ID, m.TxHash, m.Ledger, p.ID, m.TxHash)
}

// waitsToBeSent reports a payout of a vault that a release lets go out:
// signed anew once the vault signs again (COMPLIANCE_CHECK, PROCESSING) or
// retryable (FAILED but not cancelled, PENDING).
func waitsToBeSent(p store.Payment) bool {
	return p.Status == store.StatusComplianceCheck || p.Status == store.StatusProcessing || CanRetry(p) && !IsCancelled(p)
}

// Release ends a vault's quarantine after a person has looked (note says
// what they found). It is refused while a transfer out that payoutd did
// not make pays what a payout of the vault still to be sent would (that
// payout is resolved first, or it is paid twice), or while the vault's
// recorded movements have a gap. The transfers out no payout explains are
// booked as withdrawals outside payoutd, accepted by the person.
func Release(tx *store.Tx, vaultID, note string) (store.Quarantine, []store.Movement, error) {
	q, open, err := tx.Movements().VaultQuarantined(vaultID)
	if err != nil {
		return q, nil, err
	}
	if !open {
		return q, nil, apperr.Errorf(apperr.ErrInvalidState, "vault %s is not quarantined", vaultID)
	}
	t, err := tx.Movements().Track(vaultID)
	if err != nil {
		return q, nil, err
	}
	if t.Gap() {
		return q, nil, apperr.Errorf(apperr.ErrInvalidState, "vault %s's recorded movements have a gap (ledgers %d to %d): a transfer in it may have "+
			"paid a waiting payout; run payoutd vaults resync %s --from-ledger %d -stellar-rpc URL with an RPC server that keeps them first",
			vaultID, t.GapFrom, t.GapTo, vaultID, t.GapFrom)
	}
	waiting, err := tx.Movements().VaultPayments(vaultID)
	if err != nil {
		return q, nil, err
	}
	outside, err := tx.Movements().UnexplainedMovements(vaultID)
	if err != nil {
		return q, nil, err
	}
	var matches []string
	for _, p := range waiting {
		if !waitsToBeSent(p) {
			continue
		}
		if m, ok := paidBy(p, outside); ok {
			matches = append(matches, fmt.Sprintf("transaction %s paid payout %s's destination, amount and memo (run: payoutd payouts resolve %s --paid %s)",
				m.TxHash, p.ID, p.ID, m.TxHash))
		}
	}
	if len(matches) > 0 {
		slices.Sort(matches)
		return q, nil, apperr.Errorf(apperr.ErrInvalidState, "vault %s is not released: %s", vaultID, strings.Join(matches, "; "))
	}
	accepted, err := tx.Movements().AcceptMovements(vaultID, q.ID)
	if err != nil {
		return q, nil, err
	}
	q, err = tx.Movements().ReleaseQuarantine(vaultID, note)
	return q, accepted, err
}

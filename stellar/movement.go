package stellar

import (
	"fmt"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// movementOf is what transfer t means for vault v, whose account holds
// asset: money in (a deposit) or out, or nil when it neither debits nor
// credits the account (or both: a payment to itself moves nothing). The
// asset's issuer is the other side of a mint, burn or clawback.
func movementOf(t Transfer, v store.Vault, asset txnbuild.CreditAsset) (*store.Movement, error) {
	if t.Asset != asset.Code+":"+asset.Issuer {
		return nil, fmt.Errorf("event %s moves %s, not the vault's %s:%s", t.EventID, t.Asset, asset.Code, asset.Issuer)
	}
	in, out := t.To == v.Address, t.From == v.Address
	if in == out {
		return nil, nil
	}
	cur, ok := money.Lookup(v.Currency)
	if !ok {
		return nil, fmt.Errorf("vault %s: unknown currency %s", v.ID, v.Currency)
	}
	minor, _, err := FromStroops(t.Stroops, cur)
	if err != nil {
		return nil, err
	}
	m := &store.Movement{VaultID: v.ID, UserID: v.UserID, Livemode: v.Livemode, EventID: t.EventID, Kind: t.Name, Amount: minor,
		Stroops: t.Stroops, Currency: v.Currency, TxHash: t.TxHash, Ledger: t.Ledger, ClosedAt: t.ClosedAt, Memo: t.ToMuxedID}
	if in {
		m.Direction, m.Counterparty = store.MovementIn, t.From
	} else {
		m.Direction, m.Counterparty = store.MovementOut, t.To
		if t.IDMemo {
			// For a transfer out, an id is the receiver's muxed id or
			// the transaction's memo id: the event cannot tell which.
			m.MuxedID = t.ToMuxedID
		}
	}
	if m.Counterparty == "" {
		m.Counterparty = asset.Issuer
	}
	return m, nil
}

// explain ties an outgoing movement to the payout whose transaction it is:
// one of the vault's envelopes payoutd signed and stored before sending.
func explain(m *store.Movement, known map[string]store.Submission) {
	if s, ok := known[m.TxHash]; ok && m.Direction == store.MovementOut && s.VaultID == m.VaultID && s.Kind == store.SubmissionPayment {
		m.PaymentID = s.PaymentID
	}
}

// depositDescription is a deposit's line in the ledger.
func depositDescription(m store.Movement) string {
	return "Stellar deposit from " + m.Counterparty + " (" + m.TxHash + ")"
}

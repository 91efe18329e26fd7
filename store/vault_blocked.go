package store

import (
	"context"
	"time"
)

// BlockedVault is a vault whose account has a transaction in flight with
// no known outcome: its payout is UNKNOWN, and every later payout from the
// vault (and the chain sync's deposits) waits until that one is final.
type BlockedVault struct {
	VaultID   string
	UserID    string
	Livemode  bool
	PaymentID string
	Hash      string    // the transaction in flight
	Since     time.Time // when the payout became UNKNOWN
}

// BlockedVaults lists the blocked vaults, longest blocked first; userID
// "" lists every user's.
func (g Vaults) BlockedVaults(ctx context.Context, userID string) ([]BlockedVault, error) {
	db := g.db
	rows, err := db.query(ctx, `SELECT s.vault_id, p.user_id, p.livemode, p.id, s.hash, p.updated_at
		FROM stellar_submissions s JOIN payments p ON p.id = s.payment_id
		WHERE s.state = 'OPEN' AND p.status = ? AND (? = '' OR p.user_id = ?) ORDER BY p.updated_at, p.id`,
		StatusUnknown, userID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BlockedVault
	for rows.Next() {
		var b BlockedVault
		var since int64
		if err := rows.Scan(&b.VaultID, &b.UserID, &b.Livemode, &b.PaymentID, &b.Hash, &since); err != nil {
			return nil, err
		}
		b.Since = fromMS(since)
		out = append(out, b)
	}
	return out, rows.Err()
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"github.com/payoutd/payoutd/apperr"
)

// ChainRead is what one read of the network said of a vault's account.
type ChainRead struct {
	Exists bool
	Trusts bool  // holds a trustline for the vault's asset
	Seq    int64 // the account's last used sequence number
	// Balance is the trustline's balance in minor units of the vault's
	// currency (dust below a minor unit dropped).
	Balance int64
	// Ledger is the network's latest ledger when read; Modified the
	// ledger that last changed the account.
	Ledger   int64
	Modified int64
	// Unknown are the hashes of transactions from the account that
	// payoutd does not know, found in ledger Modified (looked up only when
	// the account has used a sequence number payoutd cannot account for).
	Unknown []string
}

// ChainSeen is the ledger in which payoutd first read the vault's account
// and its trustline (0: never).
type ChainSeen struct{ Account, Trustline int64 }

// Lacks names what a read that payoutd has seen before is missing: an
// RPC server's empty or partial answer, never an account gone to zero.
func (s ChainSeen) Lacks(c ChainRead) string {
	switch {
	case s.Account > 0 && !c.Exists:
		return "account"
	case s.Trustline > 0 && !c.Trusts:
		return "trustline"
	}
	return ""
}

// ChainSeen reads what payoutd has seen of the vault's account.
func (db *DB) ChainSeen(ctx context.Context, vaultID string) (ChainSeen, error) {
	return scanSeen(db.queryRow(ctx, seenSQL, vaultID))
}

const seenSQL = "SELECT account_seen, trustline_seen FROM vault_chain WHERE vault_id = ?"

func scanSeen(row rowScanner) (ChainSeen, error) {
	var s ChainSeen
	err := row.Scan(&s.Account, &s.Trustline)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	return s, err
}

// MarkSeen records that the account (and the trustline) were read in
// ledger; what was seen before keeps its first ledger.
func (tx *Tx) MarkSeen(vaultID string, ledger int64, account, trustline bool) error {
	seen, err := scanSeen(tx.queryRow(seenSQL, vaultID))
	if err != nil {
		return err
	}
	ledger = max(ledger, 1)
	next := seen
	if account && next.Account == 0 {
		next.Account = ledger
	}
	if trustline && next.Trustline == 0 {
		next.Trustline = ledger
	}
	if next == seen {
		return nil
	}
	_, err = tx.exec(`INSERT INTO vault_chain (vault_id, account_seen, trustline_seen, updated_at) VALUES (?,?,?,?)
		ON CONFLICT (vault_id) DO UPDATE SET account_seen = excluded.account_seen, trustline_seen = excluded.trustline_seen,
		updated_at = excluded.updated_at`, vaultID, next.Account, next.Trustline, ms(tx.now))
	return err
}

// seqMask keeps the ledger part of a sequence number: an account starts at
// its creating ledger's number shifted left 32 bits, so the low bits count
// the sequence numbers it has used since.
const seqMask = ^int64(0xFFFFFFFF)

// ExplainedSeq is the highest sequence number of an account that payoutd
// can account for, given the highest it knows it used (KnownSeq): no
// higher than that, or than the account's starting number if payoutd used
// none.
func ExplainedSeq(chain, known int64) int64 { return max(known, chain&seqMask) }

// SyncResult is what SyncVault did.
type SyncResult struct {
	Delta   int64 // posted: positive a deposit
	Skipped bool  // the mark moved or an envelope is in flight: nothing done
	// Quarantine is the vault's open quarantine, found or opened now
	// (Opened): nothing was posted.
	Quarantine *Quarantine
	Opened     bool
}

// SyncVault brings the vault's books level with its account as read after
// mark, in one transaction: a rise is posted as a deposit; an unexplained
// sequence number or a fall quarantines the vault and posts nothing (a
// fall that no payout explains is never booked silently). It does nothing
// while the mark moved or an envelope is in flight (the chain may be ahead
// of the books by a payout not yet recorded), or while the vault is
// quarantined. A read lacking what payoutd has seen before is refused as
// ErrRailUnavailable: an RPC server misanswering, not a balance of zero.
func (tx *Tx) SyncVault(vaultID string, c ChainRead, read SubmissionMark) (SyncResult, error) {
	still, err := tx.markStill(vaultID, read)
	if err != nil || !still {
		return SyncResult{Skipped: true}, err
	}
	seen, err := scanSeen(tx.queryRow(seenSQL, vaultID))
	if err != nil {
		return SyncResult{}, err
	}
	if what := seen.Lacks(c); what != "" {
		return SyncResult{}, apperr.Errorf(apperr.ErrRailUnavailable, "the Stellar RPC server's answer lacks vault %s's %s, which payoutd has read before", vaultID, what)
	}
	if err := tx.MarkSeen(vaultID, c.Ledger, c.Exists, c.Trusts); err != nil {
		return SyncResult{}, err
	}
	if q, open, err := tx.openQuarantine(vaultID); err != nil || open {
		return SyncResult{Skipped: true, Quarantine: &q}, err
	}
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", vaultID))
	if err != nil {
		return SyncResult{}, notFound(err, apperr.ErrWalletNotFound, "wallet")
	}
	// Payouts settled on chain but awaiting their INR value have left the
	// account but not yet the vault row.
	awaiting, err := tx.awaitingValue(vaultID)
	if err != nil {
		return SyncResult{}, err
	}
	known, err := tx.KnownSeq(vaultID)
	if err != nil {
		return SyncResult{}, err
	}
	delta := c.Balance + awaiting - v.Balance
	f := QuarantineFacts{ChainSeq: c.Seq, KnownSeq: ExplainedSeq(c.Seq, known), Ledger: c.Ledger, LastModified: c.Modified}
	if c.Exists && c.Seq > f.KnownSeq {
		f.Reasons, f.Hashes = append(f.Reasons, ReasonUnknownSequence), c.Unknown
	}
	// The first sync after a release judges the fall it accepted, whatever
	// it finds.
	allowance, _, err := tx.releasedAllowance(vaultID)
	if err != nil {
		return SyncResult{}, err
	}
	if delta < 0 {
		accepted, err := tx.acceptedFall(v, -delta, allowance)
		if err != nil {
			return SyncResult{}, err
		}
		if !accepted {
			f.Reasons, f.Shortfall = append(f.Reasons, ReasonUnexplainedDebit), -delta
		} else if len(f.Reasons) == 0 {
			return SyncResult{Delta: delta}, nil
		}
	}
	if len(f.Reasons) > 0 {
		q, opened, err := tx.quarantine(v, f)
		return SyncResult{Quarantine: &q, Opened: opened}, err
	}
	if delta > 0 {
		return SyncResult{Delta: delta}, tx.creditVault(v, delta, "Stellar deposit")
	}
	return SyncResult{}, nil
}

// BooksLevel reports whether the vault's books equal chainBalance (minor
// units), counting payouts settled on chain but awaiting their INR value,
// which have left the account but not yet the vault row.
func (db *DB) BooksLevel(ctx context.Context, vaultID string, chainBalance int64) (bool, error) {
	var level bool
	err := db.queryRow(ctx, `SELECT v.balance + coalesce((SELECT sum(p.amount) FROM payments p WHERE p.vault_id = v.id
		AND p.status = ? AND p.amount_inr IS NULL), 0) = ? FROM vaults v WHERE v.id = ?`, StatusConfirmed, chainBalance, vaultID).Scan(&level)
	return level, err
}

// acceptedFall books a fall of the vault's balance as a withdrawal outside
// payoutd if a person accepted it by releasing a quarantine that found at
// least that much, and the vault's reservations can take it.
func (tx *Tx) acceptedFall(v Vault, fall int64, q Quarantine) (bool, error) {
	if fall > q.Shortfall || v.Balance-fall < v.Reserved {
		return false, nil
	}
	return true, tx.debitVault(v, fall, "Stellar withdrawal outside payoutd, accepted on release of quarantine "+q.ID)
}

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

// BalanceBooks is what the books hold against a vault's account, read for
// the comparison of balances (the rail decides what a difference means).
type BalanceBooks struct {
	Vault Vault
	// Awaiting is what payouts settled on chain but awaiting their INR
	// value took from the account but not yet from the vault row.
	Awaiting int64
	// KnownSeq is the highest sequence number payoutd knows it used.
	KnownSeq int64
	// Accepted is the vault's latest released quarantine no comparison
	// has looked at yet (marked looked at now): its shortfall is a fall a
	// person accepted, at most once (zero Shortfall: none).
	Accepted Quarantine
	// Quarantine is the vault's open quarantine, if it has one.
	Quarantine *Quarantine
}

// ReadBalanceBooks reads the vault's books for a comparison with its
// account as read after mark, in tx, after recording what the read saw.
// ok is false while the mark moved or an envelope is in flight (the chain
// may be ahead of the books by a payout not yet recorded). A read lacking
// what payoutd has seen before is refused as ErrRailUnavailable: an RPC
// server misanswering, not a balance of zero.
func (tx *Tx) ReadBalanceBooks(vaultID string, c ChainRead, read SubmissionMark) (b BalanceBooks, ok bool, err error) {
	still, err := tx.markStill(vaultID, read)
	if err != nil || !still {
		return b, false, err
	}
	seen, err := scanSeen(tx.queryRow(seenSQL, vaultID))
	if err != nil {
		return b, false, err
	}
	if what := seen.Lacks(c); what != "" {
		return b, false, apperr.Errorf(apperr.ErrRailUnavailable, "the Stellar RPC server's answer lacks vault %s's %s, which payoutd has read before", vaultID, what)
	}
	if err := tx.MarkSeen(vaultID, c.Ledger, c.Exists, c.Trusts); err != nil {
		return b, false, err
	}
	if q, open, err := tx.openQuarantine(vaultID); err != nil || open {
		b.Quarantine = &q
		return b, err == nil, err
	}
	if b.Vault, err = scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", vaultID)); err != nil {
		return b, false, notFound(err, apperr.ErrWalletNotFound, "wallet")
	}
	if b.Awaiting, err = tx.awaitingValue(vaultID); err != nil {
		return b, false, err
	}
	if b.KnownSeq, err = tx.KnownSeq(vaultID); err != nil {
		return b, false, err
	}
	b.Accepted, _, err = tx.releasedAllowance(vaultID)
	return b, err == nil, err
}

// BookBalanceRise books a rise of the vault's balance as a deposit from
// nobody known (the comparison of balances cannot name a sender).
func (tx *Tx) BookBalanceRise(v Vault, delta int64) error {
	return tx.creditVault(v, delta, "Stellar deposit")
}

// BookAcceptedFall books a fall of the vault's balance as a withdrawal
// outside payoutd that a person accepted by releasing quarantine q.
func (tx *Tx) BookAcceptedFall(v Vault, fall int64, q Quarantine) error {
	return tx.debitVault(v, fall, "Stellar withdrawal outside payoutd, accepted on release of quarantine "+q.ID)
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

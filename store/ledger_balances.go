package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Account balances move once per batch. Every payout's settlement posts to
// the same few accounts (its vault's, settlement, FX clearing, tax
// reserve), so moving each account's balance row per posting would hit the
// same rows once per payout on the single writer. Instead a transaction
// adds its postings up in memory; when it succeeds they join the batch's
// (batchRows), and the committer moves each account once, just before
// COMMIT, in the same SQLite transaction as the postings.
//
// Unlike the counts, balances are read inside transactions (the tax
// reserve's draw reads the reserve on the writer). So before any statement
// that names ledger_accounts, the moves still pending — the batch's so far
// and the transaction's own — are written first. If the transaction then
// fails, its writes are undone with it and the batch's share goes back to
// pending (WithTx).

type balanceKey struct{ account, currency string }

type balanceMove struct{ amount, entries int64 }

// moveBalance adds a posting to the account's pending balance move.
func (tx *Tx) moveBalance(account, currency string, amount int64) {
	if tx.balances == nil {
		tx.balances = map[balanceKey]balanceMove{}
	}
	k := balanceKey{account, currency}
	m := tx.balances[k]
	m.amount += amount
	m.entries++
	tx.balances[k] = m
}

// releaseBalancesFor writes the pending balance moves before a statement
// that names ledger_accounts; a failure fails the transaction.
func (tx *Tx) releaseBalancesFor(query string) error {
	if len(tx.balances) == 0 && len(tx.batch.balances) == 0 || !strings.Contains(query, "ledger_accounts") {
		return nil
	}
	if tx.drawn == nil {
		tx.drawn = map[balanceKey]balanceMove{}
	}
	pending := tx.batch.balanceMoves()
	addMoves(tx.drawn, pending)
	addMoves(pending, tx.balances)
	err := writeBalances(tx.ctx, tx.x, pending)
	tx.batch.balances = nil
	clear(tx.balances)
	if err != nil {
		tx.broken = err
	}
	return err
}

// restoreBalances gives the batch back the moves a failed transaction
// wrote for it; the transaction's rollback undid the writes.
func (b *batchRows) restoreBalances(tx *Tx) {
	if len(tx.drawn) > 0 {
		addMoves(b.balanceMoves(), tx.drawn)
	}
}

func (b *batchRows) balanceMoves() map[balanceKey]balanceMove {
	if b.balances == nil {
		b.balances = map[balanceKey]balanceMove{}
	}
	return b.balances
}

func addMoves(to, from map[balanceKey]balanceMove) {
	for k, m := range from {
		t := to[k]
		t.amount += m.amount
		t.entries += m.entries
		to[k] = t
	}
}

// writeBalances moves each account once. An account missing in that
// currency fails the batch; its members then run again one by one, and the
// transaction that posted to it fails by itself.
func writeBalances(ctx context.Context, ex sqlitex.Execer, moves map[balanceKey]balanceMove) error {
	for k, m := range moves {
		if m.entries == 0 {
			continue
		}
		res, err := ex.ExecContext(ctx, "UPDATE ledger_accounts SET balance = balance + ?, entries = entries + ? WHERE id = ? AND currency = ?",
			m.amount, m.entries, k.account, k.currency)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("ledger: account %s in %s does not exist", k.account, k.currency)
		}
	}
	return nil
}

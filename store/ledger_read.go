package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// LedgerAccountInfo is one ledger account as the API shows it.
type LedgerAccountInfo struct {
	ID        string
	UserID    string
	Kind      string
	Currency  string
	Ref       string
	Balance   int64
	CreatedAt time.Time
}

const ledgerAccountCols = "id, user_id, kind, currency, ref, balance, created_at"

func scanLedgerAccount(row interface{ Scan(...any) error }) (LedgerAccountInfo, error) {
	var a LedgerAccountInfo
	var created int64
	err := row.Scan(&a.ID, &a.UserID, &a.Kind, &a.Currency, &a.Ref, &a.Balance, &created)
	a.CreatedAt = fromMS(created)
	return a, err
}

// ListLedgerAccounts lists the user's own ledger accounts.
func (g Ledger) ListLedgerAccounts(ctx context.Context, userID string) ([]LedgerAccountInfo, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT "+ledgerAccountCols+" FROM ledger_accounts WHERE user_id = ? ORDER BY created_at, id", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []LedgerAccountInfo{}
	for rows.Next() {
		a, err := scanLedgerAccount(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// FindLedgerAccount returns the user's account; system accounts and other
// users' accounts are not found.
func (g Ledger) FindLedgerAccount(ctx context.Context, userID, id string) (LedgerAccountInfo, error) {
	db := g.db
	a, err := scanLedgerAccount(db.r.QueryRowContext(ctx, "SELECT "+ledgerAccountCols+" FROM ledger_accounts WHERE id = ? AND user_id = ?", id, userID))
	return a, notFound(err, apperr.ErrNotFound, "ledger account")
}

// UserLedgerAccount finds one of the user's accounts by kind and currency.
func (g Ledger) UserLedgerAccount(ctx context.Context, userID, kind, currency string) (LedgerAccountInfo, error) {
	db := g.db
	a, err := scanLedgerAccount(db.r.QueryRowContext(ctx, "SELECT "+ledgerAccountCols+
		" FROM ledger_accounts WHERE user_id = ? AND kind = ? AND currency = ? AND ref = ''", userID, kind, currency))
	return a, notFound(err, apperr.ErrNotFound, "ledger account")
}

// JournalEntry is one posting on an account, with the payment context the
// API shows beside it.
type JournalEntry struct {
	ID           string
	Amount       int64 // signed: credit > 0
	Currency     string
	Description  string
	PaymentID    string
	FIRAID       string
	ReconciledAt *time.Time
	CreatedAt    time.Time
}

// EntryFilter selects entries of one account, newest first; From and To are
// inclusive bounds (zero = open).
type EntryFilter struct {
	AccountID string
	From, To  time.Time
	After     string // an entry id: only the entries after it are listed
	Page      int
	Limit     int
}

var entryOrder = keyset{from: "ledger_postings lp", col: "lp.", id: "id", keys: []string{"created_at"}}

// ListEntries returns one page of an account's entries (and the entry after
// it, see pageArgs) and the total.
func (g Ledger) ListEntries(ctx context.Context, f EntryFilter) ([]JournalEntry, int, error) {
	db := g.db
	where, args := "lp.account_id = ?", []any{f.AccountID}
	if !f.From.IsZero() {
		where += " AND lp.created_at >= ?"
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		where += " AND lp.created_at <= ?"
		args = append(args, ms(f.To))
	}
	var total int
	countSQL, countArgs := "SELECT count(*) FROM ledger_postings lp WHERE "+where, args
	if f.From.IsZero() && f.To.IsZero() {
		// The maintained count: flat however long the account's history is.
		countSQL, countArgs = "SELECT entries FROM ledger_accounts WHERE id = ?", []any{f.AccountID}
	}
	if err := db.r.QueryRowContext(ctx, countSQL, countArgs...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, entryOrder, f.After, "lp.account_id = ?", []any{f.AccountID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	rows, err := db.query(ctx, `SELECT lp.id, lp.amount, lp.currency, lt.description, lt.payment_id,
		coalesce(f.id, ''), r.reconciled_at, lp.created_at
		FROM ledger_postings lp JOIN ledger_txns lt ON lt.id = lp.txn_id
		LEFT JOIN firas f ON f.payment_id = lt.payment_id AND lt.payment_id != ''
		LEFT JOIN reconciliations r ON r.payment_id = lt.payment_id AND lt.payment_id != '' AND r.status = 'RECONCILED'
		WHERE `+where+entryOrder.orderBy()+" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []JournalEntry{}
	for rows.Next() {
		var e JournalEntry
		var created int64
		var reconciled sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Amount, &e.Currency, &e.Description, &e.PaymentID, &e.FIRAID, &reconciled, &created); err != nil {
			return nil, 0, err
		}
		e.ReconciledAt, e.CreatedAt = nullMS(reconciled), fromMS(created)
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// ReservedByCurrency sums the user's vault reservations per currency: the
// payouts confirmed but not yet settled.
func (g Ledger) ReservedByCurrency(ctx context.Context, userID string) (map[string]int64, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT currency, sum(reserved) FROM vaults WHERE user_id = ? GROUP BY currency", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var c string
		var n int64
		if err := rows.Scan(&c, &n); err != nil {
			return nil, err
		}
		out[c] = n
	}
	return out, rows.Err()
}

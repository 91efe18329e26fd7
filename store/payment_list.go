package store

import (
	"context"
	"strings"
	"time"
)

// PaymentFilter selects a page of a user's payments, newest first (or
// largest first, by Sort).
type PaymentFilter struct {
	UserID     string
	Status     string
	Currency   string
	InvoiceRef string // exactly this invoice reference
	ClientID   string
	// Search matches payments whose client name or invoice reference
	// contains it (ASCII letters in any case), or whose amount is one of
	// Amounts.
	Search  string
	Amounts []AmountMatch
	// Retryable keeps the FAILED payments a retry can send again: those
	// that reserved funds once (a cancelled payout never did).
	Retryable bool
	From, To  time.Time // created_at bounds, inclusive
	Sort      string    // SortDate (the default) or SortAmount
	After     string    // a payment id: only the payments after it are listed
	Before    string    // a payment id: only the payments before it, nearest first
	Page      int
	Limit     int
	// SkipTotal: the caller needs no total (an export reading page after
	// page), so none is counted.
	SkipTotal bool
}

// AmountMatch is an amount searched for: Minor units of one of Currencies.
type AmountMatch struct {
	Minor      int64
	Currencies []string
}

// The orders a payment list may have.
const (
	SortDate   = "date"
	SortAmount = "amount"
)

var (
	paymentOrder       = keyset{from: "payments", id: "id", keys: []string{"created_at"}}
	paymentAmountOrder = keyset{from: "payments", id: "id", keys: []string{"amount"}}
)

// where is the filter's condition, without the cursor. With narrow (see
// searchNarrows) the search's candidates are read first, through
// payment_search and payments_user_amount, and the rows they name are the
// only ones the condition is tried on; the condition itself is the same.
func (f PaymentFilter) where(narrow bool) (string, []any) {
	where, args := "user_id = ?", []any{f.UserID}
	if narrow {
		// The unary + keeps the user's indexes from serving the query, so
		// the candidates drive it however the planner guesses their number.
		cand, cargs, _ := f.candidates()
		where, args = "+user_id = ? AND rowid IN ("+cand+")", append(args, cargs...)
	}
	add := func(cond string, a ...any) {
		where += " AND " + cond
		args = append(args, a...)
	}
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	if f.Currency != "" {
		add("currency = ?", f.Currency)
	}
	if f.InvoiceRef != "" {
		add("invoice_ref = ?", f.InvoiceRef)
	}
	if f.ClientID != "" {
		// client_id != '' lets the partial index payments_user_client
		// serve it: SQLite uses a partial index only when the query
		// implies its condition, and a bound ? could be ''.
		add("client_id = ? AND client_id != ''", f.ClientID)
	}
	if f.Retryable {
		add("vault_id IS NOT NULL")
	}
	if f.Search != "" || len(f.Amounts) > 0 {
		var or []string
		var orArgs []any
		if f.Search != "" {
			like := "%" + likeEscaper.Replace(f.Search) + "%"
			or = append(or, `counterparty_name LIKE ? ESCAPE '\'`, `invoice_ref LIKE ? ESCAPE '\'`)
			orArgs = append(orArgs, like, like)
		}
		for _, a := range f.Amounts {
			or = append(or, amountMatch(a))
			orArgs = append(orArgs, amountArgs(a)...)
		}
		add("("+strings.Join(or, " OR ")+")", orArgs...)
	}
	if !f.From.IsZero() {
		add("created_at >= ?", ms(f.From))
	}
	if !f.To.IsZero() {
		add("created_at <= ?", ms(f.To))
	}
	return where, args
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// counted reports whether the maintained counts answer the filter's total.
func (f PaymentFilter) counted() bool {
	return f.Currency == "" && f.InvoiceRef == "" && f.ClientID == "" && f.Search == "" && len(f.Amounts) == 0 &&
		!f.Retryable && f.From.IsZero() && f.To.IsZero()
}

// ListPayments returns one page (and the row after it, see pageArgs) and the
// number of payments the filters match, whatever the cursor. With Before,
// the page is the rows just before that payment, in the list's order.
func (g Payments) ListPayments(ctx context.Context, f PaymentFilter) ([]Payment, int, error) {
	narrow, err := g.db.searchNarrows(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return g.db.listPayments(ctx, f, narrow)
}

// listPayments is ListPayments with the search read through its candidates
// or not: either way the same page and total.
func (db *DB) listPayments(ctx context.Context, f PaymentFilter, narrow bool) ([]Payment, int, error) {
	where, args := f.where(narrow)
	var total int
	countSQL, countArgs := "SELECT count(*) FROM payments WHERE "+where, args
	if f.counted() {
		// The maintained counts: flat however many payments the user has.
		countSQL, countArgs = "SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = ?", []any{f.UserID}
		if f.Status != "" {
			countSQL += " AND status = ?"
			countArgs = append(countArgs, f.Status)
		}
	}
	if f.SkipTotal {
		total = -1
	} else if err := db.queryRow(ctx, countSQL, countArgs...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order := paymentOrder
	if f.Sort == SortAmount {
		order = paymentAmountOrder
	}
	cursor := f.After
	if f.Before != "" {
		cursor, order.asc = f.Before, !order.asc // walk back from it, then turn the page round
	}
	if cursor != "" {
		cond, cargs, err := db.afterCursor(ctx, order, cursor, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	out, err := db.payments(ctx, "SELECT "+paymentCols+" FROM payments WHERE "+where+
		order.orderBy()+" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	if f.Before != "" {
		reverseBefore(out, f.Limit)
	}
	return out, total, nil
}

// reverseBefore turns a page read backwards from a Before cursor into the
// list's order. Its extra row (one beyond the page, see pageArgs) is the
// earliest in that order: it stays last, where a caller looks for it.
func reverseBefore(out []Payment, limit int) {
	page := out[:min(len(out), limit)]
	for i, j := 0, len(page)-1; i < j; i, j = i+1, j-1 {
		page[i], page[j] = page[j], page[i]
	}
}

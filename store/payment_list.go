package store

import (
	"context"
	"time"
)

// PaymentFilter selects a page of a user's payments, newest first.
type PaymentFilter struct {
	UserID     string
	Status     string
	Currency   string
	InvoiceRef string
	From, To   time.Time // created_at bounds, inclusive
	After      string    // a payment id: only the payments after it are listed
	Page       int
	Limit      int
}

var paymentOrder = keyset{from: "payments", id: "id", keys: []string{"created_at"}}

// ListPayments returns one page (and the row after it, see pageArgs) and the
// number of payments the filters match, whatever the cursor.
func (db *DB) ListPayments(ctx context.Context, f PaymentFilter) ([]Payment, int, error) {
	where, args := "user_id = ?", []any{f.UserID}
	add := func(cond string, arg any) {
		where += " AND " + cond
		args = append(args, arg)
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
	if !f.From.IsZero() {
		add("created_at >= ?", ms(f.From))
	}
	if !f.To.IsZero() {
		add("created_at <= ?", ms(f.To))
	}
	var total int
	countSQL, countArgs := "SELECT count(*) FROM payments WHERE "+where, args
	if f.Currency == "" && f.InvoiceRef == "" && f.From.IsZero() && f.To.IsZero() {
		// The maintained counts: flat however many payments the user has.
		countSQL, countArgs = "SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = ?", []any{f.UserID}
		if f.Status != "" {
			countSQL += " AND status = ?"
			countArgs = append(countArgs, f.Status)
		}
	}
	if err := db.queryRow(ctx, countSQL, countArgs...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, paymentOrder, f.After, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	out, err := db.payments(ctx, "SELECT "+paymentCols+" FROM payments WHERE "+where+
		paymentOrder.orderBy()+" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

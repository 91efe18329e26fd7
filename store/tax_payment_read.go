package store

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
)

// FindTaxPayment returns the user's tax payment; another user's is not found.
func (g Tax) FindTaxPayment(ctx context.Context, userID, id string) (TaxPayment, error) {
	db := g.db
	p, err := scanTaxPayment(db.queryRow(ctx, "SELECT "+taxPaymentCols+" FROM tax_payments WHERE id = ? AND user_id = ?", id, userID))
	return p, notFound(err, apperr.ErrNotFound, "tax payment")
}

// TaxPaymentFilter selects a page of a user's tax payments, newest challan
// first; FY "" is every year.
type TaxPaymentFilter struct {
	UserID string
	FY     string
	After  string // a tax payment id: only the entries after it are listed
	Page   int
	Limit  int
}

var taxPaymentOrder = keyset{from: "tax_payments", id: "id", keys: []string{"paid_on", "created_at"}}

// ListTaxPayments returns one page (and the entry after it, see pageArgs),
// reversed entries included, and the total matching. A user records a
// handful of challans a year, so the total is counted rather than
// maintained.
func (g Tax) ListTaxPayments(ctx context.Context, f TaxPaymentFilter) ([]TaxPayment, int, error) {
	db := g.db
	where, args := "user_id = ?", []any{f.UserID}
	if f.FY != "" {
		where += " AND fy = ?"
		args = append(args, f.FY)
	}
	var total int
	if err := db.queryRow(ctx, "SELECT count(*) FROM tax_payments WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, taxPaymentOrder, f.After, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	out, err := db.taxPayments(ctx, "WHERE "+where+taxPaymentOrder.orderBy()+" LIMIT ? OFFSET ?",
		append(args, pageArgs(f.Page, f.Limit)...)...)
	return out, total, err
}

// TaxPaymentsOfYear returns the payments of a financial year that count
// (not reversed), oldest challan first: the liability's and the ITR-4's.
func (g Tax) TaxPaymentsOfYear(ctx context.Context, userID, fy string) ([]TaxPayment, error) {
	db := g.db
	return taxPaymentsOfYear(ctx, db.r, userID, fy)
}

func taxPaymentsOfYear(ctx context.Context, q reader, userID, fy string) ([]TaxPayment, error) {
	return taxPayments(ctx, q, "WHERE user_id = ? AND fy = ? AND reversed_at IS NULL ORDER BY paid_on, created_at, id", userID, fy)
}

func (db *DB) taxPayments(ctx context.Context, tail string, args ...any) ([]TaxPayment, error) {
	return taxPayments(ctx, db.r, tail, args...)
}

func taxPayments(ctx context.Context, q reader, tail string, args ...any) ([]TaxPayment, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+taxPaymentCols+" FROM tax_payments "+tail, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []TaxPayment{}
	for rows.Next() {
		p, err := scanTaxPayment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

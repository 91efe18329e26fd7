package store

import (
	"strconv"
)

// IGSTPercent is the IGST rate a cross-border service receipt attracts when
// no valid LUT covers it (DESIGN.md §7; facts/india.md §3 marks 18% for IT
// and consulting UNCONFIRMED).
const IGSTPercent = 18

// taxDaySelect sums reconciled receipts into tax_days rows: by IST
// settlement day (19800 s = UTC+05:30, DESIGN.md §5), and cross-border or
// not (counterparty country present and not India, DESIGN.md §5). The INR is
// what the ledger credited (the amount the reconciliation matched), and IGST
// is charged per receipt, one invoice each, half-up to the paisa, then
// summed. The FROM and WHERE clauses are appended by the caller.
var taxDaySelect = `SELECT r.user_id, date(r.settled_at / 1000 + 19800, 'unixepoch') AS day,
	p.counterparty_country NOT IN ('', 'IN') AS cross_border, count(*), sum(r.amount_inr),
	sum((r.amount_inr * ` + strconv.Itoa(IGSTPercent) + ` + 50) / 100), min(r.settled_at), max(r.settled_at) `

const taxDayInsert = `INSERT INTO tax_days (user_id, day, cross_border, txn_count, amount_inr, igst_18,
	first_settled_at, last_settled_at) `

// RefreshTaxFigures brings the user's maintained tax aggregates (tax_days) up
// to date from RECONCILED reconciliations only. Payments reconciled since the
// last refresh wait in tax_pending (queued by triggers in the reconciling
// transaction); they are added to their days in one statement and the queue
// is emptied, so the cost follows the number of new reconciliations, not the
// user's history, and a second run finds nothing to do. A user without
// refresh state (the first refresh, or after an out-of-band edit of a
// reconciled row) is rebuilt from scratch.
//
// Stamping the refresh time first tells which case applies: a row updated
// means the user has refresh state (one statement where a read and an
// upsert were two).
func (tx *Tx) RefreshTaxFigures(userID string) error {
	res, err := tx.ExecContext(tx.ctx, "UPDATE tax_refresh_state SET refreshed_at = ? WHERE user_id = ?", ms(tx.now), userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return tx.addPendingTaxDays(userID)
	}
	if err := tx.rebuildTaxDays(userID); err != nil {
		return err
	}
	_, err = tx.ExecContext(tx.ctx, "INSERT INTO tax_refresh_state (user_id, refreshed_at) VALUES (?, ?)", userID, ms(tx.now))
	return err
}

// addPendingTaxDays adds the queued payments to their days.
func (tx *Tx) addPendingTaxDays(userID string) error {
	_, err := tx.ExecContext(tx.ctx, taxDayInsert+taxDaySelect+`FROM tax_pending t
		JOIN reconciliations r ON r.payment_id = t.payment_id JOIN payments p ON p.id = r.payment_id
		WHERE t.user_id = ? AND r.status = 'RECONCILED'
		GROUP BY 2, 3
		ON CONFLICT (user_id, day, cross_border) DO UPDATE SET
			txn_count = txn_count + excluded.txn_count,
			amount_inr = amount_inr + excluded.amount_inr,
			igst_18 = igst_18 + excluded.igst_18,
			first_settled_at = min(first_settled_at, excluded.first_settled_at),
			last_settled_at = max(last_settled_at, excluded.last_settled_at)`, userID)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(tx.ctx, "DELETE FROM tax_pending WHERE user_id = ?", userID)
	return err
}

// rebuildTaxDays replaces every aggregate of the user from the reconciled
// rows (the reconciliations_user index range), emptying the queue they
// already include.
func (tx *Tx) rebuildTaxDays(userID string) error {
	for _, q := range []string{"DELETE FROM tax_days WHERE user_id = ?", "DELETE FROM tax_pending WHERE user_id = ?"} {
		if _, err := tx.ExecContext(tx.ctx, q, userID); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(tx.ctx, taxDayInsert+taxDaySelect+`FROM reconciliations r JOIN payments p ON p.id = r.payment_id
		WHERE r.user_id = ? AND r.status = 'RECONCILED'
		GROUP BY 2, 3`, userID)
	return err
}

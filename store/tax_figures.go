package store

import (
	"fmt"
	"strconv"
)

// IGSTPercent is the IGST rate a cross-border service receipt attracts when
// no valid LUT covers it (18% for IT and consulting is an assumption,
// not a confirmed rate).
const IGSTPercent = 18

// A receipt's tax day, kind and IGST as SQL over its settlement time (ms),
// counterparty country and INR: the IST settlement day (19800 s =
// UTC+05:30); cross-border or not (counterparty country
// present and not India); IGST charged per receipt, one
// invoice each, half-up to the paisa. A rebuild and a single payout's
// addition both use these, so they cannot disagree.
func taxDayOf(settledAt string) string    { return "date(" + settledAt + " / 1000 + 19800, 'unixepoch')" }
func crossBorderOf(country string) string { return country + " NOT IN ('', 'IN')" }
func igstOf(inr string) string            { return "(" + inr + " * " + strconv.Itoa(IGSTPercent) + " + 50) / 100" }

// taxDaySelect sums reconciled receipts into tax_days rows; the INR is what
// the ledger credited (the amount the reconciliation matched). The FROM and
// WHERE clauses are appended by the caller.
var taxDaySelect = `SELECT r.user_id, ` + taxDayOf("r.settled_at") + ` AS day, ` +
	crossBorderOf("p.counterparty_country") + ` AS cross_border, count(*), sum(r.amount_inr), sum(` +
	igstOf("r.amount_inr") + `), min(r.settled_at), max(r.settled_at) `

const taxDayInsert = `INSERT INTO tax_days (user_id, day, cross_border, txn_count, amount_inr, igst_18,
	first_settled_at, last_settled_at) `

// taxDayAdd adds the inserted sums to the days' existing rows.
const taxDayAdd = `
	ON CONFLICT (user_id, day, cross_border) DO UPDATE SET
		txn_count = txn_count + excluded.txn_count,
		amount_inr = amount_inr + excluded.amount_inr,
		igst_18 = igst_18 + excluded.igst_18,
		first_settled_at = min(first_settled_at, excluded.first_settled_at),
		last_settled_at = max(last_settled_at, excluded.last_settled_at)`

// taxDayAddOne adds one receipt: ?1 user, ?2 settled_at, ?3 counterparty
// country, ?4 INR.
var taxDayAddOne = taxDayInsert + `VALUES (?1, ` + taxDayOf("?2") + `, ` + crossBorderOf("?3") + `, 1, ?4, ` +
	igstOf("?4") + `, ?2, ?2)` + taxDayAdd

// gst_moves rows of invoiced receipts: +1 on the invoice date, -1 on the
// IST settlement day. Both halves share the cross-border and IGST
// expressions of tax_days, so adding a move to tax_days can only shift a
// receipt between days, never change it.
const gstMoveInsert = `INSERT INTO gst_moves (user_id, day, cross_border, txn_count, amount_inr, igst_18, by_invoice) `

const gstMoveAdd = `
	ON CONFLICT (user_id, day, cross_border) DO UPDATE SET
		txn_count = txn_count + excluded.txn_count,
		amount_inr = amount_inr + excluded.amount_inr,
		igst_18 = igst_18 + excluded.igst_18,
		by_invoice = by_invoice + excluded.by_invoice`

// gstMoveAddOne moves one receipt: ?1 user, ?2 settled_at, ?3 counterparty
// country, ?4 INR, ?5 invoice date. When the two days are the same, the
// second row updates the first and only by_invoice changes.
var gstMoveAddOne = gstMoveInsert + `VALUES
	(?1, ?5, ` + crossBorderOf("?3") + `, 1, ?4, ` + igstOf("?4") + `, 1),
	(?1, ` + taxDayOf("?2") + `, ` + crossBorderOf("?3") + `, -1, -?4, -` + igstOf("?4") + `, 0)` + gstMoveAdd

// gstMoveSelect moves the invoiced receipts of a FROM … WHERE clause
// (aliases r and p) that the caller appends, followed by gstMoveGroup.
var gstMoveSelect = `SELECT user_id, day, cb, sum(n), sum(amt), sum(igst), sum(inv) FROM (
	SELECT r.user_id, p.invoice_date AS day, ` + crossBorderOf("p.counterparty_country") + ` AS cb, 1 AS n,
		r.amount_inr AS amt, ` + igstOf("r.amount_inr") + ` AS igst, 1 AS inv %[1]s AND p.invoice_date != ''
	UNION ALL
	SELECT r.user_id, ` + taxDayOf("r.settled_at") + `, ` + crossBorderOf("p.counterparty_country") + `, -1,
		-r.amount_inr, -` + igstOf("r.amount_inr") + `, 0 %[1]s AND p.invoice_date != ''
) GROUP BY user_id, day, cb`

// addTaxDay adds one receipt, reconciled by this transaction's insert, to
// its tax day, and moves it to its invoice date for GST when it has one. A
// user without refresh state gets the rows as well: their next refresh
// rebuilds every day from reconciliations anyway.
func (tx *Tx) addTaxDay(r Reconciliation, counterpartyCountry, invoiceDate string) error {
	if _, err := tx.exec(taxDayAddOne, r.UserID, ms(r.SettledAt), counterpartyCountry, r.AmountINR); err != nil {
		return err
	}
	if invoiceDate == "" {
		return nil
	}
	_, err := tx.exec(gstMoveAddOne, r.UserID, ms(r.SettledAt), counterpartyCountry, r.AmountINR, invoiceDate)
	return err
}

// RefreshTaxFigures brings the user's maintained tax aggregates (tax_days and gst_moves) up
// to date from RECONCILED reconciliations only, and stamps asOf. A payout
// reconciled when it settles is already in its day (recordReconciliation);
// one reconciled later by hand waits in tax_pending (queued, and the user
// flagged, by a trigger in the resolving transaction) and is added to its
// day here in one statement, the queue emptied, so the cost follows the
// number of new reconciliations, not the user's history, and a second run
// finds nothing to do. A user without refresh state (the first refresh, or
// after an out-of-band edit of a reconciled row) is rebuilt from scratch.
//
// The common case, state present and nothing queued, is the first UPDATE
// alone; row counts tell the cases apart without a read.
func (tx *Tx) RefreshTaxFigures(userID string) error {
	now := ms(tx.now)
	res, err := tx.exec("UPDATE tax_refresh_state SET refreshed_at = ? WHERE user_id = ? AND NOT queued", now, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	res, err = tx.exec("UPDATE tax_refresh_state SET refreshed_at = ?, queued = 0 WHERE user_id = ?", now, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return tx.addPendingTaxDays(userID)
	}
	if err := tx.rebuildTaxDays(userID); err != nil {
		return err
	}
	_, err = tx.exec("INSERT INTO tax_refresh_state (user_id, refreshed_at) VALUES (?, ?)", userID, now)
	return err
}

// addPendingTaxDays adds the queued payments to their days.
func (tx *Tx) addPendingTaxDays(userID string) error {
	const from = `FROM tax_pending t
		JOIN reconciliations r ON r.payment_id = t.payment_id JOIN payments p ON p.id = r.payment_id
		WHERE t.user_id = ? AND r.status = 'RECONCILED'`
	_, err := tx.exec(taxDayInsert+taxDaySelect+from+` GROUP BY 2, 3`+taxDayAdd, userID)
	if err != nil {
		return err
	}
	if _, err = tx.exec(gstMoveInsert+fmt.Sprintf(gstMoveSelect, from)+gstMoveAdd, userID, userID); err != nil {
		return err
	}
	_, err = tx.exec("DELETE FROM tax_pending WHERE user_id = ?", userID)
	return err
}

// rebuildTaxDays replaces every aggregate of the user from the reconciled
// rows (the reconciliations_user index range), emptying the queue they
// already include.
func (tx *Tx) rebuildTaxDays(userID string) error {
	for _, q := range []string{"DELETE FROM tax_days WHERE user_id = ?", "DELETE FROM gst_moves WHERE user_id = ?",
		"DELETE FROM tax_pending WHERE user_id = ?"} {
		if _, err := tx.exec(q, userID); err != nil {
			return err
		}
	}
	const from = `FROM reconciliations r JOIN payments p ON p.id = r.payment_id
		WHERE r.user_id = ? AND r.status = 'RECONCILED'`
	if _, err := tx.exec(taxDayInsert+taxDaySelect+from+` GROUP BY 2, 3`, userID); err != nil {
		return err
	}
	_, err := tx.exec(gstMoveInsert+fmt.Sprintf(gstMoveSelect, from), userID, userID)
	return err
}

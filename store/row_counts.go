package store

import "context"

// row_counts keeps, per user, how many rows each list holds, so the audit
// log, event and FIRA lists answer "total" without counting the user's
// whole history (flat at 10^6 payouts, as GET /payments is through
// payment_counts). Kinds: "audit" and "audit:<action>" (GET
// /compliance/audit, unfiltered and by action), "events" and
// "events:<type>" (GET /events), "firas" (GET /compliance/fira). A list
// filtered any other way (time range, resource, cursor) still counts its
// range: the rows it selects, not the user's history.

// Row kinds of row_counts.
const (
	kindAudit  = "audit"
	kindEvents = "events"
	kindFIRAs  = "firas"
)

// countRow adds one row of kind (and of kind:sub when sub is set) to the
// user's counts. System rows (no user) are listed by nobody.
func (tx *Tx) countRow(userID, kind, sub string) {
	if userID == "" {
		return
	}
	tx.count(rowCounts, userID, kind, 1)
	if sub != "" {
		tx.count(rowCounts, userID, kind+":"+sub, 1)
	}
}

// listTotal is a list's total: its maintained count when the list is
// filtered at most by sub (an audit action, an event type), else countSQL
// over the rows the filters select.
func (db *DB) listTotal(ctx context.Context, maintained bool, userID, kind, sub, countSQL string, args []any) (int, error) {
	var n int
	if !maintained {
		err := db.r.QueryRowContext(ctx, countSQL, args...).Scan(&n)
		return n, err
	}
	if sub != "" {
		kind += ":" + sub
	}
	err := db.r.QueryRowContext(ctx, "SELECT coalesce(sum(n), 0) FROM row_counts WHERE user_id = ? AND kind = ?", userID, kind).Scan(&n)
	return n, err
}

// rowCountsActual is what row_counts should hold, counted from the rows:
// the version-4 migration fills the table with it and payoutd check
// compares the two.
const rowCountsActual = `WITH actual (user_id, kind, n) AS (
	SELECT user_id, 'audit', count(*) FROM audit_log WHERE user_id != '' GROUP BY user_id
	UNION ALL SELECT user_id, 'audit:' || action, count(*) FROM audit_log WHERE user_id != '' GROUP BY user_id, action
	UNION ALL SELECT user_id, 'events', count(*) FROM events WHERE user_id != '' GROUP BY user_id
	UNION ALL SELECT user_id, 'events:' || type, count(*) FROM events WHERE user_id != '' GROUP BY user_id, type
	UNION ALL SELECT user_id, 'firas', count(*) FROM firas WHERE user_id != '' GROUP BY user_id) `

// countListRows fills row_counts from the rows (a version-3 file).
func countListRows(ctx context.Context, tx *Tx) error {
	_, err := tx.exec(rowCountsActual + "INSERT INTO row_counts (user_id, kind, n) SELECT user_id, kind, n FROM actual WHERE true " +
		"ON CONFLICT (user_id, kind) DO UPDATE SET n = excluded.n")
	return err
}

// recountListRows sets row_counts from the rows, for tools that write
// history rows in bulk (the bench's preseed).
func (tx *Tx) recountListRows() error { return countListRows(tx.ctx, tx) }

package store

import (
	"context"
	"fmt"
	"time"
)

// Check verifies the invariants `payoutd check` promises: the audit chain is
// intact, every payout that owes a step has a job that will take it, no
// vault is overdrawn, and every reservation is backed by a payment that
// holds it. A quarantined vault is listed too, with why: it waits for a
// person.
func (g Health) Check(ctx context.Context) ([]string, error) {
	db := g.db
	var problems []string
	qs, err := db.Movements().Quarantines(ctx)
	if err != nil {
		return nil, err
	}
	for _, q := range qs {
		problems = append(problems, fmt.Sprintf("%s (since %s)", q.Describe(), q.CreatedAt.Format(time.RFC3339)))
	}
	troubles, err := db.Movements().TrackTroubles(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range troubles {
		problems = append(problems, "live vault "+t.VaultID+": "+t.Describe())
	}
	v, err := db.History().VerifyAudit(ctx)
	if err != nil {
		return nil, err
	}
	if !v.Intact {
		problems = append(problems, fmt.Sprintf("audit chain broken at seq %d: %s", v.BrokenAt, v.Reason))
	}
	stalled, err := db.stalledProblems(ctx)
	if err != nil {
		return nil, err
	}
	problems = append(problems, stalled...)
	for _, q := range ledgerChecks {
		found, err := db.checkRows(ctx, q.sql, q.format)
		if err != nil {
			return nil, err
		}
		problems = append(problems, found...)
	}
	rows, err := db.r.QueryContext(ctx, `SELECT v.id, v.reserved, coalesce(sum(p.reserved), 0) FROM vaults v
		LEFT JOIN payments p ON p.vault_id = v.id GROUP BY v.id HAVING v.reserved != coalesce(sum(p.reserved), 0)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var vr, pr int64
		if err := rows.Scan(&id, &vr, &pr); err != nil {
			return nil, err
		}
		problems = append(problems, fmt.Sprintf("vault %s reserves %d but its payments hold %d", id, vr, pr))
	}
	return problems, rows.Err()
}

// ledgerChecks are the double-entry invariants, each a query that returns
// the offending rows as (id, a, b).
var ledgerChecks = []struct{ sql, format string }{
	{`SELECT txn_id || ' ' || currency, sum(amount), 0 FROM ledger_postings GROUP BY txn_id, currency HAVING sum(amount) != 0`,
		"journal transaction %s: postings sum to %d, not %d"},
	{`SELECT a.id, a.balance, coalesce(sum(p.amount), 0) FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_id = a.id
		GROUP BY a.id HAVING a.balance != coalesce(sum(p.amount), 0)`,
		"ledger account %s: balance %d but its postings sum to %d"},
	{`SELECT a.id, a.entries, count(p.id) FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_id = a.id
		GROUP BY a.id HAVING a.entries != count(p.id)`,
		"ledger account %s: %d entries recorded but %d postings"},
	{`SELECT c.user_id || ' ' || c.status, c.n, count(p.id) FROM payment_counts c
		LEFT JOIN payments p ON p.user_id = c.user_id AND p.status = c.status GROUP BY c.user_id, c.status HAVING c.n != count(p.id)`,
		"payment count %s: %d recorded but %d payments"},
	{rowCountsActual + `SELECT k.user_id || ' ' || k.kind, coalesce(c.n, 0), coalesce(a.n, 0)
		FROM (SELECT user_id, kind FROM actual UNION SELECT user_id, kind FROM row_counts) k
		LEFT JOIN row_counts c ON c.user_id = k.user_id AND c.kind = k.kind
		LEFT JOIN actual a ON a.user_id = k.user_id AND a.kind = k.kind
		WHERE coalesce(c.n, 0) != coalesce(a.n, 0)`,
		"list count %s: %d recorded but %d rows"},
	{`SELECT v.id, v.balance, a.balance FROM vaults v JOIN ledger_accounts a ON a.kind = 'vault' AND a.ref = v.id WHERE v.balance != a.balance`,
		"vault %s: balance %d but its ledger account holds %d"},
}

func (db *DB) checkRows(ctx context.Context, query, format string) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		var a, b int64
		if err := rows.Scan(&id, &a, &b); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf(format, id, a, b))
	}
	return out, rows.Err()
}

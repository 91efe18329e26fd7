package store

import (
	"context"
	"fmt"
)

// Check verifies the invariants `payoutd check` promises: the audit chain is
// intact, no vault is overdrawn, and every reservation is backed by a
// payment that holds it.
func (db *DB) Check(ctx context.Context) ([]string, error) {
	var problems []string
	v, err := db.VerifyAudit(ctx)
	if err != nil {
		return nil, err
	}
	if !v.Intact {
		problems = append(problems, fmt.Sprintf("audit chain broken at seq %d: %s", v.BrokenAt, v.Reason))
	}
	rows, err := db.R.QueryContext(ctx, `SELECT v.id, v.reserved, coalesce(sum(p.reserved), 0) FROM vaults v
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

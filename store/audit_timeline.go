package store

import "context"

// resourceAuditSQL reads one resource's audit rows, oldest first, through
// the index on resource_id (whose entries are in seq order already): the
// unary + keeps SQLite off the user's index, which would walk the user's
// whole log to find them, slower the older the resource.
const resourceAuditSQL = "SELECT " + auditCols + " FROM audit_log WHERE resource_id = ? AND +user_id = ? ORDER BY seq LIMIT ?"

// ResourceAudit returns up to limit of the user's audit rows of one
// resource, in the order they were chained: a payout's timeline.
func (g History) ResourceAudit(ctx context.Context, userID, resourceID string, limit int) ([]AuditRow, error) {
	db := g.db
	rows, err := db.query(ctx, resourceAuditSQL, resourceID, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanAudit(rows)
}

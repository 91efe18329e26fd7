package store

import "context"

// ClientInvoices returns the newest n invoices issued to one of the user's
// clients, and how many there are.
func (db *DB) ClientInvoices(ctx context.Context, userID, clientID string, n int) ([]Invoice, int, error) {
	var total int
	err := db.queryRow(ctx, "SELECT count(*) FROM invoices WHERE user_id = ? AND client_id = ?", userID, clientID).Scan(&total)
	if err != nil {
		return nil, 0, err
	}
	out, err := invoices(ctx, db.r, "WHERE i.user_id = ? AND i.client_id = ? ORDER BY i.date DESC, i.seq DESC LIMIT ?", userID, clientID, n)
	return out, total, err
}

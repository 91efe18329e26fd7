package store

import "context"

// The bench measures the file's own limit with the server's pragmas and
// commit path on a scratch table of a database of its own.

// CreateScratchTable creates the scratch table.
func (g Bench) CreateScratchTable(ctx context.Context) error {
	db := g.db
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec("CREATE TABLE scratch_rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
		return err
	})
}

// WriteScratchRows writes n rows of the scratch table in one transaction,
// durable when it returns.
func (g Bench) WriteScratchRows(ctx context.Context, n int) error {
	db := g.db
	return db.WithTx(ctx, func(tx *Tx) error {
		for range n {
			if _, err := tx.exec("INSERT INTO scratch_rows (payload) VALUES (?)", "pay_0123456789abcdefghjkmnpqrs"); err != nil {
				return err
			}
		}
		return nil
	})
}

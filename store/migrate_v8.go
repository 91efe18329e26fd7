package store

import "context"

// operatorColumns adds version 8's payment columns to a file that has the
// table (schema.sql creates a new one with them): the memo type given at
// initiate and the reason a payout waits for a person. Each is added only
// when missing, so a re-run changes nothing.
func operatorColumns(ctx context.Context, tx *Tx) error {
	for _, c := range []struct{ column, decl string }{
		{"memo_type", "TEXT NOT NULL DEFAULT ''"},
		{"attention", "TEXT NOT NULL DEFAULT ''"},
		{"attention_at", "INTEGER"},
	} {
		if err := addColumn(tx, "payments", c.column, c.decl); err != nil {
			return err
		}
	}
	return nil
}

// addColumn adds column to table when the table exists without it.
func addColumn(tx *Tx, table, column, decl string) error {
	var tables, columns int
	if err := tx.queryRow(`SELECT
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?),
		(SELECT count(*) FROM pragma_table_info(?) WHERE name = ?)`, table, table, column).Scan(&tables, &columns); err != nil {
		return err
	}
	if tables == 0 || columns == 1 {
		return nil
	}
	_, err := tx.exec("ALTER TABLE " + table + " ADD COLUMN " + column + " " + decl)
	return err
}

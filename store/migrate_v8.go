package store

import "context"

// operatorColumns adds version 8's payment columns to a file that has the
// table (schema.sql creates a new one with them): the memo type given at
// initiate and the reason a payout waits for a person. Each is added only
// when missing, so a re-run changes nothing.
func operatorColumns(ctx context.Context, tx *Tx) error {
	return addColumns(tx,
		columnDef{"payments", "memo_type", "TEXT NOT NULL DEFAULT ''"},
		columnDef{"payments", "attention", "TEXT NOT NULL DEFAULT ''"},
		columnDef{"payments", "attention_at", "INTEGER"})
}

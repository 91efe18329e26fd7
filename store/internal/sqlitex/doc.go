// Package sqlitex is the one door to payoutd's SQLite file. Everything
// that makes writes fast lives here and nowhere else: the group committer
// (many transactions share one COMMIT, each in its own savepoint), the
// WAL fsync off the write connection, background checkpoints, a
// statement cache on every connection and a direct path for the
// committer's statements. Callers see only DB.WithTx, a Tx with the usual
// Exec/Query methods and two hooks for work a batch does once (Hooks). A transaction's rules are those of any SQLite transaction: what
// it writes it can read back, and it commits or rolls back alone.
package sqlitex

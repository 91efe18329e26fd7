package sqlitex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
)

// ErrReadOnly is a write asked of a file opened with OpenReadOnly.
var ErrReadOnly = errors.New("store: the database was opened read-only")

// OpenReadOnly opens the file for reading alone: SQLite's mode=ro, so
// nothing is written to the file, not even a checkpoint, whatever runs on
// it. There is no writer and no committer; WithTx fails with ErrReadOnly.
// The pool is not query_only, which would refuse VACUUM INTO (the backup's
// copy, written to another file).
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "temp_store(MEMORY)")
	r := sql.OpenDB(&connector{dsn: uri(path, q), drv: sqliteDriver})
	r.SetMaxOpenConns(2)
	var file string
	if err := r.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil {
		r.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &DB{r: r, path: path, file: file}, nil
}

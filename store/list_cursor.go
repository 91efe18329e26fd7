package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/payoutd/payoutd/apperr"
)

// Every list pages two ways: by page number (OFFSET) and
// by keyset cursor (after=<id of the last item seen>), which does not drift
// when items are added while a client pages. The list functions read one row
// past the page (pageArgs) so the caller can tell whether another follows.

// keyset is a list's order: its sort columns, the last of them the id
// unless the leading ones are unique on their own.
type keyset struct {
	from   string   // the table the list reads, with its alias
	col    string   // column prefix: the alias and a dot, or ""
	id     string   // the id clients see and send back as after
	keys   []string // the sort columns before the id; none when the id alone orders
	unique bool     // keys alone order the list (no ties to break by id)
	asc    bool     // oldest first (else newest first)
}

// cols are the columns that order the list, with their alias.
func (k keyset) cols() []string {
	cols := make([]string, 0, len(k.keys)+1)
	for _, c := range k.keys {
		cols = append(cols, k.col+c)
	}
	if len(k.keys) == 0 || !k.unique {
		cols = append(cols, k.col+k.id)
	}
	return cols
}

// orderBy is the ORDER BY clause of k's order, so the list's order and its
// cursor condition come from the same columns.
func (k keyset) orderBy() string {
	dir := " DESC"
	if k.asc {
		dir = " ASC"
	}
	return " ORDER BY " + strings.Join(k.cols(), dir+", ") + dir
}

// afterCursor is the condition selecting the rows that follow the row with
// id after in k's order. scope is the list's owner filter, so an id from
// another user's list is an unknown cursor, never a position in this one.
func (db *DB) afterCursor(ctx context.Context, k keyset, after, scope string, scopeArgs []any) (string, []any, error) {
	cols := k.cols()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	err := db.queryRow(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+k.from+" WHERE "+k.col+k.id+" = ? AND "+scope,
		append([]any{after}, scopeArgs...)...).Scan(ptrs...)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"after": "is not the id of an item of this list"}}
	}
	if err != nil {
		return "", nil, err
	}
	op := " < "
	if k.asc {
		op = " > "
	}
	if len(cols) == 1 {
		return cols[0] + op + "?", vals, nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
	return "(" + strings.Join(cols, ", ") + ")" + op + "(" + marks + ")", vals, nil
}

// pageArgs are the LIMIT and OFFSET arguments of a page: one row more than
// limit, so the caller learns whether another page follows.
func pageArgs(page, limit int) []any {
	return []any{limit + 1, (page - 1) * limit}
}

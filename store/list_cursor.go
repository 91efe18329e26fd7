package store

import (
	"context"
	"database/sql"
	"errors"
)

// Every list pages two ways: by page number (OFFSET, what SPEC.md gives) and
// by keyset cursor (after=<id of the last item seen>), which does not drift
// when items are added while a client pages. The list functions read one row
// past the page (pageArgs) so the caller can tell whether another follows.

// keyset is a list's order: the leading sort column, then the id.
type keyset struct {
	from   string // the table the list reads, with its alias
	col    string // column prefix: the alias and a dot, or ""
	id     string // the id clients see and send back as after
	key    string // the leading sort column; "" when the id alone orders
	unique bool   // key alone orders the list (no ties to break by id)
	asc    bool   // oldest first (else newest first)
}

// afterCursor is the condition selecting the rows that follow the row with
// id after in k's order. scope is the list's owner filter, so an id from
// another user's list is an unknown cursor, never a position in this one.
func (db *DB) afterCursor(ctx context.Context, k keyset, after, scope string, scopeArgs []any) (string, []any, error) {
	sel := k.col + k.id
	if k.key != "" {
		sel = k.col + k.key
	}
	var key any
	err := db.QueryRowContext(ctx, "SELECT "+sel+" FROM "+k.from+" WHERE "+k.col+k.id+" = ? AND "+scope,
		append([]any{after}, scopeArgs...)...).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, &Error{Code: ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"after": "is not the id of an item of this list"}}
	}
	if err != nil {
		return "", nil, err
	}
	op := " < "
	if k.asc {
		op = " > "
	}
	switch {
	case k.key == "":
		return k.col + k.id + op + "?", []any{key}, nil
	case k.unique:
		return k.col + k.key + op + "?", []any{key}, nil
	}
	return "(" + k.col + k.key + ", " + k.col + k.id + ")" + op + "(?, ?)", []any{key, after}, nil
}

// pageArgs are the LIMIT and OFFSET arguments of a page: one row more than
// limit, so the caller learns whether another page follows.
func pageArgs(page, limit int) []any {
	return []any{limit + 1, (page - 1) * limit}
}

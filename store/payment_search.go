package store

import (
	"context"
	"strings"
	"unicode/utf8"
)

// amountMatch is the condition that a payment is of the amount searched
// for; amountArgs are its arguments.
func amountMatch(a AmountMatch) string {
	return "(amount = ? AND currency IN (" + marks(len(a.Currencies)) + "))"
}

func amountArgs(a AmountMatch) []any {
	args := []any{a.Minor}
	for _, c := range a.Currencies {
		args = append(args, c)
	}
	return args
}

// candidates is a query of the rowids of a superset of the payments the
// search matches, when there is one that reads fewer than all of the
// user's payments: the payments whose trigram index (payment_search) holds
// every run of three characters of the text, case folded (beyond ASCII
// too, so never fewer than LIKE finds), and those of each amount searched
// for. Text of fewer than three characters has no run of three to look up;
// LIKE reads text only up to a NUL and bytes that are no UTF-8 its own way,
// so text holding either has no candidates it could be sure of.
func (f PaymentFilter) candidates() (string, []any, bool) {
	if f.Search == "" && len(f.Amounts) == 0 || f.Search != "" && !trigramIndexed(f.Search) {
		return "", nil, false
	}
	var parts []string
	var args []any
	if f.Search != "" {
		parts = append(parts, "SELECT rowid FROM payment_search WHERE payment_search MATCH ?")
		args = append(args, ftsPhrase(f.Search))
	}
	for _, a := range f.Amounts {
		parts = append(parts, "SELECT rowid FROM payments WHERE user_id = ? AND "+amountMatch(a))
		args = append(args, f.UserID)
		args = append(args, amountArgs(a)...)
	}
	return strings.Join(parts, " UNION ALL "), args, true
}

// trigramIndexed reports whether text has runs of three characters the
// trigram index holds and LIKE reads as the index does: at least three
// characters, valid UTF-8, no NUL.
func trigramIndexed(text string) bool {
	return utf8.ValidString(text) && !strings.ContainsRune(text, 0) && utf8.RuneCountInString(text) >= 3
}

// ftsPhrase is text as one FTS5 phrase: every run of it, in order.
func ftsPhrase(text string) string { return `"` + strings.ReplaceAll(text, `"`, `""`) + `"` }

// narrowShare: a search reads its candidates (where) when they are fewer
// than one in narrowShare of the user's payments. Each candidate costs a
// lookup of its row, several times a step of walking the user's payments
// in order; and when matches are that many, the walk finds a page sooner
// than reading and sorting every candidate would.
const narrowShare = 8

// searchNarrows reports whether the filter's search is read through its
// candidates (where).
func (db *DB) searchNarrows(ctx context.Context, f PaymentFilter) (bool, error) {
	cand, args, ok := f.candidates()
	if !ok {
		return false, nil
	}
	var payments, n int
	err := db.queryRow(ctx, "SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = ?", f.UserID).Scan(&payments)
	if err != nil || payments < narrowShare {
		return false, err
	}
	limit := payments / narrowShare
	err = db.queryRow(ctx, "SELECT count(*) FROM ("+cand+" LIMIT ?)", append(args, limit)...).Scan(&n)
	return n < limit, err
}

// likeEscaper makes a search's % and _ match themselves.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

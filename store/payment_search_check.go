package store

import (
	"context"
	"database/sql"
	"fmt"
	"unicode/utf8"
)

// searchSample is how many payouts, the oldest and the newest, a look at
// the search index tries.
const searchSample = 100

// searchIndexMisses counts the sampled payouts payment_search does not
// find under a run of their own text. The index names payouts by rowid:
// a file whose rowids were renumbered (rebuilt from an SQL dump, say)
// keeps an index that points at the wrong payouts, and a search would
// then miss payouts that hold its text.
func searchIndexMisses(query func(string, ...any) (*sql.Rows, error), one func(string, ...any) rowScanner) (missed, sampled int, err error) {
	rows, err := query(`SELECT rowid, counterparty_name, invoice_ref FROM
		(SELECT rowid, counterparty_name, invoice_ref FROM payments ORDER BY rowid LIMIT ?)
		UNION SELECT rowid, counterparty_name, invoice_ref FROM
		(SELECT rowid, counterparty_name, invoice_ref FROM payments ORDER BY rowid DESC LIMIT ?)`, searchSample/2, searchSample/2)
	if err != nil {
		return 0, 0, err
	}
	type probe struct {
		rowid int64
		run   string
	}
	var probes []probe
	for rows.Next() {
		var p probe
		var name, ref string
		if err := rows.Scan(&p.rowid, &name, &ref); err != nil {
			rows.Close()
			return 0, 0, err
		}
		if p.run = indexedRun(name); p.run == "" {
			p.run = indexedRun(ref)
		}
		if p.run != "" {
			probes = append(probes, p)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	for _, p := range probes {
		var n int
		if err := one(`SELECT count(*) FROM payment_search WHERE payment_search MATCH ? AND rowid = ?`,
			ftsPhrase(p.run), p.rowid).Scan(&n); err != nil {
			return 0, 0, err
		}
		if n == 0 {
			missed++
		}
	}
	return missed, len(probes), nil
}

// indexedRun is the first three characters of text, the run the trigram
// index holds for it, or "" when text has no run it indexes.
func indexedRun(text string) string {
	if !trigramIndexed(text) {
		return ""
	}
	end := 0
	for range 3 {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	return text[:end]
}

// searchIndexProblems is check's finding on the search index, if any.
func (db *DB) searchIndexProblems(ctx context.Context) ([]string, error) {
	missed, sampled, err := searchIndexMisses(
		func(q string, args ...any) (*sql.Rows, error) { return db.r.QueryContext(ctx, q, args...) },
		func(q string, args ...any) rowScanner { return db.r.QueryRowContext(ctx, q, args...) })
	if err != nil || missed == 0 {
		return nil, err
	}
	return []string{fmt.Sprintf("payment_search: %d of %d payouts sampled are not found under their own client name or invoice reference "+
		"(the index no longer matches the payouts, as after a rebuild from an SQL dump); searches would miss payouts: "+
		"run payoutd migrate, which rebuilds it", missed, sampled)}, nil
}

// keepSearchIndex rebuilds payment_search when a sample shows it no
// longer matches the payouts.
func keepSearchIndex(tx *Tx) error {
	missed, _, err := searchIndexMisses(tx.query, tx.queryRow)
	if err != nil || missed == 0 {
		return err
	}
	return paymentSearchRebuild(tx.ctx, tx)
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
)

// LiveAsset is the Stellar asset a currency's live vaults hold.
type LiveAsset struct{ Code, Issuer string }

func (a LiveAsset) String() string { return a.Code + ":" + a.Issuer }

// BindNetwork records the Stellar network (its passphrase) and each
// currency's asset that the live books are in, at the first live start
// and for each currency as it is first configured; from then on a start
// with another network, or another asset for a recorded currency, is
// refused with both named: testnet money must never reach live books and
// tax figures, nor one issuer's dollars be counted as another's.
func (g ChainTx) BindNetwork(passphrase string, assets map[string]LiveAsset) error {
	tx := g.tx
	var recorded string
	err := tx.queryRow("SELECT passphrase FROM live_network WHERE id = 1").Scan(&recorded)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.exec("INSERT INTO live_network (id, passphrase, created_at) VALUES (1, ?, ?)", passphrase, ms(tx.now)); err != nil {
			return err
		}
	case err != nil:
		return err
	case recorded != passphrase:
		return fmt.Errorf("this database's live books are on the Stellar network %q, but -stellar-network is %q: "+
			"start with -stellar-network %q, or use a new database for the other network", recorded, passphrase, recorded)
	}
	currencies := make([]string, 0, len(assets))
	for c := range assets {
		currencies = append(currencies, c)
	}
	sort.Strings(currencies)
	for _, c := range currencies {
		want := assets[c]
		var got LiveAsset
		err := tx.queryRow("SELECT code, issuer FROM live_assets WHERE currency = ?", c).Scan(&got.Code, &got.Issuer)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := tx.exec("INSERT INTO live_assets (currency, code, issuer, created_at) VALUES (?,?,?,?)",
				c, want.Code, want.Issuer, ms(tx.now)); err != nil {
				return err
			}
		case err != nil:
			return err
		case got != want:
			return fmt.Errorf("this database's live %s vaults hold the Stellar asset %s, but -stellar-assets maps %s to %s: "+
				"start with %s=%s, or use a new database for the other asset", c, got, c, want, c, got)
		}
	}
	return nil
}

// BoundNetwork is the Stellar network passphrase and the assets the live
// books are bound to ("" and none before the first live start).
func (g Chain) BoundNetwork(ctx context.Context) (string, map[string]LiveAsset, error) {
	db := g.db
	var passphrase string
	err := db.queryRow(ctx, "SELECT passphrase FROM live_network WHERE id = 1").Scan(&passphrase)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	rows, err := db.query(ctx, "SELECT currency, code, issuer FROM live_assets ORDER BY currency")
	if err != nil {
		return "", nil, err
	}
	defer rows.Close()
	assets := map[string]LiveAsset{}
	for rows.Next() {
		var c string
		var a LiveAsset
		if err := rows.Scan(&c, &a.Code, &a.Issuer); err != nil {
			return "", nil, err
		}
		assets[c] = a
	}
	return passphrase, assets, rows.Err()
}

// LiveCurrencies lists the currencies of the live vaults: the assets the
// books are bound to are theirs only.
func (g Chain) LiveCurrencies(ctx context.Context) ([]string, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT DISTINCT currency FROM vaults WHERE livemode = 1 ORDER BY currency")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

package store

import (
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
func (tx *Tx) BindNetwork(passphrase string, assets map[string]LiveAsset) error {
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

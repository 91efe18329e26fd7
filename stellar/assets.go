package stellar

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// Assets maps a vault currency to the Stellar asset its vault holds.
type Assets map[string]txnbuild.CreditAsset

// Circle issues USDC and EURC on Stellar from these accounts (Circle's
// published contract addresses); they are the defaults so that a vault in
// USD or EUR works without configuration.
var defaultAssets = map[string]string{
	network.TestNetworkPassphrase: "USD=USDC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5," +
		"EUR=EURC:GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO",
	network.PublicNetworkPassphrase: "USD=USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN," +
		"EUR=EURC:GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2",
}

// ParseAssets reads -stellar-assets ("USD=USDC:G…,EUR=EURC:G…") over the
// network's defaults; an entry replaces the default for its currency.
func ParseAssets(passphrase, spec string) (Assets, error) {
	out := Assets{}
	for _, s := range []string{defaultAssets[passphrase], spec} {
		for _, kv := range strings.Split(s, ",") {
			if kv = strings.TrimSpace(kv); kv == "" {
				continue
			}
			cur, asset, err := parseAsset(kv)
			if err != nil {
				return nil, fmt.Errorf("-stellar-assets: %w", err)
			}
			out[cur] = asset
		}
	}
	return out, nil
}

func parseAsset(kv string) (string, txnbuild.CreditAsset, error) {
	cur, a, ok := strings.Cut(kv, "=")
	code, issuer, ok2 := strings.Cut(a, ":")
	if !ok || !ok2 {
		return "", txnbuild.CreditAsset{}, fmt.Errorf("entry %q: want CURRENCY=CODE:ISSUER", kv)
	}
	c, known := money.Lookup(cur)
	if !known {
		return "", txnbuild.CreditAsset{}, fmt.Errorf("entry %q: unknown currency %q", kv, cur)
	}
	if c.Exponent > Decimals {
		return "", txnbuild.CreditAsset{}, fmt.Errorf("entry %q: %s has more decimals than Stellar's %d", kv, cur, Decimals)
	}
	if len(code) < 1 || len(code) > 12 || strings.Trim(code, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return "", txnbuild.CreditAsset{}, fmt.Errorf("entry %q: asset code %q must be 1 to 12 letters or digits", kv, code)
	}
	if !strkey.IsValidEd25519PublicKey(issuer) {
		return "", txnbuild.CreditAsset{}, fmt.Errorf("entry %q: issuer %q is not a Stellar account (G…)", kv, issuer)
	}
	return cur, txnbuild.CreditAsset{Code: code, Issuer: issuer}, nil
}

// For returns the asset of a vault currency, or an error naming the flag.
func (a Assets) For(currency string) (txnbuild.CreditAsset, error) {
	asset, ok := a[currency]
	if !ok {
		return asset, fmt.Errorf("no Stellar asset is configured for %s; add %s=CODE:ISSUER to -stellar-assets", currency, currency)
	}
	return asset, nil
}

// String lists the mapping, sorted, in the flag's own syntax.
func (a Assets) String() string {
	var parts []string
	for cur, as := range a {
		parts = append(parts, cur+"="+as.Code+":"+as.Issuer)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Bound is the mapping as the store binds the live books to it.
func (a Assets) Bound() map[string]store.LiveAsset {
	out := map[string]store.LiveAsset{}
	for cur, as := range a {
		out[cur] = store.LiveAsset{Code: as.Code, Issuer: as.Issuer}
	}
	return out
}

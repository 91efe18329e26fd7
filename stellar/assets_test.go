package stellar

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/network"
)

func TestParseAssets(t *testing.T) {
	const other = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5"
	for _, tc := range []struct {
		name, passphrase, spec string
		want                   string // Assets.String()
		err                    string
	}{
		{"TestnetDefaults", network.TestNetworkPassphrase, "",
			"EUR=EURC:GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO,USD=USDC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5", ""},
		{"PubnetDefaults", network.PublicNetworkPassphrase, "",
			"EUR=EURC:GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2,USD=USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN", ""},
		{"PrivateNetworkNoDefaults", "My Network ; 2026", "GBP=GBPT:" + other, "GBP=GBPT:" + other, ""},
		{"OverrideOne", network.TestNetworkPassphrase, "USD=USDX:" + other,
			"EUR=EURC:GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO,USD=USDX:" + other, ""},
		{"ErrUnknownCurrency", network.TestNetworkPassphrase, "XYZ=ABC:" + other, "", "unknown currency"},
		{"ErrShape", network.TestNetworkPassphrase, "USD", "", "CURRENCY=CODE:ISSUER"},
		{"ErrCode", network.TestNetworkPassphrase, "USD=TOOLONGASSETCODE:" + other, "", "1 to 12"},
		{"ErrIssuerChecksum", network.TestNetworkPassphrase, "USD=USDC:" + other[:55] + "B", "", "not a Stellar account"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			a, err := ParseAssets(tc.passphrase, tc.spec)
			if tc.err != "" {
				is.True(err != nil && strings.Contains(err.Error(), tc.err))
				return
			}
			is.NoErr(err)
			is.Equal(a.String(), tc.want)
		})
	}
	t.Run("ErrNoAssetNamesFlag", func(t *testing.T) {
		is := is.New(t)
		_, err := Assets{}.For("GBP")
		is.True(err != nil && strings.Contains(err.Error(), "-stellar-assets"))
	})
}

func TestPassphrase(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"", network.TestNetworkPassphrase, ""},
		{"testnet", network.TestNetworkPassphrase, ""},
		{"pubnet", network.PublicNetworkPassphrase, ""},
		{"Standalone Network ; February 2017", "Standalone Network ; February 2017", ""},
		{"devnet", "", "neither"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			p, err := Passphrase(tc.in)
			is.Equal(p, tc.want)
			is.Equal(err != nil, tc.err != "")
		})
	}
}

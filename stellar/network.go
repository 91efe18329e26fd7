package stellar

import (
	"fmt"
	"strings"

	"github.com/stellar/go-stellar-sdk/network"
)

// Passphrase resolves -stellar-network: the names testnet and pubnet, or a
// passphrase given in full (a private network).
func Passphrase(name string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "testnet":
		return network.TestNetworkPassphrase, nil
	case "pubnet", "public", "mainnet":
		return network.PublicNetworkPassphrase, nil
	}
	if !strings.Contains(name, " ") {
		return "", fmt.Errorf("-stellar-network: %q is neither testnet, pubnet nor a network passphrase", name)
	}
	return name, nil
}

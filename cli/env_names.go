package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// knownEnv is every environment variable a payoutd flag reads (each flag's
// usage says "env NAME"; TestKnownEnvIsEveryFlagsEnv holds the two
// together).
var knownEnv = []string{
	"PAYOUTD_ADDR", "PAYOUTD_BASE_URL", "PAYOUTD_DB", "PAYOUTD_JOB_TIMEOUT", "PAYOUTD_LOG_LEVEL", "PAYOUTD_MASTER_KEY",
	"PAYOUTD_METRICS_ADDR", "PAYOUTD_MODE", "PAYOUTD_OPERATOR", "PAYOUTD_RATES", "PAYOUTD_RATES_MAX_AGE", "PAYOUTD_RATES_REFRESH",
	"PAYOUTD_RATES_URL", "PAYOUTD_RATE_LIMITS", "PAYOUTD_SANDBOX_PRIVATE_WEBHOOKS", "PAYOUTD_SANDBOX_UNKNOWN_WINDOW",
	"PAYOUTD_SHUTDOWN_GRACE", "PAYOUTD_SMTP_FROM", "PAYOUTD_SMTP_URL", "PAYOUTD_STELLAR_ASSETS", "PAYOUTD_STELLAR_FEE_PERCENTILE", "PAYOUTD_STELLAR_MAX_FEE",
	"PAYOUTD_STELLAR_NETWORK", "PAYOUTD_STELLAR_RPC", "PAYOUTD_STELLAR_SYNC_INTERVAL", "PAYOUTD_STELLAR_TX_TIMEOUT",
	"PAYOUTD_TRUSTED_PROXIES", "PAYOUTD_WEBHOOK_RETRIES", "PAYOUTD_WORKERS",
}

// environ is the process's environment; tests hand in their own.
var environ = os.Environ

// checkEnvNames refuses a variable that is not one of payoutd's but lies
// within two edits of one (PAYOUTD_SHUTDOWN_GRAEC, PAYOUT_DB): set, it
// would be ignored silently and its flag keep its default. Variables
// further from every name (other programs', scripts' own) are not ours to
// judge.
func checkEnvNames(env []string) error {
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(strings.ToUpper(name), "PAYOUT") || slices.Contains(knownEnv, name) {
			continue
		}
		if near := nearest(name, knownEnv); near != "" {
			return fmt.Errorf("%s is not a payoutd variable: did you mean %s (the -%s flag)? Rename or unset it",
				name, near, strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(near, "PAYOUTD_")), "_", "-"))
		}
	}
	return nil
}

// nearest is the name in names closest to s, if within two edits (case
// aside), else "".
func nearest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToUpper(s), strings.ToUpper(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

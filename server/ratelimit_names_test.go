package server_test

import (
	"slices"
	"testing"

	"github.com/payoutd/payoutd/server"
)

// TestLimitNames: the names -rate-limits accepts include the named limits
// and each route's pattern.
func TestLimitNames(t *testing.T) {
	t.Parallel()
	names := server.LimitNames()
	for _, want := range []string{"initiate", "confirm", "itr4_export", "auth-failures", "GET /api/v1/payments"} {
		if !slices.Contains(names, want) {
			t.Errorf("LimitNames lacks %q: %v", want, names)
		}
	}
}

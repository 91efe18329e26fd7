package console

import (
	"net/http"
	"strings"
	"testing"

	"github.com/payoutd/payoutd/india"
)

// TestTaxPageSaysTheRegistrationDateIsAssumed: with a GSTIN and no date
// of registration the Tax page says what payoutd assumed and how to
// replace it; with the date entered it says nothing of the kind.
func TestTaxPageSaysTheRegistrationDateIsAssumed(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	patch := func(body string) {
		t.Helper()
		if st, b := h.api("PATCH", "/api/v1/profile", key, body); st != http.StatusOK {
			t.Fatalf("PATCH /profile: %d %s", st, b)
		}
	}
	patch(`{"pan":"ABCPR1234K","gstin":"` + testGSTIN(t) + `"}`)
	b := h.signIn(u)
	const assumed = "without the date registration took effect"
	if b.get("/console/tax") != http.StatusOK {
		t.Fatalf("tax: %d", b.status)
	}
	for _, want := range []string{assumed, "gstRegisteredFrom"} {
		if !strings.Contains(b.page, want) {
			t.Errorf("the Tax page lacks %q", want)
		}
	}
	patch(`{"gstRegisteredFrom":"2024-04-01"}`)
	if b.get("/console/tax") != http.StatusOK || strings.Contains(b.page, assumed) {
		t.Errorf("with the date entered the Tax page still says it assumed one (%d)", b.status)
	}
}

// testGSTIN is a valid Maharashtra GSTIN around the PAN ABCPR1234K.
func testGSTIN(t *testing.T) string {
	t.Helper()
	const first14 = "27ABCPR1234K1Z"
	c, err := india.GSTINCheckChar(first14)
	if err != nil {
		t.Fatal(err)
	}
	return first14 + string(c)
}

package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestInitiateMemoType: memoType says how the memo travels on the live
// rail (Stellar MEMO_ID or MEMO_TEXT) when the memo alone would not; it is
// checked at initiate against the memo, and the payment shows the type the
// memo travels as, given or not.
func TestInitiateMemoType(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true; o.limits = map[string]int{"initiate": 10000} })
	for _, c := range []struct {
		name, memo, memoType string
		want                 string // the payment's memoType, or the field named in a 400
		status               int
	}{
		{"NumberDefaultsToID", "42", "", "id", http.StatusCreated},
		{"LeadingZeroDefaultsToText", "0042", "", "text", http.StatusCreated},
		{"TextDefaultsToText", "INV-1", "", "text", http.StatusCreated},
		{"NoMemoNoType", "", "", "", http.StatusCreated},
		{"NumberAsText", "42", "text", "text", http.StatusCreated},
		{"LeadingZeroAsText", "0042", "text", "text", http.StatusCreated},
		{"NumberAsID", "18446744073709551615", "id", "id", http.StatusCreated},
		// A memo longer than a text memo is still accepted without a type,
		// as before: only the live rail refuses it, at confirm.
		{"LongUntyped", strings.Repeat("m", 29), "", "text", http.StatusCreated},
		{"ErrLeadingZeroAsID", "0042", "id", "memo", http.StatusBadRequest},
		{"ErrTextAsID", "INV-1", "id", "memo", http.StatusBadRequest},
		{"ErrAboveUint64AsID", "18446744073709551616", "id", "memo", http.StatusBadRequest},
		{"ErrTextTooLong", strings.Repeat("₹", 10), "text", "memo", http.StatusBadRequest},
		{"ErrTypeWithoutMemo", "", "id", "memo", http.StatusBadRequest},
		{"ErrUnknownType", "42", "hash", "memoType", http.StatusBadRequest},
		{"ErrTypeCase", "42", "ID", "memoType", http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			body := map[string]any{"amount": "10.00", "currency": "USD", "destinationAddress": testAddress}
			if c.memo != "" {
				body["memo"] = c.memo
			}
			if c.memoType != "" {
				body["memoType"] = c.memoType
			}
			r := e.req("POST", "/api/v1/payments/initiate", body)
			is.Equal(r.Status, c.status)
			if c.status != http.StatusCreated {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				is.True(r.field(t, c.want) != "")
				return
			}
			m := r.JSON(t)
			got, _ := m["memoType"].(string)
			is.Equal(got, c.want)
			r = e.req("GET", "/api/v1/payments/payouts/"+m["id"].(string), nil)
			got, _ = r.JSON(t)["memoType"].(string)
			is.Equal(got, c.want) // as stored
		})
	}
}

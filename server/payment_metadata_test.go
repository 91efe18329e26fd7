package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// TestPaymentMetadata: metadata given at initiate is stored with the
// payment and comes back on it (initiate, get, list), in its payout.*
// events and in the webhooks that deliver them.
func TestPaymentMetadata(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newWebhookEnv(t, whConfig{schedule: fastSchedule(1, 10*time.Millisecond)})
	e := w.env
	rx := newReceiver(t, func(int) int { return http.StatusOK })
	_, secret := w.createWebhook(rx.URL, "payout.completed")
	rx.trust(secret)
	meta := map[string]any{"orderId": "A-1042", "customer": "Zoë & Co \"quoted\"", "empty": "", strings.Repeat("k", 40): strings.Repeat("v", 500)}

	r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "10.00", "currency": "USD",
		"destinationAddress": testAddress, "metadata": meta})
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(r.JSON(t)["metadata"], meta)
	id := r.JSON(t)["id"].(string)

	p, err := e.DB.Payments().FindPayment(context.Background(), e.UserID, id)
	is.NoErr(err)
	is.Equal(len(p.Metadata), len(meta))
	is.Equal(p.Metadata["customer"], meta["customer"])

	is.Equal(e.req("GET", "/api/v1/payments/payouts/"+id, nil).JSON(t)["metadata"], meta)
	list := e.listPage("/api/v1/payments?limit=1")
	is.Equal(list.Items[0]["metadata"], meta)

	if r := e.confirm(id, "10.00"); r.Status != http.StatusCreated {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	e.waitStatus(id, "COMPLETED", 10*time.Second)
	for _, typ := range []string{"payout.processing", "payout.completed"} {
		evs := w.eventsOf(typ)
		is.Equal(len(evs), 1)
		is.Equal(evs[0]["data"].(map[string]any)["metadata"], meta)
	}
	wait.Until(t, 30*time.Second, "payout.completed delivered", func() bool { return rx.accepted("payout.completed") })
	got := rx.ofType("payout.completed")[0]
	is.Equal(got.Verified, []bool{true})
	is.Equal(got.Data["metadata"], meta)

	// A payment without metadata carries none.
	plain := e.initiate("11.00", nil)
	_, has := e.req("GET", "/api/v1/payments/payouts/"+plain, nil).JSON(t)["metadata"]
	is.True(!has)
}

// TestPaymentMetadataRefused: anything but an object of up to 20 string
// keys (1–40 characters) with string values (up to 500) is 400 naming the
// entry, and nothing is written.
func TestPaymentMetadataRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 100} })
	many := map[string]any{}
	for i := 0; i < 21; i++ {
		many[fmt.Sprintf("k%02d", i)] = "v"
	}
	long := strings.Repeat("x", 41)
	cases := []struct {
		name     string
		metadata any
		field    string
	}{
		{"String", "order=1", "metadata"},
		{"Array", []any{"a"}, "metadata"},
		{"Number", 5, "metadata"},
		{"TooManyKeys", many, "metadata"},
		{"KeyTooLong", map[string]any{long: "v"}, "metadata." + long},
		{"EmptyKey", map[string]any{"": "v"}, "metadata."},
		{"NumberValue", map[string]any{"n": 5}, "metadata.n"},
		{"NullValue", map[string]any{"n": nil}, "metadata.n"},
		{"BoolValue", map[string]any{"b": true}, "metadata.b"},
		{"ObjectValue", map[string]any{"o": map[string]any{"x": "y"}}, "metadata.o"},
		{"ValueTooLong", map[string]any{"v": strings.Repeat("é", 501)}, "metadata.v"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "10.00", "currency": "USD",
				"destinationAddress": testAddress, "metadata": c.metadata})
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			if r.field(t, c.field) == "" {
				t.Fatalf("the error does not name %q: %s", c.field, r.Body)
			}
		})
	}
	var n int
	is.New(t).NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n))
	is.New(t).Equal(n, 0)
	// null is no metadata.
	r := e.req("POST", "/api/v1/payments/initiate", json.RawMessage(`{"amount":"10.00","currency":"USD","destinationAddress":"`+testAddress+`","metadata":null}`))
	is.New(t).Equal(r.Status, http.StatusCreated)
}

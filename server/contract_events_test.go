package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

func flowEvents(t *testing.T, f *fixtures) {
	q := f.q
	// Every event of the default user, page by page: each page is checked
	// against the Event schema (data per type).
	types := map[string]bool{}
	collect := func(key string) {
		for page := 1; ; page++ {
			v := q.do(t, call{op: "listEvents", key: key, noQuery: true, query: map[string]string{"page": itoa(page), "limit": "100"}, want: 200}).value(t)
			items := asArr(v["items"])
			for _, it := range items {
				ev := asMap(it)
				types[asStr(ev["type"])] = true
				if f.eventID == "" {
					f.eventID = asStr(ev["id"])
				}
			}
			if len(items) < 100 {
				return
			}
		}
	}
	wait.Until(t, 20*time.Second, "the failing endpoint to be disabled", func() bool { return webhookDisabled(t, f) })
	collect("")
	q.do(t, call{op: "listEvents", query: map[string]string{"after": f.eventID}, want: 200})
	q.do(t, call{op: "getEvent", path: map[string]string{"id": f.eventID}, want: 200})
	var kycKey string
	kycKey, _, _ = f.e.newUser("kyc-page@example.com", false, []string{"payments:read"})
	collect(kycKey)
	collect(f.liveKey)
	var missing []string
	for _, typ := range store.EventTypes {
		if !types[typ] {
			missing = append(missing, typ)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("event types never seen (so never checked against the document): %v", missing)
	}
	f.paths["event"] = map[string]string{"id": f.eventID}
}

func webhookDisabled(t *testing.T, f *fixtures) bool {
	ep, err := f.e.DB.Webhooks().FindWebhookEndpoint(context.Background(), f.e.UserID, f.failingHook)
	if err != nil {
		t.Fatal(err)
	}
	return ep.Status == store.WebhookDisabled
}

func flowWebhookManagement(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	id := map[string]string{"id": f.webhookID}
	q.do(t, call{op: "listWebhooks", want: 200})
	q.do(t, call{op: "getWebhook", path: id, want: 200})
	q.do(t, call{op: "listWebhookDeliveries", path: id, want: 200})
	q.do(t, call{op: "listWebhookDeliveries", path: id, noQuery: true, want: 200})
	q.do(t, call{op: "listWebhookDeliveries", path: map[string]string{"id": f.failingHook}, query: map[string]string{"eventId": ""}, want: 200})
	q.do(t, call{op: "enableWebhook", path: map[string]string{"id": f.failingHook}, want: 200})
	q.do(t, call{op: "rotateWebhookSecret", path: map[string]string{"id": f.failingHook}, want: 200})
	q.do(t, call{op: "deleteWebhook", path: map[string]string{"id": f.failingHook}, want: 204})
	full, _, _ := e.newUser("many-hooks@example.com", false, store.AllScopes)
	for i := 0; i < store.MaxWebhookEndpoints; i++ {
		q.do(t, call{op: "createWebhook", key: full, want: 201})
	}
	q.do(t, call{op: "createWebhook", key: full, want: 409})
}

func flowWebhookPayloads(t *testing.T, f *fixtures) {
	c := f.q.c
	got := f.good.deliveries()
	if len(got) == 0 {
		t.Fatal("the webhook target got no deliveries")
	}
	seen := map[string]int{}
	for _, d := range got {
		v, err := decodeJSONValue(d.body)
		if err != nil {
			t.Fatalf("delivery body is not JSON: %s", d.body)
		}
		typ := asStr(asMap(v)["type"])
		hook := asMap(asMap(c.doc["webhooks"])[typ])
		if hook == nil {
			t.Fatalf("delivery of type %q, which the document's webhooks section does not describe", typ)
		}
		ptr := "/webhooks/" + ptrEscape(typ) + "/post"
		if err := c.validate(t, ptr+"/requestBody/content/application~1json/schema", v); err != nil {
			t.Fatalf("%s delivery does not match the document: %v\n%s", typ, err, d.body)
		}
		for i, p := range asArr(asMap(hook["post"])["parameters"]) {
			name := asStr(asMap(p)["name"])
			val := d.header.Get(name)
			if err := c.validate(t, ptr+"/parameters/"+itoa(i)+"/schema", val); val == "" || err != nil {
				t.Fatalf("%s delivery header %s=%q: %v", typ, name, val, err)
			}
		}
		if !verifyStandardWebhook(f.secret, d.header.Get("webhook-id"), d.header.Get("webhook-timestamp"), d.body, d.header.Get("webhook-signature")) {
			t.Fatalf("%s delivery: webhook-signature does not verify with the secret", typ)
		}
		seen[typ]++
	}
	t.Logf("webhook deliveries checked against the document: %v", seen)
}

package input

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// maxWebhookDescription is the longest endpoint description accepted.
const maxWebhookDescription = 256

// Webhook is a new webhook endpoint, as POST /webhooks and the console's
// settings form take it.
type Webhook struct {
	URL         string   `json:"url"`
	Description string   `json:"description"`
	EventTypes  []string `json:"eventTypes"`
}

// Validate checks the endpoint (its URL under the mode's rule,
// jobs.CheckWebhookURL) and returns its subscription sorted without
// duplicates; none subscribes to every type.
func (q *Webhook) Validate(ctx context.Context, rule jobs.TargetRule) ([]string, error) {
	fields := map[string]string{}
	if utf8.RuneCountInString(q.Description) > maxWebhookDescription {
		fields["description"] = "must be at most 256 characters"
	}
	types, msg := eventTypeSet(q.EventTypes)
	if msg != "" {
		fields["eventTypes"] = msg
	}
	if err := jobs.CheckWebhookURL(ctx, q.URL, rule, nil); err != nil {
		var e *apperr.Error
		if !errors.As(err, &e) || e.Code != apperr.ErrValidation {
			return nil, err
		}
		for k, v := range e.Fields {
			fields[k] = v
		}
	}
	if len(fields) > 0 {
		return nil, Invalid(fields)
	}
	return types, nil
}

// eventTypeSet checks a subscription list and returns it sorted without
// duplicates; nil or empty subscribes to every type.
func eventTypeSet(in []string) ([]string, string) {
	var out []string
	for _, t := range in {
		if !store.KnownEventType(t) {
			return nil, "unknown event type " + QuoteShort(t) + "; known: " + strings.Join(store.EventTypes, ", ")
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out, ""
}

// QuoteShort quotes caller input for an error message, cut to a sane length.
func QuoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return `"` + strings.ToValidUTF8(s, "?") + `"`
}

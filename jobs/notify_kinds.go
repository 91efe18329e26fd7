package jobs

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"text/template"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/money"
)

// Notice kinds: what a user may turn off by e-mail in Settings. The names
// are stored with each notice and each opt-out, so they never change.
const (
	NoticePayoutCompleted  = "payout.completed"
	NoticePayoutFailed     = "payout.failed"
	NoticePayoutNeedsYou   = "payout.needs_you"
	NoticeDepositReceived  = "deposit.received"
	NoticeVaultQuarantined = "vault.quarantined"
	NoticeAdvanceTax       = "tax.advance_due"
	NoticeLUTExpiring      = "lut.expiring"
	NoticeRealisationDue   = "invoice.realisation_due"
)

// NoticeKind is a kind of notice as Settings lists it.
type NoticeKind struct{ Kind, Label string }

// NoticeKinds are every kind, in the order Settings lists them.
var NoticeKinds = []NoticeKind{
	{NoticePayoutCompleted, "A payout completed"},
	{NoticePayoutFailed, "A payout failed"},
	{NoticePayoutNeedsYou, "A payout needs you (held for review, outcome unknown, or stopped)"},
	{NoticeDepositReceived, "A deposit arrived in a vault"},
	{NoticeVaultQuarantined, "A vault was quarantined"},
	{NoticeAdvanceTax, "An advance-tax date is 7 days away"},
	{NoticeLUTExpiring, "Your LUT ends with the financial year"},
	{NoticeRealisationDue, "An invoice under LUT nears its one-year limit (rule 96A)"},
}

// eventNotice turns one event type into a notice: its title, body and link
// are text templates over the event's data (numbers kept exact as
// json.Number). A row whose skip says so makes no notice of that event.
type eventNotice struct {
	event, kind       string
	title, body, link *template.Template
	skip              func(data map[string]any) bool
}

// eventNotices are the events a user is told of. Adding a kind is one row
// here (and one in NoticeKinds).
var eventNotices = []eventNotice{
	on("payout.completed", NoticePayoutCompleted, `Payout of {{amount .amountMinor .currency}} completed`,
		`{{with .amountInrPaise}}{{inr .}} was credited to your books. {{end}}{{if .firaId}}Its FIRA is ready to download.{{end}}`,
		`/console/payouts/{{.paymentId}}`),
	on("payout.failed", NoticePayoutFailed, `Payout of {{amount .amountMinor .currency}} failed`,
		`{{.failedReason}}. The reserved funds are back in the vault; a retry can send it again.`,
		`/console/payouts/{{.paymentId}}`).unless(cancelled),
	on("payout.manual_review", NoticePayoutNeedsYou, `Payout of {{amount .amountMinor .currency}} is held for review`,
		`{{with .reviewReason}}{{.}}. {{end}}Nothing is sent until the review approves it.`,
		`/console/payouts/{{.paymentId}}`),
	on("payout.unknown", NoticePayoutNeedsYou, `Payout of {{amount .amountMinor .currency}}: the network has not answered`,
		`payoutd keeps asking and the funds stay reserved until the network says whether it was paid.`,
		`/console/payouts/{{.paymentId}}`),
	on("payout.needs_attention", NoticePayoutNeedsYou, `Payout of {{amount .amountMinor .currency}} has stopped and needs a person`,
		`{{.attention}}`, `/console/payouts/{{.paymentId}}`),
	on("deposit.received", NoticeDepositReceived, `Deposit of {{amount .amountMinor .currency}} received`,
		`{{with .from}}From {{.}}{{else}}Received{{end}}{{with .memo}}, memo “{{.}}”{{end}}{{with .transactionHash}}, transaction {{.}}{{end}}.`,
		`/console/vaults/{{.vaultId}}`),
	on("vault.quarantined", NoticeVaultQuarantined, `A vault was quarantined: it signs nothing until it is released`,
		`{{.description}} Deposits are still booked.`, `/console/vaults/{{.vaultId}}`),
}

// cancelled is a payout its user cancelled: they know.
func cancelled(data map[string]any) bool {
	r, _ := data["failedReason"].(string)
	return strings.HasPrefix(r, "CANCELLED")
}

func on(event, kind, title, body, link string) eventNotice {
	parse := func(s string) *template.Template {
		return template.Must(template.New(event).Funcs(noticeFuncs).Option("missingkey=zero").Parse(s))
	}
	return eventNotice{event: event, kind: kind, title: parse(title), body: parse(body), link: parse(link)}
}

func (n eventNotice) unless(skip func(map[string]any) bool) eventNotice { n.skip = skip; return n }

var noticeFuncs = template.FuncMap{"amount": noticeAmount, "inr": noticeINR}

// noticeAmount writes minor units of a currency for a person: ₹1,23,456.78,
// USD 1,234.56.
func noticeAmount(minor any, currency any) string {
	n, ok := exact(minor)
	cur, _ := currency.(string)
	if !ok {
		return cur
	}
	if cur == "INR" {
		return noticeINR(minor)
	}
	exp := 2
	if c, ok := money.Lookup(cur); ok {
		exp = c.Exponent
	}
	return cur + " " + documents.FormatForeign(n, exp)
}

func noticeINR(paise any) string {
	n, ok := exact(paise)
	if !ok {
		return ""
	}
	if n < 0 {
		return "−₹" + documents.FormatINR(-n)
	}
	return "₹" + documents.FormatINR(n)
}

// exact reads an integer the event's data holds as json.Number (or an
// int64 the dated notices pass), never through a float.
func exact(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(x), 10, 64)
		return n, err == nil
	case int64:
		return x, true
	}
	return 0, false
}

// render runs the row's templates over data.
func (n eventNotice) render(data map[string]any) (title, body, link string, err error) {
	out := make([]string, 3)
	for i, t := range []*template.Template{n.title, n.body, n.link} {
		var b bytes.Buffer
		if err := t.Execute(&b, data); err != nil {
			return "", "", "", err
		}
		out[i] = strings.TrimSpace(b.String())
	}
	return out[0], out[1], out[2], nil
}

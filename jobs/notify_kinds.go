package jobs

import (
	"encoding/json"
	"strings"

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

// eventNotice turns one event type into a notice: text writes its title,
// body and link from the event's data. A row whose skip says so makes no
// notice of that event. The rows are Go functions rather than templates
// because a notice is written by the transaction that writes its event, on
// the one write connection.
type eventNotice struct {
	event, kind string
	text        func(d noticeData) noticeText
	skip        func(d noticeData) bool
}

// noticeText is a notice's words: its title, body and console link.
type noticeText struct{ title, body, link string }

// noticeData is what a notice reads of its event's data. Amounts stay
// exact (json.Number); a field the event does not have is empty.
type noticeData struct {
	PaymentID       string      `json:"paymentId"`
	AmountMinor     json.Number `json:"amountMinor"`
	Currency        string      `json:"currency"`
	AmountINRPaise  json.Number `json:"amountInrPaise"`
	FiraID          string      `json:"firaId"`
	FailedReason    string      `json:"failedReason"`
	ReviewReason    string      `json:"reviewReason"`
	Attention       string      `json:"attention"`
	VaultID         string      `json:"vaultId"`
	From            string      `json:"from"`
	Memo            string      `json:"memo"`
	TransactionHash string      `json:"transactionHash"`
	Description     string      `json:"description"`
	InvoiceID       string      `json:"invoiceId"`
	Number          string      `json:"number"`
	Limit           string      `json:"limit"`
	Message         string      `json:"message"`
}

// eventNotices are the events a user is told of. Adding a kind is one row
// here (and one in NoticeKinds).
var eventNotices = []eventNotice{
	{event: "payout.completed", kind: NoticePayoutCompleted, text: func(d noticeData) noticeText {
		var body string
		if d.AmountINRPaise != "" {
			if paise, err := d.AmountINRPaise.Int64(); err == nil {
				body = noticeINR(paise)
			}
			body += " was credited to your books. "
		}
		if d.FiraID != "" {
			body += "Its FIRA is ready to download."
		}
		return noticeText{"Payout of " + d.amount() + " completed", body, d.payoutLink()}
	}},
	{event: "payout.failed", kind: NoticePayoutFailed, skip: cancelled, text: func(d noticeData) noticeText {
		return noticeText{"Payout of " + d.amount() + " failed",
			d.FailedReason + ". The reserved funds are back in the vault; a retry can send it again.", d.payoutLink()}
	}},
	{event: "payout.manual_review", kind: NoticePayoutNeedsYou, text: func(d noticeData) noticeText {
		return noticeText{"Payout of " + d.amount() + " is held for review",
			sentence(d.ReviewReason) + "Nothing is sent until the review approves it.", d.payoutLink()}
	}},
	{event: "payout.unknown", kind: NoticePayoutNeedsYou, text: func(d noticeData) noticeText {
		return noticeText{"Payout of " + d.amount() + ": the network has not answered",
			"payoutd keeps asking and the funds stay reserved until the network says whether it was paid.", d.payoutLink()}
	}},
	{event: "payout.needs_attention", kind: NoticePayoutNeedsYou, text: func(d noticeData) noticeText {
		return noticeText{"Payout of " + d.amount() + " has stopped and needs a person", d.Attention, d.payoutLink()}
	}},
	{event: "deposit.received", kind: NoticeDepositReceived, text: func(d noticeData) noticeText {
		body := "Received"
		if d.From != "" {
			body = "From " + d.From
		}
		if d.Memo != "" {
			body += ", memo “" + d.Memo + "”"
		}
		if d.TransactionHash != "" {
			body += ", transaction " + d.TransactionHash
		}
		return noticeText{"Deposit of " + d.amount() + " received", body + ".", "/console/vaults/" + d.VaultID}
	}},
	{event: "invoice.realisation_due", kind: NoticeRealisationDue, text: func(d noticeData) noticeText {
		return noticeText{"Invoice " + d.Number + " must be paid by " + longDay(d.Limit) + " (rule 96A)", d.Message,
			"/console/invoices/" + d.InvoiceID}
	}},
	{event: "vault.quarantined", kind: NoticeVaultQuarantined, text: func(d noticeData) noticeText {
		return noticeText{"A vault was quarantined: it signs nothing until it is released",
			d.Description + " Deposits are still booked.", "/console/vaults/" + d.VaultID}
	}},
}

// cancelled is a payout its user cancelled: they know.
func cancelled(d noticeData) bool { return strings.HasPrefix(d.FailedReason, "CANCELLED") }

// sentence is s ended by a full stop and a space, or nothing when s is empty.
func sentence(s string) string {
	if s == "" {
		return ""
	}
	return s + ". "
}

func (d noticeData) payoutLink() string { return "/console/payouts/" + d.PaymentID }

// amount writes the event's amount for a person: ₹1,23,456.78, USD
// 1,234.56; only the currency when the amount is not an integer.
func (d noticeData) amount() string {
	n, err := d.AmountMinor.Int64()
	if err != nil {
		return d.Currency
	}
	if d.Currency == "INR" {
		return noticeINR(n)
	}
	exp := 2
	if c, ok := money.Lookup(d.Currency); ok {
		exp = c.Exponent
	}
	return d.Currency + " " + documents.FormatForeign(n, exp)
}

// noticeINR writes paise as rupees for a person: ₹1,23,456.78.
func noticeINR(paise int64) string {
	if paise < 0 {
		return "−₹" + documents.FormatINR(-paise)
	}
	return "₹" + documents.FormatINR(paise)
}

// render is the notice of an event with data: its words, trimmed.
func (n eventNotice) render(d noticeData) noticeText {
	t := n.text(d)
	return noticeText{strings.TrimSpace(t.title), strings.TrimSpace(t.body), strings.TrimSpace(t.link)}
}
